"""`sheepfold bot --seat N` joins seat N: the seat goes in the join, and a
token of another seat is refused, rather than the server playing the token's
own seat while the user believes the bot plays seat N."""

from __future__ import annotations

import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.cli.helpers import sheepfold

pytestmark = pytest.mark.e2e


def test_bot_with_a_seat_its_token_is_not_for_is_refused(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1, seed=4), timeout=10
    )
    done = sheepfold(
        "bot", "--server", inprocess_server.address, "--match", created.match_id,
        "--token", created.seat_tokens[0], "--seat", "1", timeout=30,
    )  # fmt: skip
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [
        "sheepfold bot: PERMISSION_DENIED: this token does not belong to seat 1"
    ]
