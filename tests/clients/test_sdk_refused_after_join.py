"""A Play stream the server ends with FAILED_PRECONDITION (the match is over)
sends the SDK to GetMatch for the result; when that call failed too (the
match purged, the server going away) its AioRpcError escaped `play`, and
`sheepfold bot` printed a traceback instead of one line."""

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
