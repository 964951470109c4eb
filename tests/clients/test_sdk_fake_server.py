"""The SDK against small fake servers that end streams as a real one seldom does."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.sdk import SeatError, play

pytestmark = pytest.mark.e2e


class _OverArena(arena_pb2_grpc.ArenaServicer):
    """Joins the seat, then says the match is over; knows no match to GetMatch."""

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))
        await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the match is over")

    async def GetMatch(
        self, request: arena_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.MatchInfo:
        await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")


def test_a_match_over_without_a_result_to_fetch_is_a_seat_error() -> None:
    """After FAILED_PRECONDITION the SDK asks GetMatch for the result; when that
    failed too (the match purged, the server going away) its AioRpcError escaped
    `play`, and `sheepfold bot` printed a traceback instead of one line."""

    async def scenario() -> SeatError:
        server = grpc.aio.server()
        arena_pb2_grpc.add_ArenaServicer_to_server(_OverArena(), server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            with pytest.raises(SeatError) as refused:
                await play(RandomBot(1), f"127.0.0.1:{port}", "m", "t")
            return refused.value
        finally:
            await server.stop(None)

    error = asyncio.run(scenario())
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION
    assert error.details == "the match is over"


class _FlakyArena(arena_pb2_grpc.ArenaServicer):
    """Each stream joins the seat, asks one decision and drops UNAVAILABLE, as a
    server restarted `outages` times in one match would; then sends the result."""

    def __init__(self, outages: int) -> None:
        self.outages = outages
        self.streams = 0

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        self.streams += 1
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))
        if self.streams > self.outages:
            yield arena_pb2.PlayResponse(result=arena_pb2.MatchResult(scores=[1.0], ranks=[1]))
            return
        decision = arena_pb2.Decision(decision_id=self.streams, seat=0)
        decision.actions.add(label="a")
        yield arena_pb2.PlayResponse(decision=decision)
        await anext(aiter(requests))  # the answer
        await context.abort(grpc.StatusCode.UNAVAILABLE, "restarting")


def test_max_reconnects_counts_failed_attempts_in_a_row_not_per_match() -> None:
    """Every outage here is over after one rejoin, more outages than
    `max_reconnects`: the seat plays on, as the docs promise ("gives up after
    some number of failed attempts in a row"), where it gave up before."""

    async def scenario() -> arena_pb2.MatchResult:
        arena = _FlakyArena(outages=4)
        server = grpc.aio.server()
        arena_pb2_grpc.add_ArenaServicer_to_server(arena, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            return await play(RandomBot(1), f"127.0.0.1:{port}", "m", "t", max_reconnects=2)
        finally:
            await server.stop(None)

    assert list(asyncio.run(scenario()).ranks) == [1]
