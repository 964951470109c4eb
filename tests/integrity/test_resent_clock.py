"""A decision sent again (after a refused answer, or when the seat rejoins)
shows the clock as it stands then: the time left of `decision_seconds` and of
the bank. It showed the first sending's full time, and a bot that budgets from
`Decision.clock` (as the bot guide says to) would overrun into its bank or
miss the deadline."""

from __future__ import annotations

import time
from typing import Any

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.conftest import random_opponent
from tests.integrity.helpers import Case, create_request, wait_until
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

CASE = Case("sheep-n-sheep", 2, {})
WAIT = 1.5  # seconds the seat sits on its decision before it is sent again


def _same_but_clock(again: arena_pb2.Decision, first: arena_pb2.Decision) -> None:
    assert again.decision_id == first.decision_id
    assert again.observation == first.observation and again.actions == first.actions
    assert again.prompt == first.prompt and again.seat == first.seat
    assert (again.clock.strikes, again.clock.max_strikes) == (
        first.clock.strikes,
        first.clock.max_strikes,
    )


def _seat_0_decides(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub, seed: int, seconds: float, bank: float
) -> tuple[arena_pb2.CreateMatchResponse, Any, RawSeat, arena_pb2.Decision]:
    """A match whose seat 1 is a random bot and whose seat 0 has its first decision."""
    created = stub.CreateMatch(
        create_request(CASE, seed, decision_seconds=seconds, time_bank_seconds=bank)
    )
    opponent = random_opponent(server, created.match_id, created.seat_tokens[1])
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[0])
    return created, opponent, seat, seat.next("decision", skip=("joined", "event")).decision


def test_a_decision_sent_again_after_a_refused_answer_shows_the_time_left(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    _, opponent, seat, first = _seat_0_decides(inprocess_server, stub, 31, 30, 7)
    assert (first.clock.decision_seconds, first.clock.time_bank_seconds) == (30, 7)
    time.sleep(WAIT)
    seat.answer(first.decision_id, len(first.actions))  # one past the last: refused
    assert seat.next("error").error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    again = seat.next("decision").decision
    _same_but_clock(again, first)
    assert 10 < again.clock.decision_seconds <= 30 - WAIT
    assert again.clock.time_bank_seconds == 7, "the bank is untouched within the time"
    result = seat.play_to_end(again)
    seat.close()
    opponent.result(20)
    assert [s.strikes for s in result.seats] == [0, 0]


def test_a_decision_sent_again_on_a_rejoin_shows_the_bank_left_once_the_time_is_over(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created, opponent, first_stream, first = _seat_0_decides(inprocess_server, stub, 32, 1, 20)
    first_stream.responses.cancel()
    first_stream.close()
    wait_until(
        lambda: (
            not stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
            .seats[0]
            .connected
        ),
        what="seat 0 dropped",
    )
    time.sleep(WAIT)
    second = RawSeat(stub)
    second.join(created.match_id, created.seat_tokens[0], seat=0)
    again = second.next("decision", skip=("joined", "event")).decision
    _same_but_clock(again, first)
    assert again.clock.decision_seconds == 0, "its decision time is used up"
    assert 5 < again.clock.time_bank_seconds <= 20 - (WAIT - 1)
    result = second.play_to_end(again)
    second.close()
    opponent.result(20)
    assert result.seats[0].strikes == 0
