"""Secrets travel in message fields, never in call metadata: an admin token
sent as a header is no token, and a Play stream joins with whatever metadata
it carries. The bot guide says so, since an author in another language
otherwise has to guess where a token goes."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ROOT, start_server_process, stop_server_process

pytestmark = pytest.mark.e2e

GUIDE = ROOT / "docs" / "writing-a-bot.md"
ADMIN = "s3cret-admin-token"
HEADERS = (("authorization", f"Bearer {ADMIN}"), ("admin-token", ADMIN), ("x-token", ADMIN))


def test_an_admin_token_in_metadata_is_no_token_and_play_ignores_metadata() -> None:
    server = start_server_process("--admin-token", ADMIN)
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            request = arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1)
            with pytest.raises(grpc.RpcError) as refused:
                stub.CreateMatch(request, metadata=HEADERS, timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
            request.admin_token = ADMIN
            created = stub.CreateMatch(request, timeout=10)
            join = arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
            call = stub.Play(iter([arena_pb2.PlayRequest(join=join)]), metadata=HEADERS)
            first = next(call)
            call.cancel()
    finally:
        stop_server_process(server)
    assert first.WhichOneof("kind") == "joined" and first.joined.seat == 0


def test_a_seat_token_sent_as_metadata_is_told_where_it_goes() -> None:
    """A join whose token came as a header holds an empty Join.token: its refusal
    says where the token goes, not "invalid seat token", which had its author
    doubting a token that was right."""
    server = start_server_process()
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            request = arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1)
            created = stub.CreateMatch(request, timeout=10)
            token = created.seat_tokens[0]
            headers = (("authorization", f"Bearer {token}"), ("token", token))
            join = arena_pb2.Join(match_id=created.match_id)
            call = stub.Play(iter([arena_pb2.PlayRequest(join=join)]), metadata=headers)
            with pytest.raises(grpc.RpcError) as refused:
                next(call)
            wrong = arena_pb2.Join(match_id=created.match_id, token="not-a-token")
            with pytest.raises(grpc.RpcError) as wrong_token:
                next(stub.Play(iter([arena_pb2.PlayRequest(join=wrong)])))
    finally:
        stop_server_process(server)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert refused.value.details() == (
        "the join has no token: put the seat's token in Join.token "
        "(the server reads no call metadata)"
    )
    assert wrong_token.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert wrong_token.value.details() == "invalid seat token"


def test_the_guide_says_where_tokens_go() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert "it goes in `Join.token` (and nowhere else)" in text
    assert "never in call metadata: the server reads no metadata key" in text
