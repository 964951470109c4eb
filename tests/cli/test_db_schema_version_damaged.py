"""A server database whose schema_version table was edited by hand or damaged
(text or bytes where a version is, 0, a negative or fractional number, or no
row at all beside the server's tables). Each command that opens the file once
stopped on a ValueError traceback (text, bytes) or SQLite's words from a
migration run again over the tables ("table matches already exists",
"duplicate column name"); each now says in one line what is wrong with it,
and leaves the file as it was."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold
from tests.cli.test_db_command import _database, _snapshot

VALUES = {
    "text": "'abc'",
    "bytes": "x'00ff'",
    "zero": "0",
    "negative": "-5",
    "fraction": "2.5",
}


def _damaged(tmp_path: Path, value: str | None) -> Path:
    db = tmp_path / "s.db"
    _database(db, finished=1, moves=2)
    with closing(sqlite3.connect(db)) as con:
        with con:
            if value is None:
                con.execute("DELETE FROM schema_version")
            else:
                con.execute(f"UPDATE schema_version SET version = {value}")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


COMMANDS = {
    "db info": ("db", "info"),
    "db vacuum": ("db", "vacuum"),
    "replay": ("replay", "m001"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("value", [*sorted(VALUES), "no row"])
def test_a_damaged_schema_version_is_one_line(command: str, value: str, tmp_path: Path) -> None:
    db = _damaged(tmp_path, VALUES.get(value))
    before = _snapshot(tmp_path)
    done = sheepfold(*COMMANDS[command], "--db", str(db))
    assert (done.returncode, done.stdout) == (1, ""), done.stdout
    line = one_line(done)
    assert line.startswith(f"sheepfold {command.split()[0]}: "), line
    assert "schema version" in line and "edited by hand or damaged" in line, line
    assert _snapshot(tmp_path) == before, "the file is left as it was"


def test_serve_refuses_a_damaged_schema_version_in_one_line(tmp_path: Path) -> None:
    db = _damaged(tmp_path, VALUES["text"])
    done = sheepfold("serve", "--port", "0", "--db", str(db), timeout=30)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("{")]
    assert "Traceback" not in done.stderr, done.stderr
    assert lines == [
        f"sheepfold serve: cannot open --db {db}: the database's schema version is 'abc', "
        "which no Sheepfold server writes (a whole number from 1): edited by hand or damaged"
    ], done.stderr
