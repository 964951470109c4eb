"""Attacks below the Arena API, at the gRPC and HTTP/2 level, against a real
`sheepfold serve` on loopback: compressed requests that expand past the size
limit (gzip bombs), PING and SETTINGS floods from a client that reads nothing,
streams opened and reset in a loop (CVE-2023-44487, "rapid reset") while a
match is played, and a client pinging more often than the server allows.

gRPC's core answers each of these by itself; these tests hold the server's
settings to that: the server stays up, its memory stays bounded, other
clients' calls and matches go on, and the attacker gets the status meant for
it or loses its connection."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.sdk import play
from tests.conftest import ROOT, ServerProcess, start_server_process, stop_server_process
from tests.raw_stream import RawSeat
from tests.stream_flood import PREFACE, frame, reset_burst

pytestmark = pytest.mark.e2e

SETTINGS, PING = 4, 6
# What the server may grow by under one attack; the floods below send gigabytes
# of frames or expand to 15 MB a call.
MEMORY_GROWTH_KB = 60_000
# 30,000 queued calls, with room for a few thousand more taken and held meanwhile.
BURST_GROWTH_KB = 600_000


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    server = start_server_process("--start-timeout", "60")
    try:
        yield server
    finally:
        assert stop_server_process(server) == 0


def _rss_kb(server: ServerProcess) -> int:
    status = Path(f"/proc/{server.pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0])


def _stub(server: ServerProcess) -> tuple[grpc.Channel, arena_pb2_grpc.ArenaStub]:
    channel = grpc.insecure_channel(server.address)
    return channel, arena_pb2_grpc.ArenaStub(channel)


def _still_serves(server: ServerProcess) -> None:
    channel, stub = _stub(server)
    with channel:
        assert len(stub.ListGames(arena_pb2.ListGamesRequest(), timeout=10).games) == 4


def _raw_connection(server: ServerProcess) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", server.port))
    connection.sendall(PREFACE + frame(SETTINGS, 0, 0, b""))
    return connection


def test_a_gzip_bomb_is_refused_by_its_expanded_size(server: ServerProcess) -> None:
    """15 MB of one letter, gzip-compressed to about 15 KB: under the 16 KiB
    request limit on the wire, a thousand times over it expanded."""
    bomb = arena_pb2.CreateMatchRequest(
        game="sheep-n-sheep", players=2, options={"x": "a" * 15_000_000}
    )
    join = arena_pb2.PlayRequest(join=arena_pb2.Join(match_id="m" * 15_000_000, token="t"))
    before = _rss_kb(server)
    channel, stub = _stub(server)
    with channel:
        for _ in range(10):
            with pytest.raises(grpc.RpcError) as refused:
                stub.CreateMatch(bomb, compression=grpc.Compression.Gzip, timeout=20)
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "Decompressed message larger than max" in refused.value.details()
        with pytest.raises(grpc.RpcError) as refused:
            list(stub.Play(iter([join]), compression=grpc.Compression.Deflate, timeout=20))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        listed = stub.ListMatches(arena_pb2.ListMatchesRequest(), timeout=10)
    assert not listed.matches  # nothing was created
    assert _rss_kb(server) - before < MEMORY_GROWTH_KB
    _still_serves(server)


def _flood(server: ServerProcess, kind: int, frames: int) -> str:
    """Send `frames` frames of `kind` on a connection that reads nothing;
    returns how the sending ended."""
    connection = _raw_connection(server)
    connection.settimeout(5)
    sent = 0
    try:
        while sent < frames:
            # A PING carries 8 bytes; a SETTINGS frame any number of settings, here none.
            payloads = ((sent + i).to_bytes(8, "big") if kind == PING else b"" for i in range(1000))
            batch = (frame(kind, 0, 0, payload) for payload in payloads)
            connection.sendall(b"".join(batch))
            sent += 1000
        return "all sent"
    except TimeoutError:
        return "the server stopped reading"
    except OSError:
        return "the server closed the connection"
    finally:
        connection.close()


@pytest.mark.parametrize("kind", [PING, SETTINGS])
def test_a_ping_or_settings_flood_from_a_client_reading_nothing_is_bounded(
    server: ServerProcess, kind: int
) -> None:
    """Each PING or SETTINGS frame asks for an acknowledgement: a client that
    never reads them must not make the server keep them."""
    before = _rss_kb(server)
    ended: list[str] = []
    flooding = threading.Thread(target=lambda: ended.append(_flood(server, kind, 2_000_000)))
    flooding.start()
    time.sleep(1)
    _still_serves(server)  # during the flood
    flooding.join(60)
    assert not flooding.is_alive()
    assert ended[0] in {"the server stopped reading", "the server closed the connection"}
    assert _rss_kb(server) - before < MEMORY_GROWTH_KB
    _still_serves(server)


async def _play_both(address: str, created: arena_pb2.CreateMatchResponse) -> arena_pb2.MatchResult:
    """Both seats played by the SDK, as a real bot plays them."""
    results = await asyncio.gather(
        *(
            play(RandomBot(seed), address, created.match_id, token, seat)
            for seed, (seat, token) in enumerate(enumerate(created.seat_tokens))
        )
    )
    return results[0]


def test_a_rapid_reset_flood_leaves_a_match_on_another_connection_playing() -> None:
    """Two processes open and reset streams as fast as they can while two SDK
    bots play a match on connections of their own; then 60 connections send
    1,000 such streams each at once, twice what gRPC's queue of calls not yet
    taken may hold (server/settings.py), and the server's memory shows the
    queue stopped at its bound.

    A queued call holds about 14 KB: the 30,000 the queue holds at most are
    about 430 MB, the 60,000 an unbounded queue takes about 870 MB. The flood
    alone is no measure: it keeps a few thousand calls queued, as many with or
    without the bound, and how many depends on the machine's load (25 to 170 MB
    measured), and on which gRPC threads took them: each one's memory stayed in
    its own malloc arena (server/malloc_arenas.py)."""
    server = start_server_process()
    try:
        _play_while_flooded(server)
        before = _rss_kb(server)
        connections = reset_burst(server.address, connections=60, streams=1000)
        try:
            grown = _rss_kb(server) - before
        finally:
            for connection in connections:
                connection.close()
        assert grown < BURST_GROWTH_KB, f"{grown} KB: more calls queued than the bound allows"
        _still_serves(server)
    finally:
        assert stop_server_process(server) == 0


def _play_while_flooded(server: ServerProcess) -> None:
    channel, stub = _stub(server)
    with channel:
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(
                game="sheep-n-sheep",
                players=2,
                clock=arena_pb2.ClockSettings(decision_seconds=10),
            ),
            timeout=10,
        )
        command = [sys.executable, "-m", "tests.stream_flood", server.address, "4", "rapid"]
        floods = [
            subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) for _ in range(2)
        ]
        try:
            time.sleep(0.5)
            result = asyncio.run(_play_both(server.address, created))
            opened = [int(flood.communicate(timeout=60)[0]) for flood in floods]
        finally:
            for flood in floods:
                flood.kill()
                flood.wait()
    assert sum(opened) > 10_000, opened  # the floods did run
    assert result.end_reason == "game over"
    assert [seat.strikes for seat in result.seats] == [0, 0]  # no decision was missed


def test_a_rapid_reset_flood_gets_no_other_clients_call_cancelled(
    server: ServerProcess,
) -> None:
    """Streams a client resets wait in gRPC's queue of calls the server has not
    taken yet, up to 1,000 a connection. With two flooding connections that
    queue passed gRPC's default bound (1,000, refusing at random above it), and
    other clients' new calls were cancelled before the server saw them: 7 of
    120 joins here, so a bot that did not retry lost its seat."""
    command = [sys.executable, "-m", "tests.stream_flood", server.address, "2", "rapid"]
    channel, stub = _stub(server)
    statuses: list[grpc.StatusCode] = []
    with channel:
        for _ in range(12):
            floods = [
                subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL) for _ in range(2)
            ]
            try:
                time.sleep(0.5)
                seats = [RawSeat(stub, timeout=30) for _ in range(20)]
                for seat in seats:
                    seat.join("no-such-match", "token")
                statuses.extend(seat.status() for seat in seats)
            finally:
                for flood in floods:
                    flood.wait(30)
    assert set(statuses) == {grpc.StatusCode.NOT_FOUND}, Counter(statuses)


def test_a_client_pinging_too_often_loses_only_its_own_connection(
    server: ServerProcess,
) -> None:
    """The server allows a ping every 5 s; a client pinging every second is
    told `too_many_pings` (GOAWAY) and its calls end UNAVAILABLE."""
    eager = grpc.insecure_channel(
        server.address,
        options=[
            ("grpc.keepalive_time_ms", 1000),
            ("grpc.keepalive_permit_without_calls", 1),
            ("grpc.http2.max_pings_without_data", 0),
        ],
    )
    with eager:
        stub = arena_pb2_grpc.ArenaStub(eager)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
        )
        started = time.monotonic()
        with pytest.raises(grpc.RpcError) as ended:
            for _ in stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id), timeout=30):
                pass
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "Too many pings" in ended.value.details()
    assert time.monotonic() - started < 20
    _still_serves(server)
