"""The seats' side of a live match: a Play stream joined to its seat (its
token checked, an older stream replaced, the seat's first join written, the
open decision sent again), its leaving, and the answers and other messages
that come on it. `Match` (server/match.py) runs the game these seats play:
its loop opens each decision (`_pending`) and reads what `join` and `answer`
leave for it.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import grpc
import structlog
from sheepfold.v1 import arena_pb2

from server.decision_messages import (
    DecisionMessages,
    queue_decision,
    send_again_if_read,
    with_held,
)
from server.floods import count_refusal
from server.logs import worth_logging
from server.metrics import GameMetrics
from server.records import MatchRecord, Status
from server.seat_messages import release_held, send_error
from server.seats import (
    JoinError,
    MatchLimits,
    PendingDecision,
    Seat,
    SeatStream,
    refusal,
    token_owner,
    why_over,
)
from server.storage import MatchWriter


class MatchSeats:
    """What a seat's Play stream asks of its match; mixed into `Match`, whose
    state (declared here) it reads and changes."""

    record: MatchRecord
    seats: list[Seat]
    limits: MatchLimits
    metrics: GameMetrics
    store: MatchWriter
    log: structlog.typing.FilteringBoundLogger
    status: Status
    end_reason: str
    ever_joined: bool
    failed: str | None
    _pending: PendingDecision | None
    _messages: DecisionMessages
    _all_joined: asyncio.Event

    if TYPE_CHECKING:

        @property
        def over(self) -> bool: ...

    def authenticate(self, seat: int | None, token: str) -> int:
        """The seat this token belongs to; raises JoinError otherwise."""
        return token_owner(self.record.token_hashes, seat, token)

    def join(self, seat_index: int, stream: SeatStream, events_in_decisions: bool = False) -> None:
        """Attach a Play stream to a seat, replacing any older one. With
        `events_in_decisions` the seat's events wait for its next decision and
        go inside it (or go before the result) instead of one message each.
        Events held for the seat and sent on no stream go on this one: inside
        its first decision, or (without `events_in_decisions`) right away."""
        if self.over:
            why = why_over(self.status is Status.ABORTED, self.end_reason)
            raise JoinError(grpc.StatusCode.FAILED_PRECONDITION, why)
        if self.failed is not None:
            raise JoinError(grpc.StatusCode.INTERNAL, self.failed)
        seat = self.seats[seat_index]
        joined_before = seat.joined or seat.joined_before_restart
        if joined_before:
            self.metrics.reconnected()
        seat.joins += 1
        stream.join_number = seat.joins
        logged = worth_logging(seat.joins)
        if seat.stream is not None:
            seat.stream.close(
                grpc.StatusCode.ABORTED, f"replaced by a newer join for seat {seat_index}"
            )
            if logged:
                self.log.info("seat stream replaced", seat=seat_index, joins=seat.joins)
        seat.stream = stream
        seat.joined = True
        if not joined_before:
            # Once a seat, never per join or decision: after a restart it tells a
            # match somebody played from one nobody joined (to abort), and the
            # seats that joined (SeatInfo.joined) from those that never did.
            self.ever_joined = True
            self.store.record_joined(self.record.match_id, seat_index, game=self.record.game)
        # Events held for the stream before (or while the seat had none) were
        # sent on no stream: they go on this one, before any decision.
        seat.events_in_decisions = events_in_decisions
        if logged:
            self.log.info("seat joined", seat=seat_index, joins=seat.joins)
        stream.send(
            arena_pb2.PlayResponse(
                joined=arena_pb2.Joined(
                    match_id=self.record.match_id,
                    seat=seat_index,
                    game=self.record.game,
                    players=self.record.players,
                    options=self.record.options,
                )
            )
        )
        if not events_in_decisions:
            release_held(seat, self.log)
        pending = self._pending
        # Not one answered (or timed out) that the loop has yet to move on from.
        if pending is not None and pending.seat == seat_index and not pending.answer.done():
            pending.sent_at = time.monotonic()
            again = with_held(
                seat, lambda held: self._messages.sent_again(pending, held), self.limits, self.log
            )
            queue_decision(seat, pending, again, self.log)
        if self._every_seat_here():
            self._all_joined.set()

    def _every_seat_here(self) -> bool:
        # A disqualified seat's moves are all forced: nobody waits for it.
        return all(s.joined or s.disqualified for s in self.seats)

    def leave(self, seat_index: int, stream: SeatStream) -> None:
        seat = self.seats[seat_index]
        if seat.stream is stream:
            seat.stream = None
            if worth_logging(stream.join_number):
                self.log.info("seat disconnected", seat=seat_index, joins=stream.join_number)

    def answer(
        self,
        seat_index: int,
        decision_id: int,
        action_index: int,
        stream: SeatStream | None = None,
    ) -> None:
        """Take a seat's answer; a bad one gets a PlayError and the match goes on.

        `stream` is the Play stream the answer came on: an answer from a stream a
        newer join has replaced is ignored.
        """
        seat = self.seats[seat_index]
        if stream is not None and seat.stream is not stream:
            return
        pending = self._pending
        refused = refusal(pending, self.over, seat_index, decision_id, action_index)
        if refused is None:
            assert pending is not None
            pending.answered_at = time.monotonic()
            pending.answer.set_result(action_index)
            return
        code, message = refused
        send_error(seat, code, message, decision_id, self.log)
        if code == grpc.StatusCode.INVALID_ARGUMENT and pending is not None:
            # The decision again, to answer right.
            send_again_if_read(seat, pending, self._messages.sent_again, self.log)
        count_refusal(seat, self.limits, self.metrics, self.log, code, message)

    def reject(self, seat_index: int, reason: str, stream: SeatStream | None = None) -> None:
        """A message that is not an answer: an INVALID_ARGUMENT error, nothing else."""
        seat = self.seats[seat_index]
        if stream is not None and seat.stream is not stream:
            return
        send_error(seat, grpc.StatusCode.INVALID_ARGUMENT, reason, 0, self.log)
        count_refusal(
            seat, self.limits, self.metrics, self.log, grpc.StatusCode.INVALID_ARGUMENT, reason
        )
