"""A refused join's log line names the seat it was for, as an operator needs to
tell which seat's bot holds a wrong token: the line once carried the match and
the reason alone ("invalid seat token"), whatever seat the join named."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import logged, wait_until
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e


def _refused(stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, seat: int | None) -> None:
    joining = RawSeat(stub, timeout=10)
    joining.join(match_id, token, seat)
    assert joining.status() != grpc.StatusCode.OK
    joining.close()


def test_join_refused_names_the_seat() -> None:
    server = start_server_process(
        "--db", ":memory:", "--log-format", "json", "--start-timeout", "1"
    )
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            request = arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2)
            created = stub.CreateMatch(request, timeout=10)
            match_id = created.match_id
            _refused(stub, match_id, "not-a-token", seat=1)
            _refused(stub, match_id, "not-a-token", seat=None)
            # Seat 1's token naming seat 0: the line names seat 0, the seat whose
            # bot holds the wrong token.
            _refused(stub, match_id, created.seat_tokens[1], seat=0)
            # Seat 0's own token names seat 0 once nobody joined in time and the
            # match was aborted, though the join named no seat.
            aborted = arena_pb2.MATCH_STATUS_ABORTED
            get = arena_pb2.GetMatchRequest(match_id=match_id)
            wait_until(lambda: stub.GetMatch(get, timeout=10).status == aborted, what="abort")
            _refused(stub, match_id, created.seat_tokens[0], seat=None)
    finally:
        assert stop_server_process(server) == 0
    lines = logged(server.log_lines, "join refused")
    assert [(line["match_id"], line["code"], line["seat"]) for line in lines] == [
        (match_id, "UNAUTHENTICATED", 1),
        (match_id, "UNAUTHENTICATED", None),
        (match_id, "PERMISSION_DENIED", 0),
        (match_id, "FAILED_PRECONDITION", 0),
    ]


def test_join_to_no_match_is_logged_and_bounded_per_client() -> None:
    """A join naming a match the server never had (a bot left with an old match
    id) once left no line; made-up ids from one address cost its first 20 lines,
    then one in a thousand, however many ids it makes up."""
    server = start_server_process("--db", ":memory:", "--log-format", "json")
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            for number in range(30):
                _refused(stub, f"made-up-{number}", "not-a-token", seat=number % 2)
    finally:
        assert stop_server_process(server) == 0
    lines = logged(server.log_lines, "join refused")
    assert [(line["match_id"], line["code"], line["seat"]) for line in lines[:2]] == [
        ("made-up-0", "NOT_FOUND", 0),
        ("made-up-1", "NOT_FOUND", 1),
    ]
    assert "game" not in lines[0]
    # Its total is the address's, over every id it made up.
    assert [line["total"] for line in lines[:3]] == [1, 2, 3]
    assert len(lines) == 20
