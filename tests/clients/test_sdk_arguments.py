"""`play` is told a malformed address, match id or token before it connects,
as the command line's flags and the Node bot's `playSeat` are: "localhost"
(no port) said "cannot reach the server at localhost: connection refused" (gRPC
tried port 443), and a match id given as a number "bad argument type for
built-in operation"."""

from __future__ import annotations

import asyncio

import pytest

from clients.bots.random_bot import RandomBot
from clients.sdk import Unreachable, play
from tests.sockets import closed_loopback_address


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("localhost", "not HOST:PORT"),
        ("127.0.0.1:99999", "not a port"),
        ("http://127.0.0.1:50051", "without http://"),
    ],
)
def test_a_malformed_address_is_refused_before_connecting(address: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        asyncio.run(asyncio.wait_for(play(RandomBot(0), address, "m", "t"), timeout=2))


@pytest.mark.parametrize(("match_id", "token"), [(123, "t"), (None, "t"), ("m", None), ("m", b"t")])
def test_a_match_id_or_token_that_is_no_string_is_refused(match_id: object, token: object) -> None:
    with pytest.raises(TypeError, match="must be a string"):
        asyncio.run(
            asyncio.wait_for(play(RandomBot(0), "127.0.0.1:1", match_id, token), timeout=2)  # type: ignore[arg-type]
        )


@pytest.mark.parametrize("seat", [-(2**31) - 1, 2**31])
def test_a_seat_past_the_wire_s_int32_is_refused_before_connecting(seat: int) -> None:
    with pytest.raises(ValueError, match="a seat is a 32-bit signed number"):
        asyncio.run(asyncio.wait_for(play(RandomBot(0), "127.0.0.1:1", "m", "t", seat), timeout=2))


@pytest.mark.parametrize("limit", [1024 * 1024, 2**31 - 1])
def test_max_message_bytes_at_either_bound_is_taken(limit: int) -> None:
    """1 MiB (a decision is one message) and gRPC's largest are within bounds:
    `play` goes on to connect, where nothing listens."""
    address = closed_loopback_address()
    with pytest.raises(Unreachable, match="connection refused"):
        asyncio.run(
            asyncio.wait_for(
                play(RandomBot(0), address, "m", "t", max_message_bytes=limit), timeout=5
            )
        )
