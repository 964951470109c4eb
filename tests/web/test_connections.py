"""The viewer's connections are bounded: a client opening idle connection after
connection cannot take the file descriptors of the process (in `serve
--web-port`, the game server's too), and idle ones are closed."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable

import grpc
import pytest
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.conftest import ROOT, start_server_process, stop_server_process
from tests.sockets import count_open
from tests.web.test_commands import free_port, wait_http
from web.app import WebConfig, start_web

pytestmark = pytest.mark.e2e


def _open(port: int, count: int, payload: bytes = b"", source: str = "") -> list[socket.socket]:
    """`count` connections, from the loopback address `source` (any: 127.0.0.1)."""
    opened = []
    for _ in range(count):
        connection = socket.create_connection(
            ("127.0.0.1", port), source_address=(source, 0) if source else None
        )
        connection.sendall(payload)
        opened.append(connection)
    return opened


async def _kept(connections: list[socket.socket]) -> int:
    """How many the server still holds, once it has had time to close the rest."""
    await asyncio.sleep(0.3)
    return count_open(connections)


async def _close(connections: list[socket.socket]) -> None:
    for connection in connections:
        connection.close()
    await asyncio.sleep(0.3)


def _on_viewer(config: WebConfig, scenario: Callable[[int], Awaitable[None]]) -> None:
    async def run() -> None:
        running = await start_web(config, "127.0.0.1", 0)
        try:
            await scenario(running.port)
        finally:
            await running.stop()

    asyncio.run(run())


def _get(port: int) -> int:
    with urllib.request.urlopen(
        f"http://127.0.0.1:{port}/static/matches.js", timeout=10
    ) as response:
        return response.status


def test_connections_beyond_the_bound_are_closed_and_freed_ones_count_again() -> None:
    async def scenario(port: int) -> None:
        flood = _open(port, 15)
        assert await _kept(flood) == 5
        await _close(flood)
        again = _open(port, 5, b"GET / HTTP/1.1\r\nHost: x\r\n")
        assert await _kept(again) == 5, "closed connections no longer count"
        await _close(again)
        assert await asyncio.to_thread(_get, port) == 200

    with structlog.testing.capture_logs() as logs:
        _on_viewer(WebConfig(server="127.0.0.1:1", max_connections=5), scenario)
    refused = [line for line in logs if line["event"] == "web connection refused"]
    assert [line["total"] for line in refused] == list(range(1, 11))
    assert {(line["client"], line["reason"]) for line in refused} == {
        ("127.0.0.1", "the viewer holds 5")
    }


def test_one_address_holds_at_most_its_share_and_others_still_get_in() -> None:
    """With the bound in all alone, one client holding every connection (live
    pages, or requests sent a byte at a time) kept everyone else out."""

    async def scenario(port: int) -> None:
        flood = _open(port, 12, b"GET / HTTP/1.1\r\nHo", source="127.0.0.2")
        assert await _kept(flood) == 3
        # Another address is served meanwhile, and holds its own share.
        assert await asyncio.to_thread(_get, port) == 200
        others = _open(port, 3, b"GET / HTTP/1.1\r\nHo")
        assert await _kept(others) == 3
        await _close(others)
        await _close(flood)
        again = _open(port, 3, source="127.0.0.2")
        assert await _kept(again) == 3, "closed connections no longer count for the address"
        await _close(again)

    config = WebConfig(server="127.0.0.1:1", max_connections=10, max_connections_per_address=3)
    with structlog.testing.capture_logs() as logs:
        _on_viewer(config, scenario)
    refused = [line for line in logs if line["event"] == "web connection refused"]
    assert [(line["client"], line["total"]) for line in refused] == [
        ("127.0.0.2", total) for total in range(1, 10)
    ]
    assert refused[0]["reason"] == "this address holds 3"


def test_a_connection_waiting_for_a_request_is_closed_after_the_idle_time() -> None:
    async def scenario(port: int) -> None:
        started = time.monotonic()
        waiting = _open(port, 1) + _open(port, 1, b"GET / HTTP/1.1\r\nHo")
        while count_open(waiting) and time.monotonic() - started < 10:
            await asyncio.sleep(0.05)
        assert count_open(waiting) == 0
        assert 0.4 < time.monotonic() - started < 5
        for connection in waiting:
            connection.close()

    _on_viewer(WebConfig(server="127.0.0.1:1", idle_seconds=0.5), scenario)


def test_a_flood_on_the_web_port_leaves_the_game_server_reachable() -> None:
    web_port = free_port()
    server = start_server_process("--web-port", str(web_port), "--web-max-connections", "4")
    try:
        wait_http(f"http://127.0.0.1:{web_port}/")
        flood = [socket.create_connection(("127.0.0.1", web_port)) for _ in range(40)]
        try:
            time.sleep(0.5)
            held = count_open(flood)
            assert held <= 4, held
            with grpc.insecure_channel(server.address) as channel:
                health = health_pb2_grpc.HealthStub(channel)
                assert (
                    health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
                    == health_pb2.HealthCheckResponse.SERVING
                )
        finally:
            for connection in flood:
                connection.close()
        assert "Matches" in wait_http(f"http://127.0.0.1:{web_port}/")
    finally:
        assert stop_server_process(server) == 0


@pytest.mark.parametrize(
    "command",
    [
        ("serve", "--db", ":memory:", "--web-max-connections"),
        ("serve", "--db", ":memory:", "--web-max-connections-per-address"),
        ("web", "--max-connections"),
        ("web", "--max-connections-per-address"),
    ],
)
@pytest.mark.parametrize("value", ["0", "-3", "lots"])
def test_a_connection_bound_that_is_not_a_positive_count_is_a_usage_error(
    command: tuple[str, ...], value: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", *command, value],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "max-connections" in done.stderr and "Traceback" not in done.stderr


def test_a_client_gone_without_closing_is_probed_and_dropped_within_minutes() -> None:
    """A client whose network vanished sends no FIN nor RST: only TCP notices
    it, and with the system's defaults only after two hours of quiet (a quiet
    event stream sends nothing), holding one of its address's places all along.
    Each connection the viewer holds is probed after 30 s of quiet and dropped
    once 2 minutes pass without an acknowledgement."""

    async def run() -> None:
        running = await start_web(WebConfig(server="127.0.0.1:1"), "127.0.0.1", 0)
        try:
            held = _open(running.port, 1, b"GET / HTTP/1.1\r\nHo")
            await asyncio.sleep(0.3)
            assert running.runner.server is not None
            sockets = [
                handler.transport.get_extra_info("socket")
                for handler in running.runner.server.connections
                if handler.transport is not None
            ]
            assert len(sockets) == 1
            (sock,) = sockets
            tcp = socket.IPPROTO_TCP
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert sock.getsockopt(tcp, socket.TCP_KEEPIDLE) == 30
            assert sock.getsockopt(tcp, socket.TCP_KEEPINTVL) == 10
            assert sock.getsockopt(tcp, socket.TCP_KEEPCNT) == 3
            assert sock.getsockopt(tcp, socket.TCP_USER_TIMEOUT) == 120_000
            for connection in held:
                connection.close()
        finally:
            await running.stop()

    asyncio.run(run())


class _Peer(asyncio.BaseTransport):
    """A transport standing for one connection from `host` (no socket)."""

    def __init__(self, host: str) -> None:
        super().__init__()
        self.peer = (host, 40000, 0, 0) if ":" in host else (host, 40000)
        self.closed = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return self.peer if name == "peername" else default

    def close(self) -> None:
        self.closed = True


def test_an_ipv6_client_counts_by_its_64_as_the_game_server_counts_it() -> None:
    """Counted by its whole address, a client given a /64 (one host usually
    is) opened each connection from a fresh address and got round the bound
    per address; the game server counts such a client by its /64."""
    from aiohttp import web as aiohttp_web

    from web.site import BoundedSite, _Counted

    async def scenario() -> list[bool]:
        runner = aiohttp_web.AppRunner(aiohttp_web.Application())
        await runner.setup()
        try:
            site = BoundedSite(runner, "127.0.0.1", 0, max_connections=100, max_per_address=3)
            hosts = [f"2001:db8:1:2::{n:x}" for n in range(1, 6)]
            hosts += ["2001:db8:1:3::1", "::ffff:192.0.2.7", "192.0.2.8"]
            refused = []
            for host in hosts:
                transport = _Peer(host)
                handler = asyncio.Protocol()
                _Counted(handler, site).connection_made(transport)
                refused.append(transport.closed)
            return refused
        finally:
            await runner.cleanup()

    # Three of the /64 held, the next two refused; another /64 and IPv4 clients
    # (one through an IPv6 socket) hold their own.
    assert asyncio.run(scenario()) == [False, False, False, True, True, False, False, False]
