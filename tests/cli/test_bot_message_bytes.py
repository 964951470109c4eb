"""`sheepfold bot --max-message-bytes`: the largest message its seat receives,
as large as a server's `serve --max-message-bytes` may make a decision. The
SDK took 4 MiB at most, with no way to raise it, so a seat of a server
allowed larger messages was lost RESOURCE_EXHAUSTED at such a decision."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.cli.helpers import sheepfold

pytestmark = pytest.mark.e2e

LARGE_SERVER = 16 * 1024 * 1024  # `serve --max-message-bytes 16777216`
PROMPT = "x" * (5 * 1024 * 1024)  # past gRPC's default 4 MiB


class _LargeDecisionArena(arena_pb2_grpc.ArenaServicer):
    """Joins the seat, sends one decision past 4 MiB, then the result."""

    def Play(
        self, requests: Iterator[arena_pb2.PlayRequest], context: grpc.ServicerContext
    ) -> Iterator[arena_pb2.PlayResponse]:
        next(requests)
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))
        decision = arena_pb2.Decision(decision_id=1, seat=0, prompt=PROMPT)
        decision.actions.add(label="a")
        yield arena_pb2.PlayResponse(decision=decision)
        next(requests)
        yield arena_pb2.PlayResponse(result=arena_pb2.MatchResult(scores=[1.0], ranks=[1]))


@pytest.fixture(scope="module")
def large_server() -> Iterator[str]:
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=4),
        options=[("grpc.max_send_message_length", LARGE_SERVER)],
    )
    arena_pb2_grpc.add_ArenaServicer_to_server(_LargeDecisionArena(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(None)


def _bot(address: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return sheepfold("bot", "--server", address, "--match", "m", "--token", "t", *flags)


def test_bot_with_max_message_bytes_raised_plays_a_decision_past_4_mib(large_server: str) -> None:
    done = _bot(large_server, "--max-message-bytes", str(LARGE_SERVER))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"scores": [1.0], "ranks": [1]}


def test_bot_by_default_takes_4_mib_as_a_server_sends(large_server: str) -> None:
    done = _bot(large_server)
    assert done.returncode == 1
    assert "RESOURCE_EXHAUSTED" in done.stderr.splitlines()[-1], done.stderr


def test_bot_max_message_bytes_below_1_mib_is_a_usage_error() -> None:
    done = _bot("127.0.0.1:1", "--max-message-bytes", "65536")
    assert done.returncode == 2
    line = done.stderr.splitlines()[-1]
    assert line.startswith("sheepfold bot: error: argument --max-message-bytes: ")
    assert "at least 1048576 (1 MiB)" in line


def test_bot_names_max_message_bytes_it_ignores_for_a_command_bot() -> None:
    command_bot = ("--no-sandbox", "--bot", "cmd:{python} examples/command-bot/command_bot.py")
    done = _bot("127.0.0.1:1", *command_bot, "--max-message-bytes", str(LARGE_SERVER))
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        "sheepfold bot: --max-message-bytes applies only to built-in and module:Class bots "
        "(a command bot's program receives what it was written to): ignored"
    ), done.stderr
