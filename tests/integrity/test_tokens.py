"""Seat tokens and the command line: a token never starts with "-", and
`sheepfold bot` passes any token value to the server, even one that does."""

from __future__ import annotations

import subprocess
import sys

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ROOT, ServerProcess, start_server_process, stop_server_process

pytestmark = pytest.mark.e2e


def test_no_seat_token_starts_with_a_dash() -> None:
    # 1,200 tokens: with a 1 in 64 chance each, a dash would show up ~19 times.
    # Matches nobody joins are bounded per address (100 by default): raised here.
    tokens: list[str] = []
    server = start_server_process("--max-unplayed-matches", "200")
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            for _ in range(200):
                created = stub.CreateMatch(
                    arena_pb2.CreateMatchRequest(game="sheep-showdown", players=6), timeout=10
                )
                tokens.extend(created.seat_tokens)
    finally:
        stop_server_process(server)
    assert len(tokens) == 1200 and len(set(tokens)) == 1200
    assert [t for t in tokens if t.startswith("-")] == []


@pytest.mark.parametrize("form", ["--token=-abc", "--token -abc"])
def test_bot_accepts_a_token_that_starts_with_a_dash(
    server_process: ServerProcess, form: str
) -> None:
    with grpc.insecure_channel(server_process.address) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
        )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "bot",
            "--server",
            server_process.address,
            "--match",
            created.match_id,
            *form.split(),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # The value reached the server, which refused it as a token (not argparse, exit 2).
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "sheepfold bot: UNAUTHENTICATED: invalid seat token"
    )
