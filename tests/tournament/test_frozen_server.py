"""A server that stops answering mid-run (frozen, or the network to it cut
without a reset): the run ends with one line after the first call that timed
out, not one call deadline per game still to play."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.conftest import start_server_process, stop_server_process
from tests.tournament.quick_cup import quick_cup
from tournament import batch_play, game_play, server_check
from tournament.progress import SilentProgress
from tournament.runner import RunError, run_tournament
from tournament.store import GameRecord

pytestmark = pytest.mark.e2e


class FreezeAfterFirstGame(SilentProgress):
    """Progress that freezes the server (SIGSTOP) once the first game is stored."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.done = 0
        self.errors: list[str] = []
        self.ending = ""

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        self.done += 1
        if self.done == 1:
            os.kill(self.pid, signal.SIGSTOP)

    def game_error(self, key: str, error: str) -> None:
        self.errors.append(error)

    def finish(self, played: int, ending: str) -> None:
        self.ending = ending


def test_a_server_that_stops_answering_ends_the_run_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Short deadlines keep the test short; the run's own are 30 s a call.
    monkeypatch.setattr(game_play, "RPC_SECONDS", 1.0)
    monkeypatch.setattr(batch_play, "ANSWER_SECONDS", 1.0)
    monkeypatch.setattr(server_check, "CHECK_SECONDS", 0.5)
    monkeypatch.setattr(server_check, "PAUSE_SECONDS", 0.1)
    monkeypatch.setattr(server_check, "WAIT_SECONDS", 1.0)
    config = quick_cup(tmp_path, 40, concurrency=2)
    server = start_server_process()
    progress = FreezeAfterFirstGame(server.pid)
    try:
        with pytest.raises(RunError) as stopped:
            run_tournament(
                config, server=server.address, database=str(tmp_path / "cup.sqlite"),
                progress=progress,
            )  # fmt: skip
    finally:
        os.kill(server.pid, signal.SIGCONT)
        stop_server_process(server)
    assert str(stopped.value).startswith(f"cannot reach the server at {server.address}: ")
    assert "no answer within" in str(stopped.value)
    assert progress.ending == "stopped", "the log said 'tournament finished' with 1/40 done"
    # At most the games in play when it froze went unplayed, one per worker.
    assert len(progress.errors) <= config.concurrency, progress.errors
