"""A competitor that keeps to the protocol but plays against the server, not the
game: it rejoins its seat just before each deadline to stretch its clock, and
polls its live match for what the other seats hold. Neither gets anything."""

from __future__ import annotations

import time

import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.conftest import random_opponent
from tests.integrity.helpers import Case, create_request
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

CASE = Case("sheep-n-sheep", 2, {})
DEADLINE = 1.0
REJOIN_AFTER = 0.6  # of each stream's life: before the deadline, every time
# Rejoins enough to hold a decision open six deadlines long, had each one
# started its clock again.
MOST_REJOINS = 10


def _strikes(stub: arena_pb2_grpc.ArenaStub, match_id: str) -> int:
    return stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).seats[0].strikes


def test_rejoining_before_each_deadline_does_not_stretch_the_clock(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = stub.CreateMatch(create_request(CASE, 41, decision_seconds=DEADLINE))
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[0], seat=0)
    first = seat.next("decision", skip=("joined", "event")).decision
    assert first.clock.decision_seconds == DEADLINE
    shown: list[float] = []
    latest = first
    rejoins = 0
    while _strikes(stub, created.match_id) == 0 and rejoins < MOST_REJOINS:
        time.sleep(REJOIN_AFTER)
        # A new stream's join replaces the one before, which is left unread.
        seat.responses.cancel()
        seat.close()
        seat = RawSeat(stub)
        seat.join(created.match_id, created.seat_tokens[0], seat=0)
        rejoins += 1
        latest = seat.next("decision", skip=("joined", "event", "error")).decision
        if latest.decision_id == first.decision_id:
            shown.append(latest.clock.decision_seconds)
    assert _strikes(stub, created.match_id) == 1, (
        f"decision {first.decision_id} was still open after {rejoins} rejoins, "
        f"{rejoins * REJOIN_AFTER:.1f} s of a {DEADLINE:g} s deadline"
    )
    assert shown, "no rejoin came while the decision was open"
    assert all(left < DEADLINE for left in shown), shown
    # The decision read last, if a later one, is answered too: no strike more.
    seat.play_to_end(None if latest.decision_id == first.decision_id else latest)
    seat.close()
    result = opponent.result(60)
    assert [s.strikes for s in result.seats] == [1, 0]


def test_polling_a_live_match_never_shows_its_seed(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """The seed fixes every deck order: GetMatch and ListMatches of a live
    match, asked again and again while it waits and plays, leave it out."""
    created = stub.CreateMatch(create_request(CASE, 42, decision_seconds=5))
    statuses: set[int] = set()

    def poll() -> None:
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
        listed = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=1000)).matches
        mine = [m for m in listed if m.match_id == created.match_id]
        assert len(mine) == 1
        if info.status in (arena_pb2.MATCH_STATUS_WAITING, arena_pb2.MATCH_STATUS_RUNNING):
            statuses.add(info.status)
            assert not info.HasField("seed"), info
        if mine[0].status in (arena_pb2.MATCH_STATUS_WAITING, arena_pb2.MATCH_STATUS_RUNNING):
            assert not mine[0].HasField("seed"), mine[0]

    poll()
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    seat = RawSeat(stub)
    seat.join(created.match_id, created.seat_tokens[0], seat=0)
    for response in seat.responses:
        kind = response.WhichOneof("kind")
        if kind == "decision":
            poll()
            seat.answer(response.decision.decision_id, 0)
        elif kind == "result":
            break
    seat.close()
    opponent.result(60)
    assert statuses == {arena_pb2.MATCH_STATUS_WAITING, arena_pb2.MATCH_STATUS_RUNNING}
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED and info.seed == 42
