"""The server database's schema, and its migrations.

The schema carries a version from day one: `MIGRATIONS[i]` takes a database
from version i to i + 1, and opening a file applies whatever is missing.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from contextlib import closing


class StoreError(Exception):
    """The database cannot be used by this server (e.g. written by a newer one)."""


def _script(db: sqlite3.Connection, script: str) -> None:
    """Each statement of `script` inside the caller's transaction (executescript
    would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _v1(db: sqlite3.Connection) -> None:
    _script(
        db,
        """
        CREATE TABLE matches (
            match_id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            players INTEGER NOT NULL,
            options_json TEXT NOT NULL,
            seed TEXT NOT NULL,               -- uint64: more than SQLite's signed INTEGER
            decision_seconds REAL NOT NULL,
            time_bank_seconds REAL NOT NULL,
            max_strikes INTEGER NOT NULL,
            token_hashes_json TEXT NOT NULL,  -- SHA-256 of each seat token, never the token
            created_at REAL NOT NULL,
            status TEXT NOT NULL,             -- running | finished | aborted
            result BLOB,                      -- serialized sheepfold.v1.MatchResult
            end_reason TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE moves (
            match_id TEXT NOT NULL REFERENCES matches(match_id),
            move INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action_index INTEGER NOT NULL,
            label TEXT NOT NULL,
            forced TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (match_id, move)
        ) WITHOUT ROWID;
        """,
    )


def _v2(db: sqlite3.Connection) -> None:
    # Time banks survive a restart; listing by status and game stays fast.
    _script(
        db,
        """
        ALTER TABLE moves ADD COLUMN bank REAL;
        ALTER TABLE matches ADD COLUMN finished_at REAL;
        CREATE INDEX matches_by_status ON matches(status, created_at);
        CREATE INDEX matches_by_game ON matches(game, created_at);
        """,
    )


def _v3(db: sqlite3.Connection) -> None:
    # Listing finished matches reads their move count, never their moves.
    _script(
        db,
        """
        ALTER TABLE matches ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;
        UPDATE matches SET move_count =
            (SELECT COUNT(*) FROM moves WHERE moves.match_id = matches.match_id);
        """,
    )


def _v4(db: sqlite3.Connection) -> None:
    # The game's rules version a match is played under; matches stored before
    # there were versions were all played under version 1.
    db.execute("ALTER TABLE matches ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1")


def _v5(db: sqlite3.Connection) -> None:
    # Whether any seat ever joined: a restored match nobody joined is aborted at
    # the start timeout. Nobody knows for the matches stored before, so they count
    # as joined and an upgrade never aborts a match that was being played. A
    # server since also sets a bit for each seat that joined (sqlite_rows.joined_bits).
    db.execute("ALTER TABLE matches ADD COLUMN seat_joined INTEGER NOT NULL DEFAULT 1")


# Append-only: a new migration goes at the end, never between two old ones.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3, _v4, _v5)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(db: sqlite3.Connection) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    return read_schema_version(db)


DAMAGED = "edited by hand or damaged"


def read_schema_version(db: sqlite3.Connection) -> int:
    """The highest version in schema_version (0: none, in a file with no
    tables of the server's yet). StoreError for a value no server writes (text,
    bytes, 0, a negative or fractional number: int() once raised a traceback on
    text, and 0 ran every migration again over the tables, "table matches
    already exists"), or for the server's tables with no version beside them."""
    versions = [row[0] for row in db.execute("SELECT version FROM schema_version")]
    for version in versions:
        if type(version) is not int or version < 1:
            shown = repr(version)
            if len(shown) > 40:
                shown = f"{shown[:40]}..."
            raise StoreError(
                f"the database's schema version is {shown}, which no Sheepfold server "
                f"writes (a whole number from 1): {DAMAGED}"
            )
    if (
        not versions
        and db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'"
        ).fetchone()
    ):
        raise StoreError(
            f"the database has the server's tables but no schema version "
            f"(its schema_version table is empty): {DAMAGED}"
        )
    return max(versions, default=0)


SERVER_TABLES = frozenset({"schema_version", "matches", "moves"})


def check_server_tables(db: sqlite3.Connection, path: str) -> None:
    """StoreError unless `db` is empty or a server database: another program's
    file (a tournament's keeps a schema version too) must not be migrated."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables or tables >= SERVER_TABLES:
        return
    if "tournaments" in tables:
        what = "it is a tournament database (see `sheepfold tournament report`)"
    else:
        what = "it holds another program's tables"
    raise StoreError(f"{path} is not a Sheepfold server database: {what}")


class MissingColumns(StoreError):
    """A server table lacks a column of its schema version; the message names the file."""


def check_server_columns(db: sqlite3.Connection, path: str) -> None:
    """StoreError when a server table lacks a column the file's schema version
    has (dropped by hand, or a table of the server's name made by another
    program): such a file once passed every check, and `serve` ended in a
    `no such column` traceback while restoring its matches. Only reads; a file
    of no version yet, or of a newer one (refused elsewhere), is left alone."""
    version = _stored_version(db)
    if not 1 <= version <= SCHEMA_VERSION:
        return
    for table, wanted in _columns_at(version).items():
        present = set(table_columns(db, table))
        missing = [column for column in wanted if column not in present]
        if missing:
            raise MissingColumns(
                f"{path} is not a whole Sheepfold server database: its table {table} has no "
                f"column {', '.join(missing)}, which schema version {version} has: {DAMAGED}"
            )


@functools.cache
def _columns_at(version: int) -> dict[str, tuple[str, ...]]:
    """Each server table's columns in a file of schema `version`, as the
    migrations up to it make them."""
    with closing(sqlite3.connect(":memory:", isolation_level=None)) as fresh:
        migrate(fresh, upto=version)
        return {table: table_columns(fresh, table) for table in sorted(SERVER_TABLES)}


def table_columns(db: sqlite3.Connection, table: str) -> tuple[str, ...]:
    """The columns of `table` in `db`, in order (none for a table it lacks)."""
    return tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))


def _stored_version(db: sqlite3.Connection) -> int:
    """The file's schema version, read without writing (0: none yet)."""
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if found is None:
        return 0
    return read_schema_version(db)


def refuse_newer(db: sqlite3.Connection) -> None:
    """StoreError when the file was written by a newer server: its tables may
    not mean what this version would read in them. Only reads."""
    _check_not_newer(_stored_version(db))


def _check_not_newer(version: int) -> None:
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the database has schema version {version}, newer than this server's "
            f"{SCHEMA_VERSION}: upgrade sheepfold"
        )


def migrate(db: sqlite3.Connection, upto: int = SCHEMA_VERSION) -> int:
    """Apply the missing migrations, all in one transaction; returns the version.

    `db` is in autocommit mode (isolation_level=None). A migration that fails
    (a full disk) leaves the file as it was: a half-made schema once stopped
    the next start ("not a Sheepfold server database", "duplicate column").
    A file with nothing to migrate is only read (another process may hold it)."""
    current = _stored_version(db)
    _check_not_newer(current)
    if current >= upto:
        return current
    db.execute("BEGIN IMMEDIATE")
    try:
        current = schema_version(db)
        _check_not_newer(current)
        for version in range(current, upto):
            MIGRATIONS[version](db)
            db.execute("INSERT INTO schema_version (version) VALUES (?)", (version + 1,))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return max(current, upto)
