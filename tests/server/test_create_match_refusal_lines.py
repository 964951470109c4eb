"""A refused CreateMatch has its line in the log: an operator once saw nothing of
a client guessing the admin token, nor of a bot author's create refused for a bad
option, since no refusal of CreateMatch was logged. The lines name the client
address, never a token, and one address's are bounded as every repeatable
line is (its first 20, then one in a thousand)."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import logged

pytestmark = pytest.mark.e2e

ADMIN_TOKEN = "the-real-admin-token-7f3a"
GUESSED_TOKEN = "a-guessed-admin-token-91c2"


def _refused(stub: arena_pb2_grpc.ArenaStub, **fields: object) -> grpc.StatusCode:
    request = arena_pb2.CreateMatchRequest(**fields)  # type: ignore[arg-type]
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateMatch(request, timeout=10)
    code: grpc.StatusCode = refused.value.code()
    return code


def test_refused_creations_are_logged_with_the_client_and_no_token() -> None:
    server = start_server_process("--log-format", "json", "--admin-token", ADMIN_TOKEN)
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            codes = [
                _refused(stub, game="sheep-showdown", players=2, admin_token=GUESSED_TOKEN),
                _refused(stub, game="sheep-showdown", players=2),
                _refused(stub, game="no-such-game", players=2, admin_token=ADMIN_TOKEN),
                _refused(
                    stub,
                    game="sheep-showdown",
                    players=2,
                    options={"rounds": "many"},
                    admin_token=ADMIN_TOKEN,
                ),
            ]
            for _ in range(30):
                _refused(stub, game="sheep-showdown", players=2, admin_token=GUESSED_TOKEN)
    finally:
        assert stop_server_process(server) == 0
    assert codes == [
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.INVALID_ARGUMENT,
    ]
    lines = logged(server.log_lines, "match creation refused")
    assert [(line["code"], line["total"]) for line in lines[:4]] == [
        ("PERMISSION_DENIED", 1),
        ("UNAUTHENTICATED", 2),
        ("INVALID_ARGUMENT", 3),
        ("INVALID_ARGUMENT", 4),
    ]
    assert "no-such-game" in str(lines[2]["reason"])
    assert "rounds" in str(lines[3]["reason"])
    assert {line["client"] for line in lines} == {"ipv4:127.0.0.1"}
    # 34 refusals from one address: its first 20 logged, the rest counted.
    assert len(lines) == 20
    whole_log = "".join(server.log_lines)
    assert ADMIN_TOKEN not in whole_log
    assert GUESSED_TOKEN not in whole_log
