"""What docs/writing-a-bot.md and arena.proto promise about refusals a bot
written from them alone relies on: the order in which a join is checked, and
which decision a PlayError names."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.conftest import random_opponent
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e


def _create(
    stub: arena_pb2_grpc.ArenaStub, decision_seconds: float = 0
) -> arena_pb2.CreateMatchResponse:
    clock = arena_pb2.ClockSettings(decision_seconds=decision_seconds)
    return stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=3, clock=clock)
    )


def _join_status(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, seat: int | None = None
) -> grpc.StatusCode:
    raw = RawSeat(stub, timeout=30)
    raw.join(match_id, token, seat)
    raw.close()
    return raw.status()


def test_a_join_on_a_finished_match_is_checked_id_then_token_then_seat_then_status(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = _create(stub)
    seats = [
        random_opponent(inprocess_server, created.match_id, token, seed=index)
        for index, token in enumerate(created.seat_tokens)
    ]
    for seat in seats:
        seat.result(10)

    match_id, token = created.match_id, created.seat_tokens[0]
    assert _join_status(stub, "no-such-match", "not-a-token") == grpc.StatusCode.NOT_FOUND
    assert _join_status(stub, match_id, "not-a-token", seat=1) == grpc.StatusCode.UNAUTHENTICATED
    assert _join_status(stub, match_id, token, seat=1) == grpc.StatusCode.PERMISSION_DENIED
    assert _join_status(stub, match_id, token) == grpc.StatusCode.FAILED_PRECONDITION


def test_a_play_error_names_the_id_answered_the_decision_missed_or_zero(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    # The two refusals must come back before the deadline passes: at 0.5 s a
    # loaded machine could let the deadline's error come first.
    created = _create(stub, decision_seconds=2.0)
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[0])
    seat.next("joined")
    decision = seat.next("decision").decision

    future = decision.decision_id + 1000
    seat.answer(future, 0)
    stale = seat.next("error").error
    assert (stale.code, stale.decision_id) == (grpc.StatusCode.FAILED_PRECONDITION.value[0], future)

    seat.send(arena_pb2.PlayRequest())
    empty = seat.next("error").error
    assert (empty.code, empty.decision_id) == (grpc.StatusCode.INVALID_ARGUMENT.value[0], 0)

    missed = seat.next("error").error  # no answer: the deadline passes
    assert missed.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    assert missed.decision_id == decision.decision_id
    seat.play_to_end()
    seat.close()
    assert len(opponent.result(10).scores) == 2
