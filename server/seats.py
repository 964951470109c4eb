"""A match's seats and their open decision: the plain data the match loop
works on, and the bounds that keep one client from costing more than its share."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from sheepfold.v1 import arena_pb2

from server import encoding

# The bounds live apart so the command line reads them without gRPC.
from server.client_limits import MatchLimits as MatchLimits
from server.records import hash_token
from server.streams import Outbound

# Seat tokens are 32 characters (records.new_seat_token); a longer one is nobody's.
MAX_TOKEN_CHARS = 256

# Decisions and events go out pre-encoded (server.encoding), the rest as messages.
SeatStream = Outbound[arena_pb2.PlayResponse | bytes]


@dataclass(slots=True)
class Seat:
    index: int
    bank: float
    stream: SeatStream | None = None
    joined: bool = False
    # It joined before a restart, as the store says (or, for a match stored
    # before the store kept each seat's join, a move of its was not forced):
    # its first join after the restart is a reconnect.
    joined_before_restart: bool = False
    strikes: int = 0
    disqualified: bool = False
    # The stream asked for its events inside its next decision (Join.events_in_decisions):
    # they wait here, encoded as `EventMessage`s, until then. Kept while the seat has
    # no stream (its last one asked for them), for the stream of its next join.
    events_in_decisions: bool = False
    held: list[bytes] = field(default_factory=list)
    # Messages refused and streams closed for flooding, this match, over every stream.
    rejected: int = 0
    floods: int = 0
    # Joins this server run: past a few, only one in a thousand is logged.
    joins: int = 0
    # Seconds its closed decisions waited for it (time.monotonic), this server run.
    thinking: float = 0.0

    def strike(self, max_strikes: int) -> None:
        """A missed deadline: the bank is spent, a strike counts, and the seat is
        out once it has `max_strikes`."""
        self.bank = 0.0
        self.strikes += 1
        self.disqualified = self.strikes >= max_strikes

    def spend_overrun(self, elapsed: float, allowed: float) -> float:
        """Take what an answer took past its decision's `allowed` seconds from the
        bank; the overrun (0 or less when there was none)."""
        overrun = elapsed - allowed
        if overrun > 0:
            self.bank = max(0.0, self.bank - overrun)
        return overrun

    def time_left(self, elapsed: float, allowed: float) -> tuple[float, float]:
        """The decision's and the bank's seconds left `elapsed` seconds into a
        decision of `allowed` seconds, as a re-sent decision shows them."""
        return max(0.0, allowed - elapsed), max(0.0, self.bank - max(0.0, elapsed - allowed))

    def info(self, open_seconds: float = 0.0) -> arena_pb2.SeatInfo:
        """The seat as GetMatch shows it; `open_seconds`: how long its open decision
        has waited so far."""
        return arena_pb2.SeatInfo(
            seat=self.index,
            connected=self.stream is not None,
            strikes=self.strikes,
            disqualified=self.disqualified,
            time_bank_seconds=self.bank,
            thinking_seconds=self.thinking + open_seconds,
            # `joined` is this server run's, for the restored match's wait for its
            # seats. After a restart a seat that had played was reported, and
            # written into the result, as never joined; then one that had joined
            # and answered nothing.
            joined=self.joined or self.joined_before_restart,
        )


@dataclass(slots=True)
class PendingDecision:
    decision_id: int
    seat: int
    actions: Sequence[Any]
    body: bytes  # the encoded Decision, without events
    head_bytes: int  # how much of `body` is its head (id, seat, prompt, clock)
    # time.monotonic(): when the request was last written to the seat's stream, and
    # when the accepted answer was read (for the round-trip metric).
    sent_at: float | None = None
    answered_at: float = 0.0
    opened_at: float = 0.0  # time.monotonic() when the match began to wait for it
    answer: asyncio.Future[int] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    restarted: bool = False  # its clock started again once already (see `Deadlines`)
    # The stream its latest copy was queued on, and the copy's place there
    # (`Outbound.position`): a refused answer sends it again only once that
    # copy has left the queue.
    queued: tuple[SeatStream, int] | None = None

    def message(self, events: Sequence[bytes] = ()) -> bytes:
        """The encoded PlayResponse; held events go with the first sending only."""
        return encoding.decision_with_events(self.body, events)


# The answer future's result when the decision's time ran out.
TIMED_OUT = -1


def expire(answer: asyncio.Future[int]) -> None:
    if not answer.done():
        answer.set_result(TIMED_OUT)


# A decision's timer that runs this much later than it was due ran on a server
# that was not running meanwhile (a frozen machine, a stopped process, a paused
# virtual machine): a loop merely busy runs its timers within milliseconds.
FROZEN_SECONDS = 1.0


class Deadlines:
    """One match's timer for the deadline of its open decision, kept from one
    decision to the next. A timer of each decision's own (`call_later`, then
    `cancel` once answered) cost about 2 us a decision under uvloop, and
    answers mostly come long before their deadline. This one is set anew only
    when it would run after the open decision's deadline; otherwise it runs
    when it was set to, and then moves on to the deadline of the decision open
    by then, if any. An open decision's deadline is met exactly as by a timer
    of its own. `stop` once the match is over: a timer left set held the match's
    last decision until it ran (up to its clock's time and bank)."""

    def __init__(self) -> None:
        self._handle: asyncio.TimerHandle | None = None
        self._set_for = 0.0  # time.monotonic() the handle runs at
        self._pending: PendingDecision | None = None
        self._seconds = 0.0
        self._due = 0.0

    def arm(self, pending: PendingDecision, seconds: float) -> None:
        """Time `pending`'s answer out `seconds` after `pending.opened_at`.
        Should the timer run FROZEN_SECONDS late, the server was not running:
        the time is not the seat's, so its clock starts again (`opened_at`
        reset, the whole time given again) instead of a random move and a
        strike, the seat's answer perhaps already waiting unread. Once a
        decision at most: a loop late at every timer (a server overloaded
        beyond use) must still time a silent seat out."""
        self._pending, self._seconds = pending, seconds
        self._due = due = pending.opened_at + seconds
        if self._handle is None or self._set_for > due:
            self._set(due, seconds)

    def disarm(self) -> None:
        """The open decision is closed (answered, or timed out): nothing to
        time out until the next `arm`. The timer stays set."""
        self._pending = None

    def stop(self) -> None:
        """The timer cancelled and nothing held: the match is over."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._pending = None

    def _set(self, due: float, delay: float) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._set_for = due
        self._handle = asyncio.get_running_loop().call_later(delay, self._time_up)

    def _time_up(self) -> None:
        self._handle = None
        pending = self._pending
        if pending is None or pending.answer.done():
            return
        now, due = time.monotonic(), self._due
        if self._set_for < due and now < due:  # set for an earlier decision's deadline
            self._set(due, due - now)
            return
        if now - due > FROZEN_SECONDS and not pending.restarted:
            pending.restarted = True
            pending.opened_at = now
            self.arm(pending, self._seconds)
            return
        expire(pending.answer)


class JoinError(Exception):
    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def token_owner(token_hashes: Sequence[str], seat: int | None, token: str) -> int:
    """The seat `token` belongs to, checked against the seats' token hashes;
    raises JoinError if it is nobody's, or not the `seat` the client named.

    The token is hashed once, not once per seat, and one far longer than any
    token the server hands out is not hashed at all: a client sending
    megabyte tokens held the event loop for tens of milliseconds a join."""
    if not token:
        # Said apart from a wrong token: a client that sent its token as call
        # metadata (a header) was told "invalid seat token" and doubted the token.
        raise JoinError(
            grpc.StatusCode.UNAUTHENTICATED,
            "the join has no token: put the seat's token in Join.token "
            "(the server reads no call metadata)",
        )
    owner = None
    if len(token) <= MAX_TOKEN_CHARS:
        presented = hash_token(token)
        owner = next(
            (i for i, h in enumerate(token_hashes) if hmac.compare_digest(presented, h)), None
        )
    if owner is None:
        raise JoinError(grpc.StatusCode.UNAUTHENTICATED, "invalid seat token")
    if seat is not None and seat != owner:
        raise JoinError(
            grpc.StatusCode.PERMISSION_DENIED, f"this token does not belong to seat {seat}"
        )
    return owner


def decision_ids_start(match_id: str) -> int:
    """The number a match's decision ids count up from (its first decision is
    one more): a number of the match's own, taken from its id, so that a restart
    counts on from the same place. Every match counting from 0 made the ids of
    any two matches the same, and an answer carrying another match's decision
    id was taken as the answer to this one's. Below 2**40, so the ids stay
    exact where a client reads them as doubles."""
    return int.from_bytes(hashlib.sha256(match_id.encode()).digest()[:5], "big")


def why_over(aborted: bool, end_reason: str) -> str:
    """What a seat joining a match that is over is told (FAILED_PRECONDITION)."""
    if aborted and end_reason:
        return f"the match was aborted: {end_reason}"
    return "the match is over"


def refusal(
    pending: PendingDecision | None,
    over: bool,
    seat_index: int,
    decision_id: int,
    action_index: int,
) -> tuple[grpc.StatusCode, str] | None:
    """Why a seat's answer cannot be taken (the status and message it gets), or
    None if it can; `pending` is the match's open decision."""
    if over:
        return grpc.StatusCode.FAILED_PRECONDITION, "the match is over"
    if pending is None:  # not started yet, between two decisions, or a seat played by the server
        return (
            grpc.StatusCode.FAILED_PRECONDITION,
            f"decision {decision_id} is not open: no decision is open now",
        )
    if pending.seat != seat_index:
        return (
            grpc.StatusCode.FAILED_PRECONDITION,
            f"decision {decision_id} is not open: it is not seat {seat_index}'s turn",
        )
    if decision_id != pending.decision_id:
        return (
            grpc.StatusCode.FAILED_PRECONDITION,
            f"stale decision id {decision_id}; the open decision is {pending.decision_id}",
        )
    if pending.answer.done():
        timed_out = not pending.answer.cancelled() and pending.answer.result() == TIMED_OUT
        return (
            grpc.StatusCode.FAILED_PRECONDITION,
            f"decision {decision_id} timed out"
            if timed_out
            else f"decision {decision_id} was already answered",
        )
    if not 0 <= action_index < len(pending.actions):
        return (
            grpc.StatusCode.INVALID_ARGUMENT,
            f"action index {action_index} is out of range 0..{len(pending.actions) - 1}",
        )
    return None
