"""A deadline on the Play call bounds the whole stream, not the wait for the
server: a seat that has joined loses its stream `DEADLINE_EXCEEDED` in the
middle of its match, while the match runs on. The bot guide says so, and says
how to bound the wait for the server instead (a C++ author meets it first:
`ClientContext::set_deadline` is the obvious way to "give each attempt a
deadline")."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.launch import ServerProcess
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

GUIDE = ROOT / "docs" / "writing-a-bot.md"


def _play_under_a_deadline(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, seconds: float
) -> tuple[list[str], grpc.StatusCode]:
    """Joins with a deadline on the call and answers nothing; returns the kinds
    of message received and the status the stream ended with."""
    join = arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token))
    kinds: list[str] = []
    try:
        for response in stub.Play(iter([join]), timeout=seconds):
            kinds.append(response.WhichOneof("kind"))
    except grpc.RpcError as error:
        return kinds, error.code()
    return kinds, grpc.StatusCode.OK


def test_a_deadline_on_the_play_call_ends_the_stream_mid_match(
    server_process: ServerProcess,
) -> None:
    with grpc.insecure_channel(server_process.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1), timeout=10
        )
        kinds, code = _play_under_a_deadline(
            stub, created.match_id, created.seat_tokens[0], seconds=1.5
        )
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
    assert kinds == ["joined", "decision"]
    assert code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert info.status == arena_pb2.MATCH_STATUS_RUNNING and info.moves == 0


def test_the_guide_bounds_the_connection_not_the_play_call() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert "never a deadline or timeout on the `Play` call itself" in text
    assert "`channel->WaitForConnected(deadline)`" in text
    assert "Leave the Play context without `set_deadline()`" in text
