"""A first connection is told as soon as its attempt fails; a client coming back
to a server that may be restarting waits through failed attempts.

`ensure_reachable` once waited its whole timeout (3 s) for every connection,
so a mistyped port said "connection refused" only after 3 s, and the test
suite's hundred or so refused connections waited them all. Each test here
has a game server start listening on the port right after the first attempt
was refused: a first connection reports the refusal, a patient one connects.
"""

from __future__ import annotations

import asyncio
import dataclasses
import socket

import grpc
import pytest

from clients.connect import Unreachable, ensure_reachable, open_channel
from server.app import ServerConfig, SheepfoldServer

pytestmark = pytest.mark.e2e

# Far longer than gRPC's backoff before it tries the address again (1 s, then
# more): a client that waits through the refusal meets the server.
TIMEOUT = 30.0


async def _refused_then_serving(*, patient: bool | None) -> str:
    """What `ensure_reachable` (with `patient`, unless None) makes of a port
    that refuses its first attempt and has a game server from then on:
    "connected", or the Unreachable's reason."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))  # bound, not listening: a connection is refused
    port = holder.getsockname()[1]
    address = f"127.0.0.1:{port}"
    server = SheepfoldServer(dataclasses.replace(ServerConfig(), host="127.0.0.1", port=port))
    async with open_channel(address) as channel:
        kwargs = {} if patient is None else {"patient": patient}
        reaching = asyncio.create_task(ensure_reachable(channel, address, TIMEOUT, **kwargs))
        try:
            await _first_attempt_failed(channel)
            holder.close()
            await server.start()
            await reaching
            return "connected"
        except Unreachable as error:
            return error.why
        finally:
            reaching.cancel()
            holder.close()
            await server.stop("test over")


async def _first_attempt_failed(channel: grpc.aio.Channel) -> None:
    state = channel.get_state(try_to_connect=True)
    while state != grpc.ChannelConnectivity.TRANSIENT_FAILURE:
        await asyncio.wait_for(channel.wait_for_state_change(state), TIMEOUT)
        state = channel.get_state()


def test_a_first_connection_refused_says_so_without_waiting_out_its_timeout() -> None:
    assert asyncio.run(_refused_then_serving(patient=None)) == "connection refused"


def test_a_patient_connection_waits_through_refusals_for_a_server_coming_up() -> None:
    """What a rejoin after a server restart, and a tournament whose server went
    away mid-run, rely on."""
    assert asyncio.run(_refused_then_serving(patient=True)) == "connected"
