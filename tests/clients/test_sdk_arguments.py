"""`play` is told a malformed address, match id or token before it connects,
as the command line's flags and the Node bot's `playSeat` are: "localhost"
(no port) said "cannot reach the server at localhost: connection refused" (gRPC
tried port 443), and a match id given as a number "bad argument type for
built-in operation"."""

from __future__ import annotations

import asyncio

import pytest

from clients.bots.random_bot import RandomBot
from clients.sdk import play


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
