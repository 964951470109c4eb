"""A decision's clock starts again once at most when its timer runs late, as
docs/operations.md says: "a server late at every timer (overloaded beyond
use) still times a silent seat out". The server's event loop is held here for
longer than a second at a time, over and over, as an overloaded server's is:
the silent seat's decision is started again once, then timed out, while the
loop is still held. Were it started again at each late timer, the seat would
never be timed out for as long as the server stayed overloaded."""

from __future__ import annotations

import asyncio
import threading
import time

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from server.seats import FROZEN_SECONDS
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

DECISION_SECONDS = 0.5
# Each hold of the loop makes a timer due within it (the decision is opened
# just before the first) run more than FROZEN_SECONDS late.
HOLD_SECONDS = FROZEN_SECONDS + DECISION_SECONDS + 0.2
MOST_HOLDS = 6
# The loop's free time between holds: enough for the timer's consequences
# (the strike, the error written) to run, less than the decision's seconds.
FREE_SECONDS = 0.05


async def _hold_the_loop(released: threading.Event) -> int:
    """Block the server's event loop HOLD_SECONDS at a time, letting it run
    FREE_SECONDS between holds, until `released`; the holds it took (MOST_HOLDS:
    it was never released)."""
    for hold in range(1, MOST_HOLDS + 1):
        time.sleep(HOLD_SECONDS)
        await asyncio.sleep(FREE_SECONDS)
        if released.is_set():
            return hold
    return MOST_HOLDS


def test_a_silent_seat_is_timed_out_by_a_server_late_at_every_timer(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(
            game="stubborn-sheep",
            players=1,
            seed=3,
            clock=arena_pb2.ClockSettings(decision_seconds=DECISION_SECONDS, max_strikes=3),
        )
    )
    silent = RawSeat(stub, timeout=60)
    silent.join(created.match_id, created.seat_tokens[0])
    decision = silent.next("decision", skip=("joined", "event")).decision
    released = threading.Event()
    holding = inprocess_server.submit(_hold_the_loop(released))
    error = silent.next("error", skip=("event", "decision")).error
    released.set()
    assert error.code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
    assert error.decision_id == decision.decision_id
    holds = holding.result(timeout=60)
    assert holds < MOST_HOLDS, "timed out only once the loop was let go"
    silent.close()
