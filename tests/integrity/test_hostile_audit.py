"""What a client with no admin token (or a seat token of its own match) tried
in the 2026-12 audit, each against a real server on loopback."""

from __future__ import annotations

import asyncio
import os

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process

pytestmark = pytest.mark.e2e

# server.health.MAX_WATCHES_PER_ADDRESS
PER_ADDRESS = 16


def test_watch_refusals_at_the_server_limit_cannot_fill_the_log() -> None:
    """With the server's every watcher place taken, each Watch is refused before
    its match is read: counted by its (invented, up to 16 KB) match id, every new
    id was a log line of its own, 200 calls 2.4 MB of log."""
    server = start_server_process("--max-watch-streams", "1")
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(
                arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2)
            )
            held = stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id), timeout=60)
            next(held)
            before = sum(map(len, server.log_lines))
            for _ in range(200):
                invented = os.urandom(6000).hex()
                with pytest.raises(grpc.RpcError) as caught:
                    list(stub.Watch(arena_pb2.WatchRequest(match_id=invented), timeout=10))
                assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert caught.value.details() == "this server already has 1 watchers"
            held.cancel()
        logged = sum(map(len, server.log_lines)) - before
        refused = [line for line in server.log_lines if '"watch refused"' in line]
        assert len(refused) <= 21, len(refused)
        assert logged < 20_000, logged
    finally:
        assert stop_server_process(server) == 0


def test_one_client_cannot_hold_health_watches_without_bound() -> None:
    """A health Watch stream waits for a status change that may never come; one
    client held 10,000 of them (60 MB of server memory), and could have held a
    thousand times more. Now an address holds 16 at most; the rest are refused
    at once, and a probe's Check is answered meanwhile."""
    server = start_server_process()

    async def flood() -> tuple[int, int, int]:
        async with grpc.aio.insecure_channel(server.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            request = health_pb2.HealthCheckRequest(service="")
            calls = [health.Watch(request, timeout=30) for _ in range(PER_ADDRESS + 40)]
            read = await asyncio.gather(*(call.read() for call in calls), return_exceptions=True)
            held = sum(isinstance(r, health_pb2.HealthCheckResponse) for r in read)
            refused = sum(
                isinstance(r, grpc.aio.AioRpcError)
                and r.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                for r in read
            )
            checked = await health.Check(request, timeout=10)
            for call in calls:
                call.cancel()
            await asyncio.sleep(0.5)
            # Places come free as streams end.
            again = health.Watch(request, timeout=10)
            assert (await again.read()).status == health_pb2.HealthCheckResponse.SERVING
            again.cancel()
            return held, refused, checked.status

    try:
        held, refused, status = asyncio.run(flood())
        assert held == PER_ADDRESS
        assert refused == 40
        assert status == health_pb2.HealthCheckResponse.SERVING
    finally:
        assert stop_server_process(server) == 0
