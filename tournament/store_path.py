"""Whether a path can hold a tournament database, before SQLite opens it:
SQLite says only "unable to open database file" of a path that cannot."""

from __future__ import annotations

from pathlib import Path

from server.files import Kind, file_kind, not_a_database_file
from tournament.store_errors import StoreError

__all__ = ["check_existing", "check_path", "database_exists"]


def database_exists(path: str | Path) -> bool:
    """Whether there is something at `path`; a path that cannot even be looked
    at (too long, a folder on the way that may not be read) is a StoreError."""
    try:
        # Not Path.exists: it calls a symlink loop (ELOOP) nothing there.
        return file_kind(path) is not Kind.MISSING
    except NotADirectoryError:  # a file on the way: _check_path names it
        return False
    except OSError as error:
        raise StoreError(f"cannot use {path}: {error.strerror or error}") from None


def check_existing(path: str | Path) -> None:
    """For commands that only read a tournament: a StoreError unless there is a
    database at `path` (an empty file would otherwise get an empty schema)."""
    if str(path) == ":memory:":
        return
    if not database_exists(path):
        raise StoreError(f"no database at {path}")
    # A FIFO: read_store's read-only open waited for a writer that never came.
    problem = not_a_database_file(path)
    if problem is not None:
        raise StoreError(f"{path} {problem}")
    if Path(path).is_file() and Path(path).stat().st_size == 0:
        raise StoreError(f"{path} is an empty file, not a tournament database")


def check_path(path: str) -> None:
    """Refuse a path that can hold no database file, in one line (SQLite would
    only say "unable to open database file"); create its missing folders."""
    file = Path(path)
    if database_exists(file):
        problem = not_a_database_file(file)
        if problem is not None:
            raise StoreError(f"{path} {problem}")
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(f"cannot create {path}: {file.parent} is not a folder") from None
    except OSError as error:
        raise StoreError(f"cannot create the folder of {path}: {error.strerror}") from None
