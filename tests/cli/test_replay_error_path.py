"""replay puts the database's path before an error from SQLite, which never
names it, and shows a tournament database's error as it is, since that names
the file itself. Whether an error named the file was once a substring test, so
a short path that is part of a word of the message ("data" in "database disk
image is malformed") was taken for the file named, and the line named no file."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from cli.replay_source import SourceError, load
from server.records import RecordedMove
from server.sqlite_store import SqliteStore
from tests.cli.helpers import stored_match
from tournament.store import Store

PAGE = 4096


def _server_database(path: Path, matches: int = 30) -> None:
    store = SqliteStore(path)
    for i in range(matches):
        match_id = f"m{i:03d}"
        store.create_match(stored_match(match_id, i, time.time()))
        for number in range(1, 41):
            store.record_move(match_id, RecordedMove(number, number % 2, 0, "x" * 40))
        store.finish_match(match_id, "finished", b"", "game over")
    store.close()
    with closing(sqlite3.connect(path)) as db:  # everything in the file itself
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")


def test_a_short_path_inside_a_word_of_sqlites_error_is_still_put_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _server_database(Path("data"))
    size = Path("data").stat().st_size
    with open("data", "r+b") as file:  # the schema's pages stay; the rows' do not
        file.seek(3 * PAGE)
        file.write(b"\xff" * (size - 4 * PAGE))
    with pytest.raises(SourceError) as raised:
        load("data", "m005")
    assert str(raised.value) == "data: database disk image is malformed"


def test_a_tournament_databases_error_names_the_file_once(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    Store(path).close()
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE schema_version SET version = 'four'")
    with pytest.raises(SourceError) as raised:
        load(str(path), "m1")
    said = str(raised.value)
    assert said.startswith(f"the schema version of {path} is not one whole number"), said
    assert said.count(str(path)) == 1, said
