"""A hostile client at a server's bounds on matches sends CreateMatch requests
that are also invalid (an unknown game, players out of range, an unknown or
ill-typed option, options the game refuses together) against a real `sheepfold
serve` on loopback. Such a request is refused INVALID_ARGUMENT, as it would be
on an idle server: it can never succeed, and RESOURCE_EXHAUSTED told the
client to try again later for a request that would then fail all the same.
A valid request at the bound is still RESOURCE_EXHAUSTED."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ServerProcess, server_logging_no_fault

pytestmark = pytest.mark.e2e

ADMIN = "refusal-order-admin"

INVALID = [
    pytest.param({"game": "chess", "players": 2}, "unknown game", id="unknown-game"),
    pytest.param({"game": "sheep-showdown", "players": 99}, "players", id="players"),
    pytest.param(
        {"game": "sheep-showdown", "players": 2, "options": {"colour": "red"}},
        "unknown option",
        id="unknown-option",
    ),
    pytest.param(
        {"game": "sheep-showdown", "players": 2, "options": {"rounds": "many"}},
        "whole number",
        id="ill-typed-option",
    ),
    pytest.param(
        {"game": "sheep-showdown", "players": 3, "options": {"double_trouble": "true"}},
        "2 players only",
        id="options-the-game-refuses",
    ),
]


def _refusal(stub: arena_pb2_grpc.ArenaStub, **fields: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(arena_pb2.CreateMatchRequest(**fields), timeout=10)  # type: ignore[arg-type]
    return caught.value


def _valid(admin_token: str = "") -> dict[str, object]:
    return {"game": "sheep-showdown", "players": 2, "admin_token": admin_token}


@pytest.fixture(scope="module")
def per_address_bound() -> Iterator[ServerProcess]:
    """No admin token, and one match nobody played per address: once the
    match made here is aborted unjoined, the client's address is at its bound."""
    with server_logging_no_fault("--max-unplayed-matches", "1", "--start-timeout", "0.5") as server:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(
                arena_pb2.CreateMatchRequest(**_valid()),  # type: ignore[arg-type]
                timeout=10,
            )
            deadline = time.monotonic() + 10
            request = arena_pb2.GetMatchRequest(match_id=created.match_id)
            while stub.GetMatch(request, timeout=10).status != arena_pb2.MATCH_STATUS_ABORTED:
                assert time.monotonic() < deadline, "the match nobody joined was never aborted"
                time.sleep(0.05)
        yield server


@pytest.fixture(scope="module")
def server_full() -> Iterator[ServerProcess]:
    """An admin token and one live match at most, taken."""
    with server_logging_no_fault(
        "--admin-token", ADMIN, "--max-live-matches", "1", "--start-timeout", "120"
    ) as server:
        with grpc.insecure_channel(server.address) as channel:
            arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                arena_pb2.CreateMatchRequest(**_valid(ADMIN)),  # type: ignore[arg-type]
                timeout=10,
            )
        yield server


@pytest.mark.parametrize(("fields", "text"), INVALID)
def test_an_invalid_create_at_its_address_bound_is_invalid_argument(
    per_address_bound: ServerProcess, fields: dict[str, object], text: str
) -> None:
    with grpc.insecure_channel(per_address_bound.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        refused = _refusal(stub, **fields)
        assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT, refused.details()
        assert text in refused.details()
        # The bound is still there for a request that could be made.
        at_bound = _refusal(stub, **_valid())
        assert at_bound.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.mark.parametrize(("fields", "text"), INVALID)
def test_an_invalid_create_on_a_full_server_is_invalid_argument(
    server_full: ServerProcess, fields: dict[str, object], text: str
) -> None:
    with grpc.insecure_channel(server_full.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        refused = _refusal(stub, admin_token=ADMIN, **fields)
        assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT, refused.details()
        assert text in refused.details()
        full = _refusal(stub, **_valid(ADMIN))
        assert full.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        # The admin token is still checked before anything else.
        assert _refusal(stub, **fields).code() == grpc.StatusCode.UNAUTHENTICATED
