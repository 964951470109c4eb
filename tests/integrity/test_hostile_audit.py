"""What a client with no admin token (or a seat token of its own match) tried
in the 2026-12 audit, each against a real server on loopback."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import wait_until

pytestmark = pytest.mark.e2e

# server.health.MAX_WATCHES_PER_ADDRESS, server.reflection.MAX_STREAMS_PER_ADDRESS and
# server.seats.MatchLimits.max_watchers_per_address
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
                assert caught.value.details() == "this server already has 1 watcher"
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


async def _first_reads(calls: Sequence[Any], answer: type) -> tuple[int, set[str]]:
    """How many of `calls` answered their first read with an `answer`, and how
    the others were refused ("CODE details")."""
    read = await asyncio.gather(*(call.read() for call in calls), return_exceptions=True)
    held = sum(isinstance(r, answer) for r in read)
    errors = [r for r in read if isinstance(r, grpc.aio.AioRpcError)]
    return held, {f"{error.code().name} {error.details()}" for error in errors}


def test_one_client_cannot_take_every_watcher_place_of_a_match(tmp_path: Path) -> None:
    """A watcher that keeps reading is never dropped as too slow: one client
    held all 100 of a match's watcher places, and every other spectator was
    refused. Now one address holds 16 of them; a spectator from another
    address (a Unix socket's clients are one) still watches, and the refusals
    are counted and logged as the match's other watch refusals are."""
    socket = tmp_path / "arena.sock"
    server = start_server_process("--listen", "127.0.0.1:0", "--listen", f"unix:{socket}")

    async def flood() -> tuple[int, set[str], arena_pb2.WatchResponse]:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = await stub.CreateMatch(
                arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
            )
            request = arena_pb2.WatchRequest(match_id=created.match_id)
            calls = [stub.Watch(request, timeout=60) for _ in range(100)]
            held, refused = await _first_reads(calls, arena_pb2.WatchResponse)
            async with grpc.aio.insecure_channel(f"unix:{socket}") as elsewhere:
                other = arena_pb2_grpc.ArenaStub(elsewhere).Watch(request, timeout=30)
                seen = await other.read()
                other.cancel()
            for call in calls:
                call.cancel()
            return held, refused, seen

    try:
        held, refused, seen = asyncio.run(flood())
        assert held == PER_ADDRESS
        assert refused == {
            f"RESOURCE_EXHAUSTED this address already has {PER_ADDRESS} watchers of this match"
        }
        assert seen.HasField("snapshot")

        def refusals() -> list[str]:
            return [line for line in server.log_lines if '"watch refused"' in line]

        # The server logs through a queue and the test reads its lines on a
        # thread: on a loaded machine they can come after the refusals.
        wait_until(lambda: bool(refusals()), what="the refusals in the server's log")
        logged = refusals()
        assert 1 <= len(logged) <= 20, len(logged)  # 84 refusals: the first 20 logged
        assert all("watchers of this match" in line for line in logged)
    finally:
        assert stop_server_process(server) == 0


def test_one_client_cannot_hold_reflection_streams_without_bound() -> None:
    """A reflection stream waits for its client's next request for as long as
    the client keeps it open: bounded like health watches, 16 from one
    address; places come free as streams end."""
    server = start_server_process()
    listing = reflection_pb2.ServerReflectionRequest(list_services="")

    async def flood() -> tuple[int, set[str], list[str]]:
        stop = asyncio.Event()

        async def ask_then_wait() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
            yield listing
            await stop.wait()

        async def wait() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
            await stop.wait()
            yield listing

        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = reflection_pb2_grpc.ServerReflectionStub(channel)
            answer = reflection_pb2.ServerReflectionResponse
            calls = [
                stub.ServerReflectionInfo(ask_then_wait(), timeout=30) for _ in range(PER_ADDRESS)
            ]
            held, refused = await _first_reads(calls, answer)
            # Streams that send nothing (the cheapest to hold): a stream that
            # writes its request as the server refuses it may see its own write
            # fail (INTERNAL) instead of the refusal.
            more = [stub.ServerReflectionInfo(wait(), timeout=15) for _ in range(40)]
            held_too, refused_too = await _first_reads(more, answer)
            calls += more
            held, refused = held + held_too, refused | refused_too
            stop.set()
            for call in calls:
                call.cancel()
            await asyncio.sleep(0.5)
            again = stub.ServerReflectionInfo(iter([listing]), timeout=10)
            answer = await again.read()
            return held, refused, [s.name for s in answer.list_services_response.service]

    try:
        held, refused, services = asyncio.run(flood())
        assert held == PER_ADDRESS
        assert refused == {
            f"RESOURCE_EXHAUSTED this address already has {PER_ADDRESS} reflection streams open"
        }
        assert "sheepfold.v1.Arena" in services
    finally:
        assert stop_server_process(server) == 0
