"""A seat's clock on one decision (server/answer_clock.py), driven directly:
what the bank is charged, when the decision times out, and what a miss costs.
The end-to-end tests (tests/integrity/test_clocks.py) cover a slow answer
within the bank and one past it; these pin what they cannot time closely:
that the wait is the decision's time plus the bank as it is now (what earlier
decisions left of it), and what a decision that ran into its bank and then
out of it leaves behind."""

from __future__ import annotations

import asyncio
import time
from typing import cast

import grpc
import structlog
from sheepfold.v1 import arena_pb2

from server.answer_clock import answer_in_time, every_seat_in_time
from server.clock_limits import ClockConfig
from server.metrics import GameMetrics, _NoGameMetrics
from server.seats import (
    FROZEN_SECONDS,
    TIMED_OUT,
    Deadlines,
    PendingDecision,
    Seat,
    SeatStream,
    refusal,
)
from tests.integrity.helpers import match_without_grpc, play_first_actions, seat_streams

LOG = structlog.get_logger("test")


class Counted(_NoGameMetrics):
    def __init__(self) -> None:
        self.answered: list[float] = []
        self.missed: list[bool] = []
        self.forced: list[str] = []

    def decision_answered(self, think_seconds: float, round_trip_seconds: float | None) -> None:
        self.answered.append(think_seconds)

    def deadline_missed(self, disqualified_now: bool) -> None:
        self.missed.append(disqualified_now)

    def forced_move(self, reason: str) -> None:
        self.forced.append(reason)


class Sent:
    """A seat's stream that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[arena_pb2.PlayResponse | bytes] = []

    def send(self, message: arena_pb2.PlayResponse | bytes) -> bool:
        self.messages.append(message)
        return True

    def close(self, code: grpc.StatusCode | None, message: str) -> None:
        pass


def _decision(decision_id: int, actions: int = 3) -> PendingDecision:
    return PendingDecision(
        decision_id=decision_id, seat=0, actions=list(range(actions)), body=b"", head_bytes=0
    )


async def _answered_after(
    seat: Seat,
    clock: ClockConfig,
    metrics: GameMetrics,
    decision_id: int,
    seconds: float | None,
    deadlines: Deadlines | None = None,
) -> tuple[int, float, PendingDecision]:
    """The decision's outcome, how long it took, and the decision: answered 0
    after `seconds`, or never (None). `deadlines`: the match's timer."""
    pending = _decision(decision_id)
    if seconds is not None:
        asyncio.get_running_loop().call_later(seconds, pending.answer.set_result, 0)
    started = time.monotonic()
    index = await answer_in_time(seat, pending, clock, deadlines or Deadlines(), metrics, LOG)
    return index, time.monotonic() - started, pending


def test_the_wait_is_the_decision_time_plus_what_is_left_of_the_bank() -> None:
    clock = ClockConfig(decision_seconds=0.2, time_bank_seconds=2.0, max_strikes=3)
    seat = Seat(index=0, bank=clock.time_bank_seconds)
    metrics = Counted()

    async def two_decisions() -> tuple[int, float, int, float]:
        slow, _, _ = await _answered_after(seat, clock, metrics, 1, 1.2)
        bank_after_slow = seat.bank
        missed, waited, _ = await _answered_after(seat, clock, metrics, 2, None)
        return slow, bank_after_slow, missed, waited

    slow, bank_after_slow, missed, waited = asyncio.run(two_decisions())
    assert slow == 0
    # About 1 s past the 0.2 s deadline: taken from the bank.
    assert 0.7 < bank_after_slow < 1.05, bank_after_slow
    assert missed == TIMED_OUT
    # The deadline plus the bank left (about 1.2 s), not the bank it began with (2.2 s).
    assert 0.2 + bank_after_slow - 0.05 < waited < 1.9, waited
    assert (seat.strikes, seat.bank, seat.disqualified) == (1, 0.0, False)
    assert len(metrics.answered) == 1 and metrics.answered[0] > 1.1
    assert metrics.missed == [False] and metrics.forced == ["timeout"]
    assert seat.thinking > 1.1 + 1.1


def test_a_decision_that_runs_into_the_bank_and_out_of_it() -> None:
    """No answer: the bank is spent on the way and emptied by the miss, the
    seat told its strike, and an answer sent after that refused as timed out."""
    clock = ClockConfig(decision_seconds=0.05, time_bank_seconds=0.1, max_strikes=2)
    stream = Sent()
    seat = Seat(index=0, bank=clock.time_bank_seconds, stream=cast(SeatStream, stream))
    metrics = Counted()

    async def missed_twice() -> tuple[list[int], list[PendingDecision], float]:
        first, waited, pending = await _answered_after(seat, clock, metrics, 7, None)
        second, _, again = await _answered_after(seat, clock, metrics, 8, None)
        return [first, second], [pending, again], waited

    outcomes, decisions, waited = asyncio.run(missed_twice())
    assert outcomes == [TIMED_OUT, TIMED_OUT]
    assert waited > 0.14, "the decision's time and the whole bank were waited for"
    # Sent encoded, as the Play stream writes them.
    sent = [arena_pb2.PlayResponse.FromString(m) for m in stream.messages if isinstance(m, bytes)]
    errors = [m.error for m in sent if m.HasField("error")]
    assert [(e.code, e.decision_id) for e in errors] == [
        (grpc.StatusCode.DEADLINE_EXCEEDED.value[0], 7),
        (grpc.StatusCode.DEADLINE_EXCEEDED.value[0], 8),
    ]
    assert "strike 1 of 2" in errors[0].message and "strike 2 of 2" in errors[1].message
    # Its decisions stop coming now: the last strike says so, the first does not.
    assert "disqualified" not in errors[0].message
    assert errors[1].message.endswith(
        "(strike 2 of 2); the seat is disqualified: the server plays its remaining "
        "decisions and it ranks last"
    ), errors[1].message
    assert (seat.strikes, seat.bank, seat.disqualified) == (2, 0.0, True)
    assert metrics.missed == [False, True], "disqualified at the second miss"
    assert metrics.forced == ["timeout", "timeout"] and metrics.answered == []
    late = refusal(decisions[0], False, 0, 7, 0)
    assert late == (grpc.StatusCode.FAILED_PRECONDITION, "decision 7 timed out")


def test_an_answer_within_the_decision_time_costs_no_bank() -> None:
    clock = ClockConfig(decision_seconds=1.0, time_bank_seconds=0.5, max_strikes=1)
    seat = Seat(index=0, bank=clock.time_bank_seconds)
    metrics = Counted()
    index, _, _ = asyncio.run(_answered_after(seat, clock, metrics, 3, 0.05))
    assert index == 0
    assert (seat.strikes, seat.bank, seat.disqualified) == (0, 0.5, False)
    assert metrics.missed == [] and len(metrics.answered) == 1


def test_one_timer_meets_every_decisions_deadline_whichever_comes_first() -> None:
    """A match's timer is kept from decision to decision (server/seats.py,
    `Deadlines`): a decision whose deadline comes after the one it was set
    for times out at its own deadline, not at the earlier one, and one whose
    deadline comes before it times out at its own, not at the later one."""
    metrics = Counted()
    deadlines = Deadlines()
    long_clock = ClockConfig(decision_seconds=1.0, max_strikes=9)
    short_clock = ClockConfig(decision_seconds=0.15, max_strikes=9)
    seat = Seat(index=0, bank=0.0)

    async def decision(clock: ClockConfig, decision_id: int, answered: bool) -> tuple[int, float]:
        index, waited, _ = await _answered_after(
            seat, clock, metrics, decision_id, 0.0 if answered else None, deadlines
        )
        return index, waited

    async def decisions() -> list[tuple[int, float]]:
        # Each answered at once leaves the timer set for its own deadline.
        outcomes = [
            await decision(short_clock, 1, answered=True),
            await decision(long_clock, 2, answered=False),
            await decision(long_clock, 3, answered=True),
            await decision(short_clock, 4, answered=False),
        ]
        deadlines.stop()
        return outcomes

    (first, _), (later, waited_later), (third, _), (sooner, waited_sooner) = asyncio.run(
        decisions()
    )
    assert (first, later, third, sooner) == (0, TIMED_OUT, 0, TIMED_OUT)
    assert waited_later > 0.95, f"timed out at the earlier decision's deadline: {waited_later}"
    assert waited_sooner < 0.7, f"timed out at the later decision's deadline: {waited_sooner}"
    assert metrics.missed == [False, False]


def test_a_match_over_leaves_no_timer_set() -> None:
    """An answered decision leaves the match's timer set (for the next one);
    once the match is over it is cancelled, holding nothing: left set, it held
    the match's last decision for the decision's time and bank."""
    clock = ClockConfig(decision_seconds=30.0, max_strikes=1)
    seat = Seat(index=0, bank=0.0)
    deadlines = Deadlines()

    def timers_set() -> int:
        scheduled = asyncio.get_running_loop()._scheduled  # type: ignore[attr-defined]
        return sum(1 for handle in scheduled if not handle.cancelled())

    async def answered_then_over() -> tuple[int, int, int]:
        index, _, _ = await _answered_after(seat, clock, Counted(), 5, 0.0, deadlines)
        set_before = timers_set()
        deadlines.stop()
        return index, set_before, timers_set()

    index, set_before, set_after = asyncio.run(answered_then_over())
    assert (index, set_before, set_after) == (0, 1, 0)


def test_the_start_timeout_starts_again_once_at_most() -> None:
    """A start timeout that ran more than FROZEN_SECONDS late (a server not
    running meanwhile) waits again, once: a loop late at every timer (a server
    overloaded beyond use) must still give up on seats that never join. Here
    the loop is held past the timeout twice, and the seats come only in a
    third wait: the match starts without them."""
    start_timeout = 0.5

    async def held_twice_then_joined() -> bool:
        joined = asyncio.Event()

        async def hold_the_loop() -> None:
            for _ in range(2):
                await asyncio.sleep(0.1)  # inside the wait, well before its timeout
                time.sleep(FROZEN_SECONDS + start_timeout)  # blocks the loop: the timer runs late
            await asyncio.sleep(0.1)
            joined.set()

        holder = asyncio.create_task(hold_the_loop())
        in_time = await every_seat_in_time(joined, start_timeout)
        await holder
        return in_time

    assert asyncio.run(held_twice_then_joined()) is False


def test_a_match_played_to_its_end_leaves_no_timer_set() -> None:
    """Once a match is over its decision timer is cancelled: left set, it held
    the match's last decision on the event loop for the decision's time and
    bank after the end (5 s here), for every match played."""

    async def scenario() -> tuple[bool, int]:
        match = match_without_grpc("sheep-n-sheep", 4)
        streams = seat_streams(match)
        match.start()

        await play_first_actions(match, streams)
        await asyncio.sleep(0.05)  # the match's task runs to its end
        scheduled = asyncio.get_running_loop()._scheduled  # type: ignore[attr-defined]
        return match.over, sum(1 for handle in scheduled if not handle.cancelled())

    assert asyncio.run(scenario()) == (True, 0)
