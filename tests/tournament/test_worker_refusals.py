"""A Ray worker's game on one of several `--server` addresses (played here
without Ray): a server that refuses it names itself, so the run's one line
says which of the servers to fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.connect import Unreachable
from server.inprocess import InProcessServer
from tests.conftest import start_server_process, stop_server_process
from tests.tournament.quick_cup import quick_cup
from tournament import server_check
from tournament.executors import ray_task
from tournament.executors.ray_task import GameJob, play_on_worker
from tournament.runner import schedule_for


def test_a_server_that_refuses_the_game_is_named_in_the_fatal_error(tmp_path: Path) -> None:
    config = quick_cup(tmp_path, 1)
    server = start_server_process("--admin-token", "the-right-one")
    try:
        job = GameJob(config, schedule_for(config)[0], server.address, "a-wrong-one")
        outcome = play_on_worker(job)
    finally:
        stop_server_process(server)
    assert outcome.fatal and outcome.record is None
    assert outcome.error is not None
    assert outcome.error.startswith(
        f"the server at {server.address} refused game {job.scheduled.key}: PERMISSION_DENIED"
    ), outcome.error


def test_a_game_whose_own_server_fails_is_not_played_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --server each task hosts its own server: that one failing (no
    answer to a call) is this game's error, not a reason to end the run."""
    config = quick_cup(tmp_path, 1)

    async def unanswered(job: GameJob, config: object) -> None:
        raise Unreachable("127.0.0.1:1", "no answer within 10 s")

    monkeypatch.setattr(ray_task, "_play", unanswered)
    outcome = play_on_worker(GameJob(config, schedule_for(config)[0], None, ""))
    assert not outcome.fatal and not outcome.server_gone
    assert outcome.error is not None and "no answer within 10 s" in outcome.error


def test_a_given_server_that_is_gone_is_reported_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = quick_cup(tmp_path, 1)
    # Its health is asked CHECKS times before it is called gone: not a second apart here.
    monkeypatch.setattr(server_check, "PAUSE_SECONDS", 0.0)
    with InProcessServer() as closed:
        address = closed.address  # nobody listens there once it is closed
    outcome = play_on_worker(GameJob(config, schedule_for(config)[0], address, ""))
    assert outcome.server_gone and not outcome.fatal
    assert outcome.error is not None
    assert outcome.error.startswith(f"cannot reach the server at {address}: connection refused")
