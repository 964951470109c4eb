"""A seat's clock on one decision: the wait for its answer within the
decision's time and the seat's bank, and what a missed deadline costs it; and
a match's wait for its seats to join."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import grpc
from structlog.typing import FilteringBoundLogger

from server.clock_limits import ClockConfig
from server.logs import worth_logging
from server.metrics import GameMetrics
from server.seat_messages import send_error
from server.seats import FROZEN_SECONDS, TIMED_OUT, Deadlines, PendingDecision, Seat


async def answer_in_time(
    seat: Seat,
    pending: PendingDecision,
    clock: ClockConfig,
    deadlines: Deadlines,
    metrics: GameMetrics,
    log: FilteringBoundLogger,
) -> int:
    """The index the seat answered, or TIMED_OUT: then the seat has a strike
    more (disqualified at the last) and has been told, and the caller plays a
    forced move. The seat's thinking time and bank are brought up to date."""
    # Measured on the monotonic clock: the loop's may count whole milliseconds
    # (uvloop's does), which made an answer of a few tenths of one 0 or 1 ms.
    pending.opened_at = time.monotonic()
    # The match's timer on the answer future: wait_for and shield would add a
    # task, a second future and their callbacks to every decision.
    deadlines.arm(pending, clock.decision_seconds + seat.bank)
    try:
        index = await pending.answer
    finally:
        deadlines.disarm()
        # An answer's time ends when the server read it (`answered_at`), not
        # when the match got back to it: on a busy server that wait is the
        # server's, and it was charged to the seat's bank.
        elapsed = (pending.answered_at or time.monotonic()) - pending.opened_at
        seat.thinking += elapsed
    if index == TIMED_OUT:
        _missed(seat, pending, clock, metrics, log)
        return TIMED_OUT
    metrics.decision_answered(
        elapsed,
        None if pending.sent_at is None else pending.answered_at - pending.sent_at,
    )
    overrun = seat.spend_overrun(elapsed, clock.decision_seconds)
    if overrun > 0:
        log.info(
            "time bank used",
            seat=seat.index,
            decision_id=pending.decision_id,
            overrun_seconds=round(overrun, 3),
            bank_left_seconds=round(seat.bank, 3),
        )
    return index


def clock_from_sending(
    seat: Seat, pending: PendingDecision, clock: ClockConfig, deadlines: Deadlines
) -> Callable[[], None]:
    """What starts the decision's clock again as its first sending leaves the
    server's queue (`queue_decision`'s `sent`). The clock runs from the moment
    the server sends a decision: `answer_in_time` starts it as the decision is
    queued, and a busy server took its time to write it out, which was
    counted against the seat."""

    def sent() -> None:
        if not pending.answer.done():
            pending.opened_at = time.monotonic()
            deadlines.arm(pending, clock.decision_seconds + seat.bank)

    return sent


def _missed(
    seat: Seat,
    pending: PendingDecision,
    clock: ClockConfig,
    metrics: GameMetrics,
    log: FilteringBoundLogger,
) -> None:
    seat.strike(clock.max_strikes)
    # A seat's first strikes, then one in a thousand: a match made with a
    # huge max_strikes and a tiny deadline would write a line a move.
    if worth_logging(seat.strikes) or seat.disqualified:
        log.warning(
            "decision deadline missed",
            seat=seat.index,
            decision_id=pending.decision_id,
            strikes=seat.strikes,
            disqualified=seat.disqualified,
        )
    metrics.deadline_missed(seat.disqualified)
    metrics.forced_move("timeout")
    if seat.stream is not None:
        message = (
            f"deadline missed: a random action was played "
            f"(strike {seat.strikes} of {clock.max_strikes})"
        )
        if seat.disqualified:
            # The seat's decisions stop coming: say why, or its bot waits
            # for a next decision and takes the silence for a stalled server.
            message += (
                "; the seat is disqualified: the server plays its remaining decisions "
                "and it ranks last"
            )
        send_error(seat, grpc.StatusCode.DEADLINE_EXCEEDED, message, pending.decision_id, log)


async def every_seat_in_time(all_joined: asyncio.Event, start_timeout: float) -> bool:
    """Wait up to `start_timeout` for `all_joined`; False when it ran out.

    A timeout that ran FROZEN_SECONDS late ran on a server that was not
    running meanwhile (SIGSTOP, a paused virtual machine): joins sent in
    time may be waiting unread, and the timer fired before them, so the
    match was aborted ("no seat joined") and its seats' joins refused. The
    wait then starts again, once at most, as a decision's clock does."""
    restarted = False
    while True:
        due = time.monotonic() + start_timeout
        try:
            # A timeout scope, not wait_for: its extra task would cost every
            # match start one more turn of a busy event loop.
            async with asyncio.timeout(start_timeout):
                await all_joined.wait()
            return True
        except TimeoutError:
            if restarted or time.monotonic() - due <= FROZEN_SECONDS:
                return False
            restarted = True
