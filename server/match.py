"""One live match: the authoritative state, its seats, its clock and its loop.

The match loop asks the seat to move for a decision, waits for the answer
within the clock, applies it to the engine, records it in the store before the
next decision is sent, and streams to every seat the events it may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

import grpc
import structlog
from sheepfold.v1 import arena_pb2

from games.contract import Game, State
from server import convert, encoding
from server.answer_clock import answer_in_time, clock_from_sending, every_seat_in_time
from server.decision_messages import (
    DecisionMessages,
    queue_decision,
    tell_too_large,
    with_held,
)
from server.match_seats import MatchSeats
from server.metrics import NO_METRICS, GameMetrics
from server.records import MatchRecord, RecordedMove, Status
from server.rulings import (
    NOBODY_JOINED,
    TOO_LARGE,
    forced_action_index,
    ranks_with_disqualified_last,
)
from server.seat_messages import broadcast, release_held, send
from server.seats import (
    TIMED_OUT,
    Deadlines,
    MatchLimits,
    PendingDecision,
    Seat,
    decision_ids_start,
)
from server.spectators import Spectators, Watcher, public_messages, snapshot
from server.storage import StoreWorker, match_writer
from server.store import Store
from server.summaries import info_head, replay_message

# Room left below the largest message for what a decision sent again may take
# beyond its first sending (its clock's fields) and for the PlayResponse around it.
DECISION_ROOM = 64

# Why a match whose loop failed (a bug, a database refusing a move) was aborted:
# what its seats, watchers and GetMatch say. The error itself is only logged.
SERVER_FAILED = "the server failed while running the match (its log has the details)"
# What a seat or a watcher is told (INTERNAL) when even that abort could not be
# written: the match stays unfinished in the store.
MATCH_FAILED = "the match failed on the server (its log has the details); a restart retries it"
# What a seat or a watcher not yet told a match's written end is told (INTERNAL)
# when telling it failed: GetMatch has the end.
TELLING_FAILED = "the match is over, but telling its end failed on the server; GetMatch has it"


class Match(MatchSeats):
    """A match hosted by this server."""

    def __init__(
        self,
        record: MatchRecord,
        game: Game,
        store: Store | StoreWorker,
        *,
        start_timeout: float = 30.0,
        limits: MatchLimits | None = None,
        metrics: GameMetrics | None = None,
    ) -> None:
        self.record = record
        self.metrics = metrics or NO_METRICS.for_game(record.game)
        self.limits = limits or MatchLimits()
        self.game = game
        self.codec = game.codec
        self.store = match_writer(store)
        self.state: State = game.new_state(record.players, record.seed, record.options)
        self.seats = [
            Seat(index=i, bank=record.clock.time_bank_seconds)
            for i in range(len(record.token_hashes))
        ]
        # Called with the match after each change of its status (by the
        # registry, which keeps its hosted matches in lists by status).
        self.status_changed: Callable[[Match], None] | None = None
        self._status = Status.WAITING
        self.moves: list[RecordedMove] = []
        self.result: arena_pb2.MatchResult | None = None
        self.end_reason = ""
        self.start_timeout = start_timeout
        # A seat joined, in this server run or (as the store says) before a restart.
        self.ever_joined = False
        # A seat's client answered a decision (a move not forced by the clock).
        self.answered = False
        # Why the match loop failed and its abort could not be written either (a
        # database that refuses every write): nothing moves it on any more, so
        # joins and watches are refused, not left waiting for ever.
        self.failed: str | None = None
        # The network of the client that created it (CreateMatch on a server
        # without an admin token), recorded once, as it is hosted: both bounds
        # on a creator's matches read it when its loop ends (server/live_share.py,
        # server/unplayed.py). None for an admin's match and a restored one
        # (creators are not stored).
        self.creator: str | None = None
        self.log = structlog.get_logger("sheepfold.match").bind(
            match_id=record.match_id, game=record.game
        )
        self._pending: PendingDecision | None = None
        self._deadlines = Deadlines()
        self._decision_counter = decision_ids_start(record.match_id)
        self._all_joined = asyncio.Event()
        self._finished = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.spectators = Spectators(self._public_now, self.limits.watch_queue, self.log)
        self._messages = DecisionMessages(self.record.clock, self.seats, self.state)

    # ------------------------------------------------------------ restoring

    def replay(self, moves: Sequence[RecordedMove]) -> None:
        """Re-apply recorded moves (after a restart); strikes and banks come back too.

        The restored match then waits (up to the start timeout) for its seats to
        rejoin before any clock runs again, so bots that reconnect lose nothing;
        one that no seat ever joined and with no move is aborted then, as a new one.
        """
        for move in moves:
            self.state.apply(move.action(self.state))
            self.moves.append(move)
            self.answered = self.answered or not move.forced
            seat = self.seats[move.seat]
            seat.joined_before_restart = seat.joined_before_restart or not move.forced
            if move.forced == "timeout":
                seat.strike(self.record.clock.max_strikes)
            if move.bank is not None:
                seat.bank = move.bank
        # Decision ids keep counting up: an answer to a pre-crash decision is stale.
        self._decision_counter = decision_ids_start(self.record.match_id) + len(moves)
        if moves:
            self.status = Status.RUNNING

    def restore_end(
        self, status: Status, result: arena_pb2.MatchResult | None, reason: str
    ) -> None:
        """Mark a match rebuilt from the store over, as the store says it ended
        (server/match_restore.py): strikes, disqualifications and banks as its
        result left them."""
        self.status, self.result, self.end_reason = status, result, reason
        for info in result.seats if result is not None else ():
            seat = self.seats[info.seat]
            seat.strikes, seat.disqualified = info.strikes, info.disqualified
            seat.bank = info.time_bank_seconds
        self._finished.set()

    # ------------------------------------------------------------ lifecycle

    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.create_task(self._hosting(), name=f"match-{self.record.match_id}")
        self._task.add_done_callback(self._loop_ended)
        return self._task

    async def _hosting(self) -> None:
        """The match loop, and the end of a match whose loop fails (a bug, a
        database that refuses a move): aborted for good, its seats and watchers
        told. Such a match once stayed hosted as waiting or running until a
        restart, its seats' streams cut and every later join refused."""
        try:
            await self._run()
        except Exception:
            if not self.over:
                self.log.exception("match loop failed; the match is aborted")
                await self._fail()
                return
            # Its end is written (`_end` keeps it only then): what failed was
            # telling it. It stays as written, as its seats may have been told
            # it; it was once written over as aborted.
            self.log.exception("telling a match's end failed; it stays as written")
            self._close_streams(grpc.StatusCode.INTERNAL, TELLING_FAILED)
            self._finished.set()
        finally:
            self._deadlines.stop()

    def _loop_ended(self, task: asyncio.Task[None]) -> None:
        if task.cancelled() or task.exception() is None:
            return
        # The abort of a failed match could not be written: nobody is left
        # waiting, now or later (joins and watches are refused from here on);
        # a restart retries the match.
        self.failed = MATCH_FAILED
        self.log.error(
            "the failed match's abort could not be written; it stays unfinished in the store",
            error=repr(task.exception()),
        )
        self._close_streams(grpc.StatusCode.INTERNAL, MATCH_FAILED)

    def _close_streams(self, code: grpc.StatusCode, reason: str) -> None:
        for seat in self.seats:
            if seat.stream is not None:
                seat.stream.close(code, reason)
                seat.stream = None
        self.spectators.close_all(code, reason)

    async def wait_finished(self) -> None:
        await self._finished.wait()

    @property
    def status(self) -> Status:
        return self._status

    @status.setter
    def status(self, status: Status) -> None:
        changed = status is not self._status
        self._status = status
        if changed and self.status_changed is not None:
            self.status_changed(self)

    @property
    def over(self) -> bool:
        return self.status in (Status.FINISHED, Status.ABORTED)

    async def stop(self, reason: str) -> None:
        """Stop hosting (server shutdown): the match stays unfinished in the store."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._close_streams(grpc.StatusCode.UNAVAILABLE, reason)
        if not self.over:
            self.log.info("match suspended", reason=reason, moves=len(self.moves))

    async def _run(self) -> None:
        resumed = bool(self.moves)
        if self.state.terminal:  # restored with its last move, not its end: no one to wait for
            await self._finish("game over")
            return
        if self._every_seat_here():
            self._all_joined.set()
        if not await every_seat_in_time(self._all_joined, self.start_timeout):
            # A move counts as a join: its match was played, even if the write of
            # its first join was lost (the server died before it was made).
            if not self.ever_joined and not self.moves:
                await self._abandon(NOBODY_JOINED)
                return
            missing = [s.index for s in self.seats if not (s.joined or s.disqualified)]
            if missing:  # every seat may have joined as the timeout fired
                what = "resuming" if resumed else "starting"
                self.log.warning(f"match {what} without every seat", missing_seats=missing)
        self.status = Status.RUNNING
        self.log.info("match resumed" if resumed else "match running", moves=len(self.moves))
        while not self.state.terminal:
            await self._play_one_decision()
        await self._finish("game over")

    # ------------------------------------------------------------ decisions

    async def _play_one_decision(self) -> None:
        state = self.state
        seat_index = state.to_move
        assert seat_index is not None
        seat = self.seats[seat_index]
        actions = state.legal_actions()
        if seat.disqualified:
            self.metrics.forced_move("disqualified")
            await self._apply(seat_index, actions, self._forced_index(len(actions)), "disqualified")
            # A write that needs no wait does not suspend: once every seat is out,
            # the rest of the match would be played in one go, holding every other
            # match up (a Sheep Showdown's tail: about 17 ms).
            await asyncio.sleep(0)
            return
        self._decision_counter += 1
        head = self._messages.head(
            self._decision_counter, seat, self.record.clock.decision_seconds, seat.bank
        )
        pending = PendingDecision(
            decision_id=self._decision_counter,
            seat=seat_index,
            actions=actions,
            body=encoding.decision_body(self.codec, head, state.observation(seat_index), actions),
            head_bytes=len(head),
        )
        if len(pending.body) > self.limits.decision_bytes - DECISION_ROOM:
            await self._too_large(seat, pending)
            return
        self._pending = pending
        if seat.stream is not None:
            pending.sent_at = time.monotonic()
            message = with_held(seat, pending.message, self.limits, self.log)
            sent = clock_from_sending(seat, pending, self.record.clock, self._deadlines)
            queue_decision(seat, pending, message, self.log, sent)
        index = await answer_in_time(
            seat, pending, self.record.clock, self._deadlines, self.metrics, self.log
        )
        self._pending = None
        if index == TIMED_OUT:
            await self._apply(seat_index, actions, self._forced_index(len(actions)), "timeout")
        else:
            await self._apply(seat_index, actions, index, "")

    async def _too_large(self, seat: Seat, pending: PendingDecision) -> None:
        """A decision larger than the server sends (`decision_bytes`): its move
        is forced at once, with no strike, and its seat told so (`tell_too_large`)."""
        index = self._forced_index(len(pending.actions))
        self.metrics.forced_move(TOO_LARGE)
        tell_too_large(seat, pending, pending.actions[index].label, self.limits, self.log)
        await self._apply(seat.index, pending.actions, index, TOO_LARGE)

    def _forced_index(self, count: int) -> int:
        """The action the server plays for a seat that cannot: a pure function of the
        seed and the move number, so a restored match forces exactly what the
        uncrashed one would have, with no generator state to bring back."""
        return forced_action_index(self.record.seed, len(self.moves) + 1, count)

    async def _apply(self, seat: int, actions: Sequence[Any], index: int, forced: str) -> None:
        action = actions[index]
        move = RecordedMove(
            len(self.moves) + 1, seat, index, action.label, forced, self.seats[seat].bank
        )
        # Written before it is applied or any seat hears of it: a crash loses nothing
        # applied. A locked database makes this wait (off the event loop) with the
        # state unchanged; no clock runs meanwhile, as no decision is open.
        await self.store.record_move(self.record.match_id, move, game=self.record.game)
        events = self.state.apply(action)
        self.moves.append(move)
        self.answered = self.answered or not forced
        broadcast(self.seats, self.codec, move.move, events, self.limits.held_events, self.log)
        self.spectators.played(lambda: public_messages(self.codec, move.move, events, self.state))

    # ------------------------------------------------------------ spectators

    def _public_now(self) -> tuple[list[arena_pb2.WatchResponse], bool]:
        """The public state as it is (and the result, when over): where the
        spectators' shared log begins."""
        messages = [snapshot(self.codec, len(self.moves), self.state)]
        if self.over and self.result is not None:
            messages.append(arena_pb2.WatchResponse(result=self.result))
        return messages, self.over

    def watch(self, from_start: bool) -> Watcher:
        """A new spectator: the whole public match first, or the latest snapshot."""
        return self.spectators.watch(from_start)

    @property
    def watcher_count(self) -> int:
        return len(self.spectators.watchers)

    def unwatch(self, watcher: Watcher) -> None:
        self.spectators.unwatch(watcher)

    # ------------------------------------------------------------ the end

    async def _finish(self, reason: str) -> None:
        result = self.state.result()
        ranks = ranks_with_disqualified_last(result.ranks, [s.disqualified for s in self.seats])
        engine_result = type(result)(result.scores, ranks, result.details)
        outcome = "disqualification" if any(s.disqualified for s in self.seats) else "completed"
        final_result = convert.match_result(
            engine_result, [seat.info() for seat in self.seats], reason
        )
        await self._end(Status.FINISHED, final_result, outcome)
        self.log.info(
            "match finished",
            reason=reason,
            moves=len(self.moves),
            scores=list(final_result.scores),
            ranks=list(final_result.ranks),
            strikes=[s.strikes for s in self.seats],
            disqualified=[s.index for s in self.seats if s.disqualified],
            forced_moves=sum(1 for m in self.moves if m.forced),
        )
        self._tell_the_end()

    async def _abandon(self, reason: str) -> None:
        """End a match nobody plays, without a result: played out by its clocks it
        would only be the server's own random moves, costing every live match
        its share of the loop for minutes (a flood of matches nobody joins)."""
        result = self._aborted(reason)
        await self._end(Status.ABORTED, result, "aborted")
        self._tell_the_end()
        self.log.warning("match abandoned", reason=reason)

    async def _fail(self) -> None:
        """End a match whose loop failed, aborted as one nobody joined is. Its
        abort is written before the match is marked over: a database refusing
        that too leaves it hosted, unfinished as in the file (`_loop_ended`),
        for a restart to retry, instead of dropped from memory as over while
        the file says it is running (not found until the restart)."""
        self._pending = None
        result = self._aborted(SERVER_FAILED)
        await self._write_end(Status.ABORTED, result)
        self._keep_end(Status.ABORTED, result)
        self.metrics.match_ended("aborted")
        self._tell_the_end()

    def _aborted(self, reason: str) -> arena_pb2.MatchResult:
        return arena_pb2.MatchResult(end_reason=reason, seats=[s.info() for s in self.seats])

    async def _end(self, status: Status, result: arena_pb2.MatchResult, outcome: str) -> None:
        """How the match ended, kept here (an answer or a join while it is
        written is told the match is over), written to the store, and counted.
        A write the database refuses takes the end back, as the file does not
        have it: the failed loop's abort comes next (`_fail`), and should that
        be refused too the match must stay hosted as unfinished; once it was
        dropped as over, and read as no match at all until a restart."""
        before = self.status
        self._keep_end(status, result)
        try:
            await self._write_end(status, result)
        except Exception:
            self.result, self.status, self.end_reason = None, before, ""
            raise
        self.metrics.match_ended(outcome)

    def _keep_end(self, status: Status, result: arena_pb2.MatchResult) -> None:
        self.result, self.status, self.end_reason = result, status, result.end_reason

    async def _write_end(self, status: Status, result: arena_pb2.MatchResult) -> None:
        stored = "finished" if status is Status.FINISHED else "aborted"
        await self.store.finish_match(
            self.record.match_id,
            stored,
            result.SerializeToString(),
            result.end_reason,
            game=self.record.game,
        )

    def _tell_the_end(self) -> None:
        """The result to every seat's stream and every watcher, each stream then
        ended (OK), and whoever waits for the end woken."""
        final = arena_pb2.PlayResponse(result=self.result)
        for seat in self.seats:
            if seat.stream is not None:
                release_held(seat, self.log)
                send(seat, final, self.log)
                if seat.stream is not None:  # not dropped for falling behind just now
                    seat.stream.close(None, "match over")
                    seat.stream = None
        self.spectators.finished(self.result)
        self._finished.set()

    # ------------------------------------------------------------ views

    def info(self) -> arena_pb2.MatchInfo:
        info = info_head(self.record, self.status.value, len(self.moves))
        pending = self._pending
        waited = time.monotonic() - pending.opened_at if pending and pending.opened_at else 0.0
        info.seats.extend(
            seat.info(waited if pending and pending.seat == seat.index else 0.0)
            for seat in self.seats
        )
        to_move = self.state.to_move
        if to_move is not None and not self.over:
            info.to_move = to_move
        if self.result is not None:
            info.result.CopyFrom(self.result)
        if self.over:
            # The seed fixes every deck order: it is only revealed once nothing is hidden.
            info.seed = self.record.seed
        return info

    def replay_message(self) -> arena_pb2.Replay:
        """The full record: game, options, seed and every action, forced or not."""
        return replay_message(self.record, self.moves, self.result)
