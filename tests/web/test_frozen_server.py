"""A game server that stops answering without closing its connections (its
host frozen, the network between cut) is noticed by the viewer's pings: its
event streams then end or say so, as when the server goes down."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

import aiohttp
import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.connect import KEEPALIVE_SECONDS, KEEPALIVE_TIMEOUT
from server.app import ServerConfig, grpc_options
from server.launch import ServerProcess
from web.app import WebConfig, start_web

pytestmark = pytest.mark.e2e

PING_SECONDS = 1.0
PING_TIMEOUT = 1.0
# Noticed within a ping interval and its timeout; the rest is slack for a busy machine.
NOTICED_WITHIN = PING_SECONDS + PING_TIMEOUT + 2.0


def _waiting_match(address: str) -> str:
    """A match nobody joins: its Watch stream stays open and silent."""
    with grpc.insecure_channel(address) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2, seed=1), timeout=10
        )
    return created.match_id


async def _events(response: aiohttp.ClientResponse) -> list[str]:
    """The stream's `data:` lines until it ends (its `end` event included)."""
    seen = []
    async for line in response.content:
        if line.startswith(b"data: "):
            seen.append(line[6:].decode().strip())
    return seen


async def _first_event(response: aiohttp.ClientResponse) -> str:
    async for line in response.content:
        if line.startswith(b"data: "):
            return line[6:].decode().strip()
    raise AssertionError("the stream ended before its first event")


async def _until_error(response: aiohttp.ClientResponse) -> str:
    """The matches list stream's first event that reports an error."""
    async for line in response.content:
        if line.startswith(b"data: ") and b'"error"' in line:
            return json.loads(line[6:])["error"]
    raise AssertionError("the matches stream ended")


def test_a_frozen_game_server_ends_the_live_streams(server_process: ServerProcess) -> None:
    """SIGSTOP keeps the server's sockets open: without pings the viewer's
    Watch stream waited for ever (the page showed a live match that no longer
    moved), and every call waited for its 10 s deadline."""
    server = server_process
    match_id = _waiting_match(server.address)

    async def scenario() -> tuple[float, list[str], float, str]:
        config = WebConfig(
            server.address, keepalive_seconds=PING_SECONDS, keepalive_timeout=PING_TIMEOUT
        )
        viewer = await start_web(config, "127.0.0.1", 0)
        base = f"http://127.0.0.1:{viewer.port}"
        try:
            async with aiohttp.ClientSession() as session:
                live = await session.get(f"{base}/api/match/{match_id}/live")
                matches = await session.get(f"{base}/api/matches/events")
                assert '"snapshot"' in await _first_event(live)
                assert match_id in await _first_event(matches)
                os.kill(server.pid, signal.SIGSTOP)
                frozen = time.monotonic()
                live_ended = asyncio.ensure_future(_events(live))
                reported = asyncio.ensure_future(_until_error(matches))
                async with asyncio.timeout(NOTICED_WITHIN + 5):
                    error = await reported
                    reported_after = time.monotonic() - frozen
                    events = await live_ended
                    ended_after = time.monotonic() - frozen
                live.close()
                matches.close()
        finally:
            await viewer.stop()
        return ended_after, events, reported_after, error

    try:
        ended_after, events, reported_after, error = asyncio.run(scenario())
    finally:
        os.kill(server.pid, signal.SIGCONT)  # for the fixture to stop it
    assert ended_after < NOTICED_WITHIN, f"the live stream ended {ended_after:.1f} s after"
    assert reported_after < NOTICED_WITHIN, f"the list said so {reported_after:.1f} s after"
    # As when the server goes down: the page is told why, then the stream ends.
    failure = json.loads(events[-2])[-1]
    assert failure["kind"] == "error" and failure["code"] == "UNAVAILABLE", failure
    assert events[-1] == "{}"
    assert error == "the game server does not answer (ListMatches)"


def test_the_viewer_pings_no_more_often_than_the_server_allows() -> None:
    """More often and the server would close the viewer's connection
    (GOAWAY too_many_pings), its live streams with it."""
    allowed = dict(grpc_options(ServerConfig()))
    least = allowed["grpc.http2.min_recv_ping_interval_without_data_ms"]
    config = WebConfig("127.0.0.1:1")
    assert (config.keepalive_seconds, config.keepalive_timeout) == (
        KEEPALIVE_SECONDS,
        KEEPALIVE_TIMEOUT,
    )
    assert config.keepalive_seconds * 1000 >= least
