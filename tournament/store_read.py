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
`immutable`): a connection lives for one page, and a runner that starts
meanwhile writes to a new -wal file, not to the database file, until its
first checkpoint.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from tournament.store import MIGRATIONS, Store, StoreError

__all__ = ["connect_read_only", "open_read_only", "read_only_uri"]

SQLITE_HEADER = b"SQLite format 3\x00"


def read_only_uri(path: str | Path, *, immutable: bool = False) -> str:
    """The SQLite URI that opens the file at `path` for reading only: its path
    percent-encoded from its bytes, as a `#`, `?` or `%` in it would otherwise
    end or change it (and a name that is not UTF-8 is a name all the same)."""
    uri = f"file:{quote(os.fsencode(Path(path).resolve()))}?mode=ro"
    return uri + "&immutable=1" if immutable else uri


def connect_read_only(path: str | Path, timeout: float = 10.0) -> sqlite3.Connection:
    """A connection that reads the database at `path` and never writes to it,
    nor creates a file beside it (sqlite3.Error as sqlite3.connect gives it)."""
    immutable = _closed_wal_database(path)
    return sqlite3.connect(
        read_only_uri(path, immutable=immutable), uri=True, isolation_level=None, timeout=timeout
    )


def _closed_wal_database(path: str | Path) -> bool:
    """A SQLite database in WAL mode with no -wal file beside it: no connection
    has it open, and everything committed to it is in the file itself."""
    file = Path(path).resolve()
    try:
        with file.open("rb") as opened:
            header = opened.read(20)
        wal = Path(f"{file}-wal").exists()
    except OSError:
        return False
    return header[:16] == SQLITE_HEADER and header[18:20] == b"\x02\x02" and not wal


def open_read_only(path: str | Path) -> Store:
    """The tournament database at `path` as a Store for reading alone.
    StoreError when it is not a tournament database of this version (an older
    one is upgraded by opening it read-write once)."""
    try:
        connection = connect_read_only(path)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open {path}: {error}") from None
    try:
        tables = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if "tournaments" not in tables:
            what = "a server's database" if "matches" in tables else "another program's database"
            raise StoreError(
                f"{path} is not a tournament database" + (f": it is {what}" if tables else "")
            )
        row = None
        if "schema_version" in tables:
            row = connection.execute("SELECT version FROM schema_version").fetchone()
        version = int(row[0]) if row else 0
        if version < len(MIGRATIONS):
            raise StoreError(
                f"{path} was written by an older sheepfold (its tables are version "
                f"{version}, this one reads {len(MIGRATIONS)}): open it once with "
                "`sheepfold tournament report --db FILE` to upgrade it"
            )
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{path} has schema version {version}, newer than this sheepfold "
                f"({len(MIGRATIONS)}); upgrade sheepfold"
            )
    except sqlite3.DatabaseError as error:
        connection.close()
        raise StoreError(f"cannot read {path}: {error}") from None
    except StoreError:
        connection.close()
        raise
    return Store.on(path, connection)
