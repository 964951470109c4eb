"""A tournament database of the current schema version whose tables lack a
column of it (dropped by hand, or tables of those names made by another
program). `tournament report` once ended in a `sqlite3.OperationalError: no
such column` traceback, and `replay` gave SQLite's words alone; each now says
in one line which column is missing, exits 1, and leaves the file as it was."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.cli.helpers import one_line, play_cup, random_cup, sheepfold
from tournament.store_schema import MIGRATIONS

pytestmark = pytest.mark.e2e


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def _without(tmp_path: Path, table: str, column: str) -> tuple[Path, str]:
    """A played cup's database with `table`'s `column` dropped, and a match id in it."""
    config = tmp_path / "cup.toml"
    db = tmp_path / "data" / "cup.sqlite"
    config.write_text(random_cup(games_per_pairing=1, database=str(db)))
    play_cup(config)
    with closing(sqlite3.connect(db)) as con:
        (match_id,) = con.execute("SELECT match_id FROM games LIMIT 1").fetchone()
        with con:
            con.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db, match_id


@pytest.mark.parametrize(("table", "column"), [("games", "node"), ("tournaments", "anchor")])
def test_report_and_replay_refuse_a_table_missing_a_column_in_one_line(
    tmp_path: Path, table: str, column: str
) -> None:
    db, match_id = _without(tmp_path, table, column)
    wanted = (
        f"{db} is not a whole tournament database: its table {table} has no column "
        f"{column}, which schema version {len(MIGRATIONS)} has: edited by hand or damaged"
    )
    before = _snapshot(db.parent)
    for command in (("tournament", "report"), ("replay", match_id)):
        done = sheepfold(*command, "--db", str(db))
        assert (done.returncode, done.stdout) == (1, ""), done.stdout
        line = one_line(done)
        assert line.startswith(f"sheepfold {command[0]}: "), line
        assert wanted in line, line
    assert _snapshot(db.parent) == before, "the file is left as it was"
