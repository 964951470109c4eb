"""Opening a tournament database to write it: the path checked and the file
created readable by its owner alone, a SQLite file of another kind refused,
WAL mode set, and whatever of the schema's migrations (tournament/store_schema.py)
is missing applied. Every step that may wait for another process's lock waits
as waiting_for_lock says (tournament/store_lock.py).
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TypeVar

from server.files import create_owner_only, folder_hint
from server.sqlite_schema import table_columns
from tournament.store_checks import stored_version
from tournament.store_errors import StoreError, StoreLocked, is_busy
from tournament.store_lock import LockWait, waiting_for_lock
from tournament.store_path import check_path
from tournament.store_schema import MIGRATIONS

__all__ = [
    "check_columns",
    "foreign_kind",
    "has_table",
    "locked_wait",
    "newer_schema",
    "open_database",
    "read_version",
    "table_names",
]

T = TypeVar("T")


def read_version(connection: sqlite3.Connection, path: str | Path) -> int:
    """The schema version of the tournament database open on `connection`, whose
    schema_version table exists (a StoreError naming a damaged one)."""
    rows = connection.execute("SELECT version FROM schema_version").fetchall()
    return stored_version(str(path), rows, len(MIGRATIONS))


def check_columns(connection: sqlite3.Connection, path: str | Path, version: int) -> None:
    """StoreError when a table of a database of the current schema `version`
    lacks a column that version has (dropped by hand, or a table of that name
    made by another program): `tournament report` once ended in a `no such
    column` traceback on one. Older versions, read as they are, are left to
    their readers; a table missing altogether is read as empty (has_table)."""
    if version != len(MIGRATIONS):
        return
    for table, wanted in _current_columns().items():
        present = set(table_columns(connection, table))
        if not present:
            continue
        missing = [column for column in wanted if column not in present]
        if missing:
            raise StoreError(
                f"{path} is not a whole tournament database: its table {table} has no column "
                f"{', '.join(missing)}, which schema version {version} has: edited by hand "
                "or damaged"
            )


@functools.cache
def _current_columns() -> dict[str, tuple[str, ...]]:
    """Each table's columns, as the migrations make them."""
    with closing(sqlite3.connect(":memory:")) as fresh:
        for migration in MIGRATIONS:
            fresh.executescript(migration)
        return {table: table_columns(fresh, table) for table in sorted(table_names(fresh))}


def table_names(connection: sqlite3.Connection) -> set[str]:
    """The names of the tables of the database open on `connection`."""
    return {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }


def has_table(connection: sqlite3.Connection, name: str) -> bool:
    """Whether the database open on `connection` has a table `name` (one
    written by an older sheepfold may lack those added since: read as empty)."""
    query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    return connection.execute(query, (name,)).fetchone() is not None


def newer_schema(path: str | Path, version: int) -> StoreError:
    """The refusal of a database whose schema `version` is newer than this sheepfold's."""
    return StoreError(
        f"{path} has schema version {version}, newer than this sheepfold "
        f"({len(MIGRATIONS)}); upgrade sheepfold"
    )


def foreign_kind(tables: set[str]) -> str | None:
    """What a file of `tables` is if not a tournament database (None: it is, or
    empty). `tournaments` without `schema_version` (made with it) is another tool's."""
    if not tables or {"tournaments", "schema_version"} <= tables:
        return None
    return "a server's database" if "matches" in tables else "another program's database"


def open_database(path: str, wait: LockWait) -> sqlite3.Connection:
    """A connection to the tournament database at `path` (or ":memory:"),
    created and brought to the current schema when it needs to be; autocommit
    (transactions are begun and ended by hand). StoreError naming why it
    cannot be used; StoreLocked when another process held its lock for
    `wait.seconds`."""
    if path != ":memory:":
        check_path(path)
        create_owner_only(path)  # it holds the tournaments' deal secrets
    try:
        connection = sqlite3.connect(path, isolation_level=None, timeout=wait.seconds)
    except sqlite3.Error as error:
        hint = "" if path == ":memory:" else folder_hint(path)
        raise StoreError(f"cannot open {path}: {error}{hint}") from None
    try:
        locked_wait(connection, path, wait, lambda: _prepare(connection, path))
    except sqlite3.OperationalError as error:  # locked, read-only, no space, ...
        connection.close()
        hint = "" if path == ":memory:" else folder_hint(path)
        if is_busy(error):
            raise StoreLocked(f"cannot use {path}: {error}") from None
        raise StoreError(f"cannot use {path}: {error}{hint}") from None
    except sqlite3.DatabaseError as error:
        connection.close()
        raise StoreError(f"{path} is not a tournament database ({error})") from None
    except StoreError:
        connection.close()
        raise
    return connection


def locked_wait(
    connection: sqlite3.Connection, path: str, wait: LockWait, attempt: Callable[[], T]
) -> T:
    """`attempt()`, a use of `connection` that may wait for another process's
    lock, waited for as waiting_for_lock waits: said once it lasts, a
    StoreLocked when it runs out."""
    full = _busy_ms(wait.seconds)

    def within(seconds: float) -> T:
        connection.execute(f"PRAGMA busy_timeout = {_busy_ms(seconds)}")
        try:
            return attempt()
        finally:
            connection.execute(f"PRAGMA busy_timeout = {full}")

    return waiting_for_lock(path, within, wait.seconds, wait.on_wait)


def _busy_ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def _prepare(connection: sqlite3.Connection, path: str) -> None:
    _check_kind(connection, path)
    connection.execute("PRAGMA journal_mode=WAL")
    set_up_for_writing(connection)
    _migrate(connection, path)
    check_columns(connection, path, read_version(connection, path))


def set_up_for_writing(connection: sqlite3.Connection) -> None:
    """What every connection that writes a tournament database sets (the
    journal mode is the file's, set once by open_database): each commit on
    disk before it returns, and foreign keys enforced."""
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")


def _check_kind(connection: sqlite3.Connection, path: str) -> None:
    """Refuse a SQLite file that holds something else (a server's matches, ...)."""
    what = foreign_kind(table_names(connection))
    if what is not None:
        raise StoreError(f"{path} is not a tournament database: it is {what}")


def _stored_version(connection: sqlite3.Connection, path: str) -> int | None:
    """The schema version, read without taking the write lock; None: the
    file has no version yet (a StoreError when its table was damaged)."""
    if not has_table(connection, "schema_version"):
        return None
    return read_version(connection, path)


def _migrate(connection: sqlite3.Connection, path: str) -> None:
    # A current file needs no write lock: a reader (report, replay) once took
    # it on every open, and so waited for any writer to find nothing to do.
    if _stored_version(connection, path) == len(MIGRATIONS):
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = _stored_version(connection, path)  # again: another process may have migrated
        if version is None:
            connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            connection.execute("INSERT INTO schema_version (version) VALUES (0)")
            version = 0
        if version > len(MIGRATIONS):
            raise newer_schema(path, version)
        for target in range(version, len(MIGRATIONS)):
            for statement in MIGRATIONS[target].split(";"):
                if statement.strip():
                    connection.execute(statement)
            connection.execute("UPDATE schema_version SET version = ?", (target + 1,))
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:  # else the ROLLBACK's own error hides the real one
            connection.execute("ROLLBACK")
        raise
