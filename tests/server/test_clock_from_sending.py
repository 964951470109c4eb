"""A decision's time runs from the moment the server sends it, as the bot
guide says, not from the moment the match queued it: a server busy with other
work between the two (the turn of its loop that queued the decision held up)
once took that time out of the seat's, and a bot answering well inside the time
it was shown missed its deadline, a random move played and a strike given.
A decision queued behind other messages to the seat still counts from its
queueing, as the guide says: its writer may wait on a client that does not
read, and a bot could otherwise put its clock off by reading nothing.

A real server on loopback; its loop is held, once, right after the first
decision is queued for seat 0, as a loaded server's other matches hold it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from server.settings import ServerConfig
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

DECISION_SECONDS = 1.0
# The server busy elsewhere for most of the decision's time (under the second
# past which a late timer counts as a server that was not running at all).
LOOP_HELD = 0.9
THINKS = 0.4  # the bot's answer, well inside the 1 s it was shown


@pytest.fixture
def server() -> Iterator[InProcessServer]:
    with InProcessServer(ServerConfig()) as server:
        yield server


def _is_decision(message: arena_pb2.PlayResponse | bytes) -> bool:
    return isinstance(message, bytes) and arena_pb2.PlayResponse.FromString(message).HasField(
        "decision"
    )


def _created(stub: arena_pb2_grpc.ArenaStub) -> tuple[str, list[str]]:
    """A 2-player match with DECISION_SECONDS a decision: its id and seat tokens."""
    clock = arena_pb2.ClockSettings(decision_seconds=DECISION_SECONDS, max_strikes=3)
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="stubborn-sheep", players=2, seed=3, clock=clock)
    )
    return created.match_id, list(created.seat_tokens)


def _hold_the_loop_after_the_next_decision(server: InProcessServer, match_id: str) -> None:
    """Seat 0's next decision is followed, in the same turn of the server's
    loop, by LOOP_HELD of other work."""

    async def hold() -> None:
        match = server.server.registry.hosted(match_id)
        assert match is not None
        stream = match.seats[0].stream
        assert stream is not None
        loop = asyncio.get_running_loop()
        send = stream.send

        def send_then_hold(message: arena_pb2.PlayResponse | bytes) -> bool:
            if _is_decision(message) and stream.send is send_then_hold:
                stream.send = send  # type: ignore[method-assign]
                loop.call_soon(time.sleep, LOOP_HELD)
            return send(message)

        stream.send = send_then_hold  # type: ignore[method-assign]

    server.run(hold())


def test_a_decision_held_in_a_busy_server_is_not_charged_to_the_seat(
    server: InProcessServer,
) -> None:
    with grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        match_id, tokens = _created(stub)
        first = RawSeat(stub)
        first.join(match_id, tokens[0])
        first.next("joined")
        _hold_the_loop_after_the_next_decision(server, match_id)
        second = RawSeat(stub)
        second.join(match_id, tokens[1])  # the match starts: seat 0 is asked first
        second.next("joined")

        decision = first.next("decision").decision
        assert decision.clock.decision_seconds == DECISION_SECONDS
        time.sleep(THINKS)
        first.answer(decision.decision_id, 0)
        after = first.next("event", skip=())
        # Its own move, not a PlayError DEADLINE_EXCEEDED and a random one.
        assert after.event.move == 1, after

        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.seats[0].strikes == 0
        assert info.seats[0].thinking_seconds < DECISION_SECONDS
        first.close()
        second.close()


def test_a_decision_queued_behind_events_counts_from_its_queueing(
    server: InProcessServer,
) -> None:
    with grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        match_id, tokens = _created(stub)
        # Events as messages of their own (no events_in_decisions), before each decision.
        first, second = RawSeat(stub), RawSeat(stub)
        first.join(match_id, tokens[0])
        second.join(match_id, tokens[1])
        first.next("joined")
        second.next("joined")
        for _ in range(2):  # seat 0 plays moves 1 and 2 at once
            first.answer(first.next("decision").decision.decision_id, 0)
        # Move 2's event read, the last for now: seat 0's writer waits.
        assert first.next("event", skip=()).event.move == 2
        _hold_the_loop_after_the_next_decision(server, match_id)
        for _ in range(2):  # seat 1's moves 3 and 4: their events go before seat 0's decision
            second.answer(second.next("decision").decision.decision_id, 0)

        decision = first.next("decision").decision
        time.sleep(THINKS)
        first.answer(decision.decision_id, 0)
        missed = first.next("error").error
        assert missed.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
        assert missed.decision_id == decision.decision_id
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.seats[0].strikes == 1
        first.close()
        second.close()
