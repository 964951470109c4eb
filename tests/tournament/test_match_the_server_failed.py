"""A match the server aborts because its own loop failed (here: its database
refuses every move) is no game: the run counts it as not played, blames no
bot and stores nothing, so a resume plays it again once the server is fixed.
An SPRT whose every game so fails stops after its first batch, rather than
asking for block after block up to its limit."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.match import SERVER_FAILED
from server.sqlite_store import SqliteStore
from tests.tournament.quick_cup import Recorder, quick_cup
from tests.tournament.test_runner import HERE
from tournament.config import load_config
from tournament.runner import run_tournament, schedule_for
from tournament.sprt_run import run_sprt
from tournament.store import Store

pytestmark = pytest.mark.e2e


def _refusing_moves(server_db: Path) -> SqliteStore:
    """A server database whose every move is refused: each match's loop fails."""
    SqliteStore(server_db).close()
    with sqlite3.connect(server_db) as con:
        con.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON moves"
            " BEGIN SELECT RAISE(ABORT, 'no moves today'); END"
        )
    return SqliteStore(server_db)


def test_a_match_the_server_failed_is_not_played_and_blames_nobody(tmp_path: Path) -> None:
    server_db = tmp_path / "no-moves.db"
    refusing = _refusing_moves(server_db)
    config = quick_cup(tmp_path, 1, concurrency=1)
    progress = Recorder()
    with InProcessServer(ServerConfig(), refusing) as server:
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


def test_an_sprt_whose_every_game_the_server_fails_stops_after_its_first_batch(
    tmp_path: Path,
) -> None:
    path = tmp_path / "sprt.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\nschedule = "sprt"\nconcurrency = 1\n'
        f'python_path = ["{HERE}"]\n[options]\nrounds = 1\n'
        '[sprt]\ncandidate = "a"\nbaseline = "b"\nelo0 = 0\nelo1 = 100\nmax_games = 40\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    progress = Recorder()
    with InProcessServer(ServerConfig(), _refusing_moves(tmp_path / "no-moves.db")) as server:
        outcome = run_sprt(
            load_config(path), server.address, str(tmp_path / "sprt.sqlite"), progress=progress
        )
    assert (outcome.played, outcome.games, outcome.verdict) == (0, 0, "inconclusive")
    assert outcome.errors == len(progress.errors) == 2, progress.errors
