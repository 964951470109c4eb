"""What docs/writing-a-bot.md says of a message past --max-request-bytes on a
stream that has joined: the stream ends RESOURCE_EXHAUSTED "Received message
larger than max", and the seat may rejoin and answer the decision still open."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.conftest import random_opponent
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

# An unknown length-delimited field (number 99) of 100,000 bytes: protobuf
# keeps unknown fields, so a client sends them on as it got them.
_UNKNOWN_FIELD_99 = b"\x9a\x06" + b"\xa0\x8d\x06" + bytes(100_000)


def _padded_answer(decision_id: int) -> arena_pb2.PlayRequest:
    answer = arena_pb2.PlayRequest(answer=arena_pb2.Answer(decision_id=decision_id))
    return arena_pb2.PlayRequest.FromString(answer.SerializeToString() + _UNKNOWN_FIELD_99)


def test_an_answer_past_the_request_limit_ends_the_stream_and_the_seat_rejoins(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(
            game="stubborn-sheep",
            players=2,
            seed=5,
            clock=arena_pb2.ClockSettings(decision_seconds=30),
        )
    )
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    seat = RawSeat(stub, timeout=60)
    seat.join(created.match_id, created.seat_tokens[0])
    seat.next("joined")
    # The decision stays open until answered (or for 30 s).
    decision = seat.next("decision").decision
    seat.send(_padded_answer(decision.decision_id))
    with pytest.raises(grpc.RpcError) as ended:
        seat.next("result", skip=("event", "decision", "error"))
    assert ended.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "Received message larger than max" in (ended.value.details() or "")
    seat.close()

    again = RawSeat(stub, timeout=60)
    again.join(created.match_id, created.seat_tokens[0])
    again.next("joined")
    resent = again.next("decision").decision
    assert resent.decision_id == decision.decision_id
    assert again.play_to_end(resent).scores
    again.close()
    opponent.result(30)
