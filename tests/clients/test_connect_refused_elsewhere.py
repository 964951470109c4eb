"""A client reaching a host name (localhost) whose addresses fail differently:
gRPC tries each (::1 and 127.0.0.1) and reports only its last failure, so a
plaintext client at a TLS server listening on 127.0.0.1 said "connection
refused" (about ::1) about half the time. The refusal now says when another of
the name's addresses takes connections, and which to connect to for the cause."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.connect import (
    Unreachable,
    ensure_reachable,
    misconfigured,
    open_channel,
    refused_elsewhere,
)
from tests.conftest import start_server_process, stop_server_process
from tests.tls_files import self_signed


def _refused_at_ipv6_loopback(port: int) -> str:
    """gRPC's details when ::1 was the last address it tried, and refused."""
    return (
        "failed to connect to all addresses; last error: UNKNOWN: "
        f"ipv6:%5B::1%5D:{port}: Failed to connect to remote host: Connection refused"
    )


@pytest.fixture
def listening_port() -> Iterator[int]:
    """A port 127.0.0.1 (and not ::1) takes TCP connections on."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[1]


def test_another_address_of_the_name_that_takes_connections_is_named(
    listening_port: int,
) -> None:
    port = listening_port
    why = asyncio.run(refused_elsewhere(f"localhost:{port}", _refused_at_ipv6_loopback(port)))
    assert why == (
        f"connection refused at [::1]:{port}, but 127.0.0.1:{port} (also localhost) takes "
        "connections and gRPC failed there too, reporting only its last try: connect to "
        f"127.0.0.1:{port} to see why (TLS on one side only?)"
    )
    assert misconfigured(why), "asking again cannot help: the server is there"
    refused = _refused_at_ipv6_loopback(port)
    assert asyncio.run(refused_elsewhere(f"dns:///localhost:{port}", refused)) == why


def test_a_plain_refusal_stays_a_refusal(listening_port: int) -> None:
    """Nothing else of the name listens, or the address is no name at all."""
    with socket.create_server(("127.0.0.1", 0)) as other:
        free = other.getsockname()[1]
    for address, port in [
        (f"localhost:{free}", free),  # nothing listens on 127.0.0.1 either
        (f"127.0.0.1:{listening_port}", listening_port),  # an address has no other
        (f"[::1]:{listening_port}", listening_port),
        ("unix:/tmp/nothing.sock", listening_port),
    ]:
        assert asyncio.run(refused_elsewhere(address, _refused_at_ipv6_loopback(port))) is None
    assert asyncio.run(refused_elsewhere(f"localhost:{listening_port}", "Socket closed")) is None


@pytest.mark.e2e
def test_plaintext_to_a_tls_server_at_localhost_never_says_only_refused(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        whys = asyncio.run(_reasons(f"localhost:{server.port}", tries=6))
    finally:
        stop_server_process(server)
    assert all("connect with TLS" in why or "TLS on one side only" in why for why in whys), whys


async def _reasons(address: str, tries: int) -> list[str]:
    async def one() -> str:
        # A channel of its own each: gRPC would otherwise share one connection attempt.
        options = [("grpc.use_local_subchannel_pool", 1)]
        async with open_channel(address, None, options) as channel:
            with pytest.raises(Unreachable) as error:
                await ensure_reachable(channel, address)
        return error.value.why

    return list(await asyncio.gather(*(one() for _ in range(tries))))
