"""A sandboxed bot that floods its own socket with streams it never reads
(resetting them, or closing its connections) shuts out nobody but itself. It
once filled gRPC's queue of calls the server had not taken yet, and gRPC
cancelled the other bots' joins (10 of 15 here) before the server saw them:
honest bots crashed and lost their games."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from tests.conftest import ROOT
from tournament.bot_sockets import serving_bots

pytestmark = pytest.mark.e2e

FLOODERS = 3
FLOOD_SECONDS = 12.0
JOINS = 12


async def _join_answers(address: str) -> list[str]:
    """What the server answers joins to a match that does not exist, one at a time
    (a join the server handles is NOT_FOUND; one gRPC refused is something else)."""
    answers = []
    join = arena_pb2.PlayRequest(join=arena_pb2.Join(match_id="0123456789abcdef", token="x"))
    async with grpc.aio.insecure_channel(address) as channel:
        # Connected first, and a generous deadline: on a loaded machine (the
        # flooders take both cores) the first join once took over 5 s and ended
        # DEADLINE_EXCEEDED on the client's own clock, which is not what the test
        # is about: gRPC cancelling calls the server never saw.
        await asyncio.wait_for(channel.channel_ready(), 30)
        stub = arena_pb2_grpc.ArenaStub(channel)
        for _ in range(JOINS):
            call = stub.Play(timeout=15)
            try:
                await call.write(join)
                await call.read()
                answers.append("answered")
            except grpc.aio.AioRpcError as error:
                answers.append(error.code().name)
            await asyncio.sleep(0.2)
    return answers


@pytest.mark.parametrize("flood", ["reset", "reconnect"])
def test_a_bot_flooding_its_socket_with_streams_leaves_the_other_bots_joins_alone(
    flood: str,
) -> None:
    async def scenario() -> list[str]:
        async with serving_bots(ServerConfig(), 4, sandboxed=True) as (_, sockets):
            command = [sys.executable, "-m", "tests.stream_flood", sockets[0]]
            flooders = [
                subprocess.Popen([*command, str(FLOOD_SECONDS), flood], cwd=ROOT)
                for _ in range(FLOODERS)
            ]
            try:
                await asyncio.sleep(1.5)  # the flood is on
                return await _join_answers(f"unix:{sockets[1]}")
            finally:
                for flooder in flooders:
                    flooder.kill()
                    flooder.wait()

    assert asyncio.run(scenario()) == ["NOT_FOUND"] * JOINS
