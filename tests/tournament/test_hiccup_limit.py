"""A server that fails every game's call (CANCELLED) while its health says
SERVING cannot keep a local run going for ever: each game is tried
MAX_HICCUPS times in all, then counted as not played (a resume plays it). A
call that only timed out on a server that answers is not tried again at all."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import pytest

from server import app
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament import game_play
from tournament.runner import run_tournament, schedule_for
from tournament.server_check import MAX_HICCUPS

pytestmark = pytest.mark.e2e

CREATE_MATCH = "/sheepfold.v1.Arena/CreateMatch"


class _CancelEveryCreate(grpc.aio.ServerInterceptor):
    """Answers every CreateMatch CANCELLED, as a stopping server does (or, with
    `delay`, only after `delay` seconds, as a busy one), and counts them; every
    other call (the health check) is served."""

    def __init__(self, delay: float = 0.0) -> None:
        self.cancelled = 0
        self.delay = delay

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if details.method != CREATE_MATCH:
            return handler

        async def cancel(request: object, context: grpc.aio.ServicerContext) -> None:
            self.cancelled += 1
            await asyncio.sleep(self.delay)
            await context.abort(grpc.StatusCode.CANCELLED, "Cancelled by the server")

        return grpc.unary_unary_rpc_method_handler(
            cancel,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


def _failing_every_create(
    monkeypatch: pytest.MonkeyPatch, delay: float = 0.0
) -> _CancelEveryCreate:
    """Every server started from now on fails every CreateMatch."""
    fault = _CancelEveryCreate(delay)
    interceptors = app._interceptors
    monkeypatch.setattr(
        app, "_interceptors", lambda config, *rest: [fault, *interceptors(config, *rest)]
    )
    return fault


def test_a_game_a_healthy_server_keeps_failing_is_tried_max_hiccups_times_in_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fault = _failing_every_create(monkeypatch)
    config = quick_cup(tmp_path, 1, concurrency=1)
    games = len(schedule_for(config))
    progress = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "cup.sqlite"), progress=progress)
    assert (summary.played, summary.errors, len(progress.errors)) == (0, games, games)
    assert MAX_HICCUPS == 3 and fault.cancelled == games * MAX_HICCUPS
    assert all("CANCELLED: Cancelled by the server" in error for error in progress.errors)


def test_a_game_whose_call_timed_out_on_a_server_that_answers_is_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the game's call was slow (DEADLINE_EXCEEDED; the server answers
    the check after it): the game is counted as not played at once, not
    played again, which would wait out the call's deadline MAX_HICCUPS times."""
    monkeypatch.setattr(game_play, "RPC_SECONDS", 0.5)
    fault = _failing_every_create(monkeypatch, delay=1.5)
    config = quick_cup(tmp_path, 1, concurrency=1)
    games = len(schedule_for(config))
    progress = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "cup.sqlite"), progress=progress)
    assert (summary.played, summary.errors, fault.cancelled) == (0, games, games)
    assert all(": DEADLINE_EXCEEDED: " in error for error in progress.errors), progress.errors
    assert not [note for note in progress.notes if "answers again" in note], progress.notes
