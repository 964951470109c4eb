"""The server a tournament starts for itself keeps its matches in memory: it
kept every finished one, about 7 KB each, so a run's memory grew with every
game (a million games, gigabytes). It now keeps only the newest finished ones,
and the runner, which reads each game's replay as soon as it ends, stores
every game all the same."""

from __future__ import annotations

from pathlib import Path

import pytest
import structlog

import tournament.runner
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament.runner import run_tournament
from tournament.store import Store

pytestmark = pytest.mark.e2e


def test_the_runs_own_server_prunes_finished_matches_and_every_game_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament.runner, "KEPT_FINISHED_MATCHES", 2, raising=False)
    monkeypatch.setattr(tournament.runner, "PRUNE_SECONDS", 0.02, raising=False)
    config = quick_cup(tmp_path, games_per_pairing=6, concurrency=1)
    db = tmp_path / "cup.sqlite"
    recorder = Recorder()
    with structlog.testing.capture_logs() as logs:
        summary = run_tournament(config, database=str(db), progress=recorder)
    assert summary.played == summary.scheduled == 12 and not recorder.errors
    pruned = sum(log["removed"] for log in logs if log["event"] == "finished matches pruned")
    assert pruned >= 6
    with Store(db) as store:
        games = store.games(store.tournament(None).id)
    assert len(games) == 12
    assert all(len(game.seats) == 2 and game.end_reason for game in games)
