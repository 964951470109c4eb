"""A finished tournament's database on a read-only mount (a backup, a shared
results folder) is read by `tournament report` and `replay`, which only read:
they once opened it for writing and said "attempt to write a readonly database"."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.cli.helpers import play_cup, random_cup
from tests.cli.test_read_only_database import _files, _read_only

pytestmark = pytest.mark.e2e

CUP = random_cup(games_per_pairing=1, database="data/cup.sqlite")


def _played(tmp_path: Path) -> Path:
    config = tmp_path / "cup.toml"
    config.write_text(CUP)
    play_cup(config)
    return tmp_path / "data" / "cup.sqlite"


def test_report_reads_a_tournament_database_on_a_read_only_mount(tmp_path: Path) -> None:
    db = _played(tmp_path)
    before = _files(db.parent)
    done = _read_only(db.parent, "tournament", "report", "--db", str(db), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tournament"] == "cup"
    assert _files(db.parent) == before


def test_replay_reads_a_tournament_database_on_a_read_only_mount(tmp_path: Path) -> None:
    db = _played(tmp_path)
    with closing(sqlite3.connect(db)) as connection:
        (match_id,) = connection.execute("SELECT match_id FROM games LIMIT 1").fetchone()
    before = _files(db.parent)
    done = _read_only(db.parent, "replay", match_id, "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "replay verified" in done.stdout
    assert _files(db.parent) == before
