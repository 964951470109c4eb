"""A server database whose schema version is right but whose tables lack a
column that version has (dropped by hand, or tables of the server's names
made by another program). `serve` once started on it and ended in a
`sqlite3.OperationalError: no such column: seat_joined` traceback while
restoring matches; `replay` gave SQLite's words alone, and `db info` and
`db vacuum` went on as if the file were whole. Each now says in one line which
column is missing, exits 1, and leaves the file as it was."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from server.sqlite_schema import SCHEMA_VERSION
from tests.cli.helpers import one_line, sheepfold
from tests.cli.test_db_command import _database, _snapshot

# (table, column): one added by the latest migration, one from the first.
DROPPED = [("matches", "seat_joined"), ("moves", "bank"), ("matches", "end_reason")]


def _without(tmp_path: Path, table: str, column: str) -> Path:
    db = tmp_path / "s.db"
    _database(db, finished=1, moves=2)
    with closing(sqlite3.connect(db)) as con:
        with con:
            con.execute("DROP INDEX IF EXISTS matches_by_status")
            con.execute("DROP INDEX IF EXISTS matches_by_game")
            con.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def _wanted(db: Path, table: str, column: str) -> str:
    return (
        f"{db} is not a whole Sheepfold server database: its table {table} has no "
        f"column {column}, which schema version {SCHEMA_VERSION} has: edited by hand or damaged"
    )


@pytest.mark.parametrize(("table", "column"), DROPPED)
def test_serve_refuses_a_table_missing_a_column_in_one_line(
    tmp_path: Path, table: str, column: str
) -> None:
    db = _without(tmp_path, table, column)
    before = _snapshot(tmp_path)
    done = sheepfold("serve", "--port", "0", "--db", str(db), timeout=30)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("{")]
    assert lines == [f"sheepfold serve: cannot open --db {db}: {_wanted(db, table, column)}"]
    assert _snapshot(tmp_path) == before, "the file is left as it was"


@pytest.mark.parametrize(
    "command", [("db", "info"), ("db", "vacuum"), ("replay", "m001")], ids=" ".join
)
def test_other_commands_refuse_a_table_missing_a_column_in_one_line(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    db = _without(tmp_path, "matches", "seat_joined")
    before = _snapshot(tmp_path)
    done = sheepfold(*command, "--db", str(db))
    assert (done.returncode, done.stdout) == (1, ""), done.stdout
    line = one_line(done)
    assert line.startswith(f"sheepfold {command[0]}: "), line
    assert _wanted(db, "matches", "seat_joined") in line, line
    assert _snapshot(tmp_path) == before, "the file is left as it was"
