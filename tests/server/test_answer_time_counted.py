"""What a seat's answer is charged for: the time from its decision to the
moment the server read the answer, not to the moment the busy match loop got
back to it. Driven directly (server/answer_clock.py), as the match drives it:
the loop held between the read and the match's turn is exactly where a loaded
server spends its time, and no client can place a busy moment there."""

from __future__ import annotations

import asyncio
import time

import structlog

from server.answer_clock import answer_in_time
from server.clock_limits import ClockConfig
from server.metrics import _NoGameMetrics
from server.seats import Deadlines, PendingDecision, Seat

LOG = structlog.get_logger("test")
ANSWERED_AFTER = 0.05  # well inside the decision's time
LOOP_HELD = 0.4  # well past it: what a busy server keeps the match waiting


class ThinkTimes(_NoGameMetrics):
    def __init__(self) -> None:
        self.answered: list[float] = []

    def decision_answered(self, think_seconds: float, round_trip_seconds: float | None) -> None:
        self.answered.append(think_seconds)


def _read_answer(pending: PendingDecision) -> None:
    """What `Match.answer` does with an answer it accepts."""
    pending.answered_at = time.monotonic()
    pending.answer.set_result(0)


def test_an_answer_read_in_time_costs_no_bank_however_late_the_match_takes_it() -> None:
    clock = ClockConfig(decision_seconds=0.2, time_bank_seconds=1.0, max_strikes=3)
    seat = Seat(index=0, bank=clock.time_bank_seconds)
    metrics = ThinkTimes()

    async def decision() -> int:
        loop = asyncio.get_running_loop()
        pending = PendingDecision(decision_id=1, seat=0, actions=[0, 1], body=b"", head_bytes=0)

        def answer_then_hold_the_loop() -> None:
            # Read in one turn of the loop; the match resumes only at the next,
            # after whatever else that turn had to run.
            loop.call_soon(_read_answer, pending)
            loop.call_soon(time.sleep, LOOP_HELD)

        loop.call_later(ANSWERED_AFTER, answer_then_hold_the_loop)
        return await answer_in_time(seat, pending, clock, Deadlines(), metrics, LOG)

    assert asyncio.run(decision()) == 0
    # The bank was charged the loop's 0.4 s past the 0.2 s deadline (0.25 s).
    assert seat.bank == clock.time_bank_seconds
    assert (seat.strikes, seat.disqualified) == (0, False)
    # Thinking time, in GetMatch and the metrics, is the seat's own.
    assert seat.thinking < clock.decision_seconds
    assert len(metrics.answered) == 1 and metrics.answered[0] < clock.decision_seconds
