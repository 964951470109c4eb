"""A tournament database opened for reading alone, as the web viewer reads
the file of a tournament that may still be running: no lock taken, no table
created or upgraded, so the runner writing it never waits for the reader.

A read-only connection to a database in WAL mode uses its -wal and -shm
files, and creates them when they are not there. When no runner has the
database open there are none (the last connection to close removes them):
a reader that may not create files beside it (another user's folder, a
read-only mount) could not read it at all, and one that may left them
behind, its own, where the runner (another user) could then no longer write
its database. Such a database is read as the unchanging file it is (SQLite's
`immutable`). SQLite then takes no lock and keeps the pages it has read, so
a runner that starts meanwhile and checkpoints (or closes the database again)
writes pages under the reader, whose later reads mix the two versions (games
missing or found twice, "database disk image is malformed"). `read_store` and
`read_connection` therefore check that the file is still closed and unchanged
after the read, and read it again otherwise (it is then read through its -wal
file, or as the new unchanging file it is).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

from server.files import access_hint
from tournament.store import Store, StoreError, StoreLocked
from tournament.store_errors import is_busy
from tournament.store_lock import LOCK_WAIT_SECONDS, waiting_for_lock
from tournament.store_open import (
    check_columns,
    foreign_kind,
    newer_schema,
    read_version,
    table_names,
)
from tournament.store_schema import MIGRATIONS, READ_AS_IS_FROM

__all__ = [
    "ChangedWhileRead",
    "connect_read_only",
    "file_uri",
    "open_read_only",
    "read_connection",
    "read_only_uri",
    "read_store",
    "read_tournament",
]

SQLITE_HEADER = b"SQLite format 3\x00"
# Reads of a closed database that a runner changed meanwhile, before giving up.
ATTEMPTS = 3

T = TypeVar("T")
Opened = TypeVar("Opened")
_Mark = tuple[int, int, int, int, int]


def file_uri(path: str | Path, mode: str) -> str:
    """The SQLite URI that opens the existing file at `path` in `mode` ("ro",
    "rw": never created): its path percent-encoded from its bytes, as a `#`,
    `?` or `%` in it would otherwise end or change it (and a name that is not
    UTF-8 is a name all the same)."""
    return f"file:{quote(os.fsencode(Path(path).resolve()))}?mode={mode}"


def read_only_uri(path: str | Path, *, immutable: bool = False) -> str:
    """The SQLite URI that opens the file at `path` for reading only."""
    uri = file_uri(path, "ro")
    return uri + "&immutable=1" if immutable else uri


def connect_read_only(
    path: str | Path, timeout: float = 10.0, *, immutable: bool | None = None
) -> sqlite3.Connection:
    """A connection that reads the database at `path` and never writes to it,
    nor creates a file beside it (sqlite3.Error as sqlite3.connect gives it).
    `immutable` by default when the file is a closed WAL database: a read
    through it that a runner may have changed meanwhile is made with
    read_connection or read_store."""
    if immutable is None:
        immutable = _closed_wal_mark(path) is not None
    return sqlite3.connect(
        read_only_uri(path, immutable=immutable), uri=True, isolation_level=None, timeout=timeout
    )


def _closed_wal_mark(path: str | Path) -> _Mark | None:
    """For a SQLite database in WAL mode with no -wal file beside it (no
    connection has it open, and everything committed to it is in the file
    itself), what changes when the file is written; None for any other."""
    file = Path(path).resolve()
    try:
        status = file.stat()  # before the -wal is looked for: a runner closing ...
        with file.open("rb") as opened:
            header = opened.read(20)
        wal = Path(f"{file}-wal").exists()  # ... has written the file when it is gone
    except OSError:
        return None
    if header[:16] != SQLITE_HEADER or header[18:20] != b"\x02\x02" or wal:
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


class ChangedWhileRead(sqlite3.OperationalError):
    """A closed database a runner wrote each time it was read."""


def _read_whole(
    path: str | Path,
    open_: Callable[[bool], Opened],
    read: Callable[[Opened], T],
    close: Callable[[Opened], None],
) -> T:
    for attempt in range(ATTEMPTS):
        mark = _closed_wal_mark(path)
        opened: Opened | None = None
        try:
            opened = open_(mark is not None)
            result = read(opened)
        except Exception as error:
            # What a torn read raises (malformed, a row not found, ...) is no answer.
            if mark is None or _closed_wal_mark(path) == mark:
                raise
            if attempt + 1 == ATTEMPTS:
                raise _changed(path) from error
            continue
        finally:
            if opened is not None:
                close(opened)
        if mark is None or _closed_wal_mark(path) == mark:
            return result
    raise _changed(path)


def _changed(path: str | Path) -> ChangedWhileRead:
    return ChangedWhileRead(f"{Path(path).name} changed each time it was read (a runner started)")


def read_connection(
    path: str | Path, read: Callable[[sqlite3.Connection], T], timeout: float = 10.0
) -> T:
    """`read` on a read-only connection to `path` (closed after it), made again
    when a runner wrote the file while a closed database was read as immutable.
    sqlite3.Error as connect_read_only and `read` raise it."""
    return _read_whole(
        path,
        lambda immutable: connect_read_only(path, timeout, immutable=immutable),
        read,
        lambda connection: connection.close(),
    )


def read_store(path: str | Path, read: Callable[[Store], T], timeout: float = 10.0) -> T:
    """`read` on the tournament database at `path` opened for reading alone
    (open_read_only), made again like read_connection's. StoreError as
    open_read_only raises it; ChangedWhileRead when the file kept changing
    (a reader may try again shortly: the file is fine)."""
    return _read_whole(
        path,
        lambda immutable: open_read_only(path, immutable=immutable, timeout=timeout),
        read,
        lambda store: store.close(),
    )


def open_read_only(
    path: str | Path, *, immutable: bool | None = None, timeout: float = 10.0
) -> Store:
    """The tournament database at `path` as a Store for reading alone.
    StoreError when it is not a tournament database of this version (an older
    one is upgraded by opening it read-write once). A Store on a closed
    database (immutable, as connect_read_only) is for one read: see read_store."""
    try:
        connection = connect_read_only(path, timeout, immutable=immutable)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open {path}: {error}{access_hint(path, write=False)}") from None
    try:
        tables = table_names(connection)
        what = foreign_kind(tables)
        if what is not None or not tables:
            raise StoreError(
                f"{path} is not a tournament database" + (f": it is {what}" if what else "")
            )
        version = read_version(connection, path)
        if version < READ_AS_IS_FROM:
            raise StoreError(
                f"{path} was written by an older sheepfold (its tables are version "
                f"{version}, this one reads {len(MIGRATIONS)}): open it once with "
                "`sheepfold tournament report --db FILE` to upgrade it"
            )
        if version > len(MIGRATIONS):
            raise newer_schema(path, version)
        check_columns(connection, path, version)
    except sqlite3.DatabaseError as error:
        connection.close()
        if is_busy(error):
            raise StoreLocked(f"cannot read {path}: {error}") from None
        raise StoreError(f"cannot read {path}: {error}") from None
    except StoreError:
        connection.close()
        raise
    return Store.on(path, connection)


def read_tournament(
    path: str | Path,
    read: Callable[[Store], T],
    wait: float = LOCK_WAIT_SECONDS,
    on_wait: Callable[[float], None] | None = None,
) -> T:
    """`read` on the tournament database at `path`, opened as a Store (which
    upgrades an older file, and only then takes the write lock) or, when it
    cannot be opened so (a read-only mount, a folder this user may not write,
    another process's write lock on a file to upgrade), read as read_store
    reads it. Failing both, the StoreError of opening it for
    writing, which names why; StoreLocked when another process held it locked
    for `wait` seconds (waiting_for_lock, which calls `on_wait`)."""
    return waiting_for_lock(
        path, lambda timeout: _read_tournament(path, read, timeout), wait, on_wait
    )


def _read_tournament(path: str | Path, read: Callable[[Store], T], timeout: float) -> T:
    try:
        store = Store(path, timeout=timeout)
    except StoreError as refused:
        try:
            # After a lock waited for in full, at once: a writer's lock (WAL) does
            # not keep a reader out, and any other was just waited for.
            return read_store(path, read, 0.0 if isinstance(refused, StoreLocked) else timeout)
        except (StoreError, sqlite3.Error) as error:
            if is_busy(error) and not isinstance(refused, StoreLocked):
                raise
            raise refused from None
    with store:
        return read(store)
