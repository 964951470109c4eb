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


def test_the_guide_says_where_tokens_go() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    assert "it goes in `Join.token` (and nowhere else)" in text
    assert "never in call metadata: the server reads no metadata key" in text
