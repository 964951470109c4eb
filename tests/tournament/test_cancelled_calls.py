"""A call the server cancels (CANCELLED) is waited for and made again, as after UNAVAILABLE.

A server stopping on SIGTERM cancels the calls still in flight after its
grace: the runner's CreateMatch or GetMatch as well as its GetReplay. Only the
record's call was made again after it; any other was the game's error, and
the game was not played that run. The fault is a real server (in this
process) that answers one call CANCELLED, through an interceptor of its own.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc
import pytest

from server.inprocess import InProcessServer
from tests.tournament.cancelling_server import cancelling
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament import server_check
from tournament.executors.ray_task import GameJob, play_on_worker
from tournament.run_error import RunError
from tournament.runner import run_tournament, schedule_for

HEALTH_CHECK = "/grpc.health.v1.Health/Check"


def _counted_pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses between health checks, made at once."""
    pauses: list[float] = []

    async def counted(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(server_check, "_pause", counted)
    return pauses


@pytest.mark.parametrize("method", ["CreateMatch", "GetMatch"])
def test_a_call_the_server_cancelled_is_made_again_and_the_game_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    fault = cancelling(monkeypatch, f"/sheepfold.v1.Arena/{method}")
    config = quick_cup(tmp_path, 1, concurrency=1)
    progress = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "cup.sqlite"), progress=progress)
    assert fault.cancelled == 1
    assert progress.errors == [] and summary.errors == 0
    assert sorted(progress.keys) == sorted(game.key for game in schedule_for(config))
    assert any(
        "failed a game but answers again (CANCELLED: Cancelled by the server)" in note
        for note in progress.notes
    ), progress.notes


def test_a_ray_workers_game_the_server_cancelled_is_played_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker's game on a `--server`: the server is checked and kept, and the
    driver plays the game again (test_server_hiccups), where the game was once
    counted as not played."""
    fault = cancelling(monkeypatch, "/sheepfold.v1.Arena/GetMatch")
    config = quick_cup(tmp_path, 1)
    with InProcessServer() as server:
        outcome = play_on_worker(GameJob(config, schedule_for(config)[0], server.address, ""))
    assert fault.cancelled == 1
    assert outcome.server_back and not outcome.server_gone and not outcome.fatal
    assert outcome.error is not None and "it cancelled a call of the game" in outcome.error


def test_a_health_check_the_server_cancelled_does_not_count_as_serving(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stopping server may cancel the health check too: that is no sign of a
    server back, and the next check is made."""
    pauses = _counted_pauses(monkeypatch)
    fault = cancelling(monkeypatch, HEALTH_CHECK)
    with InProcessServer() as server:
        why = server.run(server_check.still_gone(server.address))
    assert fault.cancelled == 1
    assert why is None and pauses == [server_check.PAUSE_SECONDS]


def test_the_runners_own_cancellation_is_no_cancelled_status() -> None:
    """What tells the server's CANCELLED from the runner's own: a call this
    process cancels raises asyncio.CancelledError, never an AioRpcError, so it
    is never taken for a server to wait for."""

    async def cancel_own_call(address: str) -> Any:
        from sheepfold.v1 import arena_pb2, arena_pb2_grpc

        async with grpc.aio.insecure_channel(address) as channel:
            call = arena_pb2_grpc.ArenaStub(channel).GetMatch(
                arena_pb2.GetMatchRequest(match_id="nope"), timeout=5
            )
            call.cancel()
            try:
                await call
            except asyncio.CancelledError:
                return "CancelledError"
            except grpc.aio.AioRpcError as error:
                return error.code()
            return "answered"

    with InProcessServer() as server:
        assert server.run(cancel_own_call(server.address)) == "CancelledError"


def test_a_server_that_answers_but_refuses_games_is_waited_for_then_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server stopping (or without its database) answers other calls but
    refuses CreateMatch UNAVAILABLE and says NOT_SERVING: the run waits for its
    health as for one gone, then ends naming it, where each game was once
    tried three times at once and counted as not played."""
    pauses = _counted_pauses(monkeypatch)
    config = quick_cup(tmp_path, 1, concurrency=1)
    progress = Recorder()
    with InProcessServer() as server:

        async def lose_database() -> None:
            server.server._refuse_new_matches("the database file was removed")
            await asyncio.gather(*server.server._health_updates)  # NOT_SERVING is set

        server.run(lose_database())
        with pytest.raises(RunError) as stopped:
            run_tournament(config, server.address, str(tmp_path / "cup.sqlite"), progress=progress)
    assert str(stopped.value) == (
        f"cannot reach the server at {server.address}: its health check says NOT_SERVING "
        "(after 0 games this run)"
    )
    assert len(pauses) == server_check.CHECKS - 1 and progress.errors == []
