"""A request past the server's --max-request-bytes (a 100,000-character option
value, admin token or health service name) is refused by gRPC before the server
reads it, in gRPC's words: "RESOURCE_EXHAUSTED: SERVER: Received message larger
than max (100036 vs. 16384)". `create` and `health` once printed those words as
they came; they now say it in ours, naming the sizes and the server's flag."""

from __future__ import annotations

import grpc

from clients.connect import refusal_text
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.store import MemoryStore
from tests.cli.helpers import one_line, sheepfold

BIG = "a" * 100_000


def test_refusal_text_says_a_request_too_large_in_our_words() -> None:
    text = refusal_text(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "SERVER: Received message larger than max (100036 vs. 16384)",
    )
    assert text == (
        "RESOURCE_EXHAUSTED: the request is 100,036 bytes, more than the 16,384 "
        "the server takes (serve --max-request-bytes): is a value given far too long?"
    )


def test_create_and_health_say_a_request_too_large_in_our_words() -> None:
    with InProcessServer(ServerConfig(), MemoryStore()) as server:
        create = sheepfold(
            "create",
            "--server",
            server.address,
            "--game",
            "sheep-showdown",
            "--players",
            "2",
            "--option",
            f"rounds={BIG}",
        )
        health = sheepfold("health", "--addr", server.address, "--service", BIG)
    for done in (create, health):
        assert done.returncode == 1, done.stderr
        line = one_line(done)
        assert "Received message larger than max" not in line, line
        assert "more than the 16,384 the server takes" in line, line
