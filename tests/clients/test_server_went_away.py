"""A game server that dies under an open stream (SIGKILL: no goodbye) is said
in our words by every client that follows one: the web viewer's live stream
and a seat's Play stream say "the game server at ADDR went away", not gRPC's
"Stream removed (Socket closed)"."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.sdk import SeatError, play
from server.launch import ServerProcess, stop
from web.app import WebConfig, start_web

pytestmark = pytest.mark.e2e


def _waiting_match(address: str) -> tuple[str, list[str]]:
    """A match of two seats: it waits for its second seat, its streams open."""
    with grpc.insecure_channel(address) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2, seed=1), timeout=10
        )
    return created.match_id, list(created.seat_tokens)


def _killed(server: ServerProcess) -> None:
    stop(server, graceful=False)


def test_the_live_page_says_the_game_server_went_away(server_process: ServerProcess) -> None:
    match_id, _ = _waiting_match(server_process.address)

    async def scenario() -> list[str]:
        viewer = await start_web(WebConfig(server_process.address), "127.0.0.1", 0)
        try:
            async with aiohttp.ClientSession() as session:
                live = await session.get(
                    f"http://127.0.0.1:{viewer.port}/api/match/{match_id}/live"
                )
                seen = []
                async with asyncio.timeout(20):
                    async for line in live.content:
                        if line.startswith(b"data: "):
                            seen.append(line[6:].decode().strip())
                            if len(seen) == 1:
                                _killed(server_process)
                live.close()
        finally:
            await viewer.stop()
        return seen

    events = asyncio.run(scenario())
    failure = json.loads(events[-2])[-1]
    assert failure == {
        "kind": "error",
        "code": "UNAVAILABLE",
        "message": f"the game server at {server_process.address} went away",
    }


def test_a_seat_that_gives_up_says_the_game_server_went_away(
    server_process: ServerProcess,
) -> None:
    match_id, tokens = _waiting_match(server_process.address)
    address = server_process.address

    async def scenario() -> SeatError:
        seat = asyncio.ensure_future(
            play(RandomBot(1), address, match_id, tokens[0], rejoin_seconds=0)
        )
        # Joined: the server lists the seat as connected.
        async with asyncio.timeout(20):
            while True:
                async with grpc.aio.insecure_channel(address) as channel:
                    info = await arena_pb2_grpc.ArenaStub(channel).GetMatch(
                        arena_pb2.GetMatchRequest(match_id=match_id), timeout=5
                    )
                if info.seats[0].connected:
                    break
                await asyncio.sleep(0.05)
            _killed(server_process)
            with pytest.raises(SeatError) as raised:
                await seat
        return raised.value

    error = asyncio.run(scenario())
    assert str(error).startswith(f"UNAVAILABLE: the game server at {address} went away; "), error
    assert "Stream removed" not in str(error)
