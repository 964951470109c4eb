"""A match the server aborts because its own loop failed (here: its database
refuses every move) is no game: the run counts it as not played, blames no
bot and stores nothing, so a resume plays it again once the server is fixed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.match import SERVER_FAILED
from server.sqlite_store import SqliteStore
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament.runner import run_tournament, schedule_for
from tournament.store import Store

pytestmark = pytest.mark.e2e


def test_a_match_the_server_failed_is_not_played_and_blames_nobody(tmp_path: Path) -> None:
    server_db = tmp_path / "no-moves.db"
    SqliteStore(server_db).close()
    with sqlite3.connect(server_db) as con:
        con.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON moves"
            " BEGIN SELECT RAISE(ABORT, 'no moves today'); END"
        )
    config = quick_cup(tmp_path, 1, concurrency=1)
    progress = Recorder()
    with InProcessServer(ServerConfig(), SqliteStore(server_db)) as server:
        summary = run_tournament(
            config, server.address, str(tmp_path / "cup.sqlite"), progress=progress
        )
    games = len(schedule_for(config))
    assert (summary.played, summary.errors, summary.done) == (0, games, 0), progress.errors
    assert all(f"was aborted by the server: {SERVER_FAILED}" in e for e in progress.errors)
    assert summary.always_crashed == ()
    with Store(tmp_path / "cup.sqlite") as store:
        tid = store.tournament("cup").id
        assert store.games(tid) == () and store.games_in_play(tid) == ()
