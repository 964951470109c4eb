"""What the README says about tokens, exactly: the token is the seat. A join
without `seat` plays the seat its token belongs to; only a join that names a
`seat` the token does not belong to is PERMISSION_DENIED."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e


def test_a_join_without_seat_plays_the_seat_of_its_token(stub: arena_pb2_grpc.ArenaStub) -> None:
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=3, seed=2)
    )
    for seat_index in (2, 1):
        seat = RawSeat(stub)
        seat.join(created.match_id, created.seat_tokens[seat_index])
        assert seat.next("joined").joined.seat == seat_index
        seat.close()
    named = RawSeat(stub)
    named.join(created.match_id, created.seat_tokens[2], seat=0)
    with pytest.raises(grpc.RpcError) as caught:
        named.next("joined")
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert caught.value.details() == "this token does not belong to seat 0"
    named.close()
