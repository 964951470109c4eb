"""How the open decision reaches its seat: its head (id, seat, prompt and
clock), a sending after the first with the clock as it stands, the seat's held
events inside it, and its place on the seat's stream."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import grpc
import structlog

from games.contract import State
from server import encoding
from server.clock_limits import ClockConfig
from server.seat_messages import release_held, send, send_error
from server.seats import MatchLimits, PendingDecision, Seat


class DecisionMessages:
    """The encoded decisions of one match, whose state and seats these are."""

    def __init__(self, clock: ClockConfig, seats: Sequence[Seat], state: State) -> None:
        self._clock = clock
        self._seats = seats
        self._state = state  # the match's own, changed in place move by move

    def head(self, decision_id: int, seat: Seat, decision_seconds: float, bank: float) -> bytes:
        return encoding.decision_head(
            decision_id,
            seat.index,
            self._state.prompt(),
            decision_seconds,
            bank,
            seat.strikes,
            self._clock.max_strikes,
        )

    def sent_again(self, pending: PendingDecision, events: Sequence[bytes] = ()) -> bytes:
        """The open decision for a second sending (a rejoin, a refused answer),
        its clock showing what is left now: a bot budgets from it, and the
        first sending's full time would have had it overrun. `events`: those
        held for a rejoining seat, sent on no stream yet."""
        if not pending.opened_at:  # its clock has not started
            return pending.message(events)
        seat = self._seats[pending.seat]
        elapsed = time.monotonic() - pending.opened_at
        left, bank = seat.time_left(elapsed, self._clock.decision_seconds)
        now = self.head(pending.decision_id, seat, left, bank)
        return encoding.decision_with_events(now + pending.body[pending.head_bytes :], events)


def queue_decision(
    seat: Seat,
    pending: PendingDecision,
    message: bytes,
    log: structlog.typing.FilteringBoundLogger,
    sent: Callable[[], None] | None = None,
) -> None:
    """`message`, a sending of the open decision, queued on the seat's stream,
    and where it waits noted (`PendingDecision.queued`). `sent` runs as the
    stream's writer takes it, if it waits behind nothing but the server's own
    turn: queued while the writer waited with nothing else queued. Behind
    messages the client has not read yet it does not run, or a bot could
    leave them unread to put its clock off."""
    stream = seat.stream
    if stream is not None:
        pending.queued = (stream, stream.position())
        if sent is not None and stream.idle():
            stream.when_taken(pending.queued[1], sent)
    send(seat, message, log)


def send_again_if_read(
    seat: Seat,
    pending: PendingDecision,
    sent_again: Callable[[PendingDecision], bytes],
    log: structlog.typing.FilteringBoundLogger,
) -> None:
    """The open decision again, after a refused answer, unless the copy sent
    last to the seat's stream still waits there unread: the client has it
    coming. A client that reads nothing and sends 99 refused answers (one
    short of the flood limit) on each of its seats' streams once had 99
    copies queued for each, held until the write stall timeout: 1,000
    matches took a server from 100 to 306 MB."""
    stream = seat.stream
    queued = pending.queued
    if stream is None or (queued is not None and queued[0] is stream and stream.waiting(queued[1])):
        return
    queue_decision(seat, pending, sent_again(pending), log)


def with_held(
    seat: Seat,
    message: Callable[[Sequence[bytes]], bytes],
    limits: MatchLimits,
    log: structlog.typing.FilteringBoundLogger,
) -> bytes:
    """`message(held)`: the decision with the seat's held events, taken from
    it; should they make it too large to send, they go before it as
    messages of their own (`message` always fits alone)."""
    held, seat.held = seat.held, []
    with_held = message(held)
    if not held or len(with_held) <= limits.decision_bytes:
        return with_held
    seat.held = held
    release_held(seat, log)
    return message(())


def tell_too_large(
    seat: Seat,
    pending: PendingDecision,
    played: str,
    limits: MatchLimits,
    log: structlog.typing.FilteringBoundLogger,
) -> None:
    """A decision larger than the server sends (`limits.decision_bytes`), whose
    move the server played (`played`, the action's label): logged, and its seat
    told so (PlayError RESOURCE_EXHAUSTED) on the stream, which goes on. Sent,
    gRPC ended the seat's stream RESOURCE_EXHAUSTED "Sent message larger than
    max" and logged a warning; the SDK gave up, and the seat's moves were then
    forced, strike after strike, until it was disqualified. No game's decision
    reaches the least bound `serve` takes (Stubborn Sheep's stay under about
    400 KB, games/stubborn_sheep/scoring.py): a server built in code with less
    gets here."""
    log.warning(
        "decision too large to send, its move forced",
        seat=seat.index,
        decision_id=pending.decision_id,
        actions=len(pending.actions),
        bytes=len(pending.body),
        max_message_bytes=limits.decision_bytes,
    )
    send_error(
        seat,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        too_large(pending, played, limits.decision_bytes),
        pending.decision_id,
        log,
    )


def too_large(pending: PendingDecision, played: str, decision_bytes: int) -> str:
    """What a seat is told of a decision too large to send, whose move the
    server played for it (`played`, the action's label)."""
    return (
        f"decision {pending.decision_id} lists {len(pending.actions):,} actions, "
        f"{len(pending.body):,} bytes, more than this server sends in one message "
        f"({decision_bytes:,}, serve --max-message-bytes): the server "
        f"played {played!r} for you, with no strike (to play such decisions, ask "
        "its operator for a larger --max-message-bytes, and let your client "
        "receive messages as large)"
    )
