"""Spectators of one match: a public log shared by every watcher, and a cursor
per watcher.

Everything a spectator may see (public events and snapshots, then the result)
is appended to one log per match, while it has watchers, from the snapshot of
the move its first watcher came at. A watcher is only a position in that log,
so a hundred watchers cost one copy of it, and one that stops reading holds
nothing but its position (and what gRPC's flow control lets the transport
buffer). A watcher that asks for the whole match gets the moves before the log
begins replayed for it a few at a time, paced like a finished match's replay:
rebuilt at once, a long match's history would hold up every live match on the
server for tens of milliseconds, for anyone who opens a Watch. The replays
take their steps in turns that go round the clients (a `FairQueue` of one slot), so one
client's many replays wait behind each other, not ahead of another's. A
watcher that falls more than `lag_limit` messages behind the live match
(history it asked for not counted) is dropped with RESOURCE_EXHAUSTED; the
match never waits for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import TypeAlias

import grpc
import structlog
from sheepfold.v1 import arena_pb2

from games.contract import Codec, Event, Game, State
from server import convert
from server.fairness import FairQueue
from server.logs import worth_logging
from server.records import MatchRecord, RecordedMove, StoredMatch, stored_result
from server.status import abort
from server.streams import StreamClosed

WatchMessage: TypeAlias = arena_pb2.WatchResponse


def snapshot(codec: Codec, move: int, state: State) -> WatchMessage:
    message = arena_pb2.Snapshot(
        move=move, observation=convert.observation(codec, state.observation(None))
    )
    if state.to_move is not None:
        message.to_move = state.to_move
    return WatchMessage(snapshot=message)


def public_messages(
    codec: Codec, move: int, events: Sequence[Event], state: State
) -> list[WatchMessage]:
    """What a spectator sees of one move: its public events, then the public state."""
    messages = [
        WatchMessage(event=convert.event(codec, move, payload))
        for payload in (event.visible_to(None) for event in events)
        if payload is not None
    ]
    messages.append(snapshot(codec, move, state))
    return messages


# Moves of a finished match replayed for a spectator in one step: with their
# public messages (about a millisecond of work for the longest games), or only
# applied to reach the final state.
MOVES_PER_STEP = 4
MOVES_PER_STEP_UNSEEN = 64
# After each step, the spectators' replays wait this many times its length.
REPLAY_PAUSE = 3.0


def replay_steps(game: Game, stored: StoredMatch, from_start: bool) -> Iterator[list[WatchMessage]]:
    """A match as a spectator sees it, rebuilt from its seed a few moves at a
    time: from the start, the first snapshot, then each move's public events and
    snapshot; not from the start, the last snapshot alone. Then the result, if
    `stored` has one."""
    codec = game.codec
    record, moves = stored.record, stored.moves
    state = game.new_state(record.players, record.seed, record.options)
    step: list[WatchMessage] = [snapshot(codec, 0, state)] if from_start else []
    per_step = MOVES_PER_STEP if from_start else MOVES_PER_STEP_UNSEEN
    for count, move in enumerate(moves, 1):
        try:
            events = state.apply(move.action(state))
        except Exception:
            # A record the engine cannot replay: what came before it, then the error.
            if step:
                yield step
            raise
        if from_start:
            step.extend(public_messages(codec, move.move, events, state))
        if count % per_step == 0:
            yield step
            step = []
    if not from_start:
        step.append(snapshot(codec, len(moves), state))
    result = stored_result(record.match_id, stored.result)
    if result is not None:
        step.append(WatchMessage(result=result))
    yield step


async def replay_for_spectator(
    game: Game,
    stored: StoredMatch,
    from_start: bool,
    turns: FairQueue,
    context: grpc.aio.ServicerContext,
    closing: Callable[[], str | None] = lambda: None,
    cut_off: Callable[[], bool] = lambda: False,
) -> AsyncIterator[WatchMessage]:
    """`replay_steps` for one spectator, a step whenever `turns` (shared by every
    spectator's replay) lets it, and sent before the next. The turns go round
    the clients; this replay's client is the one the current call serves
    (`server.fairness.CLIENT`). It ends early when `cut_off()` (the watcher
    was ended some other way), or when `closing()` gives a reason (the server
    shuts down: the stream then ends UNAVAILABLE with it). Both are asked only
    with a step in hand, so a replay that has sent everything is never told it
    was cut short.

    A replay holds `turns` for its step and for three times as long after it,
    so the replays of any number of spectators take at most a quarter of the
    event loop's time from the live matches, and never more than one step's
    work at once: the whole match at once would hold up every live match's
    clock for as long as the replay takes. A spectator that does not read holds
    one step, never a turn.
    """
    steps = replay_steps(game, stored, from_start)
    while True:
        async with turns.turn():
            started = time.perf_counter()
            step = next(steps, None)
            await asyncio.sleep(REPLAY_PAUSE * (time.perf_counter() - started))
        if step is None or cut_off():
            return
        reason = closing()
        if reason is not None:
            # A match kept only for its watchers, or read from the store, is not
            # hosted: nothing else would end this stream at shutdown.
            await abort(context, grpc.StatusCode.UNAVAILABLE, reason)
        for message in step:
            yield message


async def spectate(
    watcher: Watcher,
    game: Game,
    record: MatchRecord,
    moves: Sequence[RecordedMove],
    turns: FairQueue,
    context: grpc.aio.ServicerContext,
    closing: Callable[[], str | None] = lambda: None,
) -> AsyncIterator[WatchMessage]:
    """What a live match's `watcher` is sent: the match's `moves` before the
    shared log begins, replayed as `replay_for_spectator` does (ending
    UNAVAILABLE if the server shuts down meanwhile), then the log as the match
    goes on."""
    if watcher.earlier_moves:
        earlier = StoredMatch(record, list(moves[: watcher.earlier_moves]))
        replayed = replay_for_spectator(
            game, earlier, True, turns, context, closing, cut_off=lambda: watcher.cut_off
        )
        async for message in replayed:
            yield message
        watcher.caught_up()
    async for message in watcher.relay(context):
        yield message


class PublicLog:
    """The match as a spectator sees it from the snapshot of move `first_move`
    on, in order; only ever appended to."""

    def __init__(self, start: Sequence[WatchMessage], finished: bool) -> None:
        self.messages: list[WatchMessage] = list(start)
        self.first_move = self.messages[0].snapshot.move
        self.finished = finished
        self.latest_snapshot = _last_snapshot(self.messages)

    def extend(self, messages: Sequence[WatchMessage]) -> None:
        self.messages.extend(messages)
        self.latest_snapshot = _last_snapshot(self.messages, self.latest_snapshot)

    def finish(self, result: arena_pb2.MatchResult | None) -> None:
        if self.finished:
            # Begun once the match was over (a watcher that came while its end
            # was being written): the log already ends with the result.
            return
        if result is not None:
            self.messages.append(WatchMessage(result=result))
        self.finished = True


def _last_snapshot(messages: Sequence[WatchMessage], at_least: int = 0) -> int:
    for index in range(len(messages) - 1, at_least - 1, -1):
        if messages[index].WhichOneof("kind") == "snapshot":
            return index
    return at_least


class Watcher:
    """One spectator's position in the match's public log, and how many moves
    before the log begins are still to be replayed for it (`earlier_moves`)."""

    def __init__(self, log: PublicLog, start: int, lag_limit: int, earlier_moves: int = 0) -> None:
        self.log = log
        self.cursor = start
        self.joined_at = len(log.messages)
        self.lag_limit = lag_limit
        self.earlier_moves = earlier_moves
        self.ended: StreamClosed | None = None
        self.number = 0  # which of the match's watchers it is, this server run
        self._wake = asyncio.Event()

    def live_lag(self) -> int:
        """Messages appended since the watcher joined, or since its replay of the
        moves before the log ended, that it has not read yet."""
        if self.earlier_moves:
            return 0
        return len(self.log.messages) - max(self.cursor, self.joined_at)

    def caught_up(self) -> None:
        """The moves before the log have been replayed: the log is read from here."""
        self.earlier_moves = 0
        self.joined_at = len(self.log.messages)

    @property
    def cut_off(self) -> bool:
        """Ended with an error status: nothing more is sent to it."""
        return self.ended is not None and self.ended.code is not None

    def notify(self) -> None:
        self._wake.set()

    def close(self, code: grpc.StatusCode | None, message: str) -> None:
        """End the stream: with a code at once, without one after the log is read."""
        if self.ended is None:
            self.ended = StreamClosed(code, message)
        self._wake.set()

    def unread(self) -> list[WatchMessage]:
        return self.log.messages[self.cursor :]

    async def relay(self, context: grpc.aio.ServicerContext) -> AsyncIterator[WatchMessage]:
        """Yield the log from the watcher's position until the match is over (or
        the watcher is dropped, which ends the RPC with the drop's status)."""
        while True:
            self._wake.clear()
            ended = self.ended
            if ended is not None and ended.code is not None:
                await abort(context, ended.code, ended.message)
            if self.cursor < len(self.log.messages):
                message = self.log.messages[self.cursor]
                self.cursor += 1
                yield message
                continue
            if ended is not None or self.log.finished:
                return
            await self._wake.wait()


class Spectators:
    """The watchers of one match and the public log they share."""

    def __init__(
        self,
        current: Callable[[], tuple[list[WatchMessage], bool]],
        lag_limit: int,
        log: structlog.typing.FilteringBoundLogger,
    ) -> None:
        # Where a new log begins, as (messages, whether the match is over): the
        # latest snapshot (the state as it is), then the result when over.
        self._current = current
        self.lag_limit = lag_limit
        self._log = log
        self._public: PublicLog | None = None
        self.watchers: list[Watcher] = []
        self.joins = 0  # watchers so far: past a few, one in a thousand is logged

    def watch(self, from_start: bool) -> Watcher:
        """A new watcher: at the latest snapshot, or at the log's first snapshot
        with the moves before it to be replayed first (the replay ends with that
        same snapshot, so the watcher reads the log from just after it)."""
        public = self._public
        if public is None:
            messages, over = self._current()
            public = self._public = PublicLog(messages, over)
        if not from_start:
            watcher = Watcher(public, public.latest_snapshot, self.lag_limit)
        elif public.first_move:
            watcher = Watcher(public, 1, self.lag_limit, earlier_moves=public.first_move)
        else:
            watcher = Watcher(public, 0, self.lag_limit)
        self.watchers.append(watcher)
        self.joins += 1
        watcher.number = self.joins
        if worth_logging(self.joins):
            self._log.info(
                "watcher joined",
                watchers=len(self.watchers),
                from_start=from_start,
                joins=self.joins,
            )
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        if watcher in self.watchers:
            self.watchers.remove(watcher)
            if worth_logging(watcher.number):
                self._log.info("watcher left", watchers=len(self.watchers), joins=watcher.number)
        if not self.watchers:
            self._public = None  # nobody reads it: rebuilt for the next watcher

    def played(self, messages: Callable[[], Sequence[WatchMessage]]) -> None:
        """A move was applied: `messages()` is what spectators see of it (only
        built when someone watches)."""
        if self._public is None:
            return
        self._public.extend(messages())
        for watcher in list(self.watchers):
            if watcher.live_lag() > self.lag_limit:
                self.watchers.remove(watcher)
                watcher.close(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"watcher fell more than {self.lag_limit} messages behind",
                )
                self._log.warning("watcher too slow, dropped", watchers=len(self.watchers))
            else:
                watcher.notify()

    def finished(self, result: arena_pb2.MatchResult | None) -> None:
        if self._public is not None:
            self._public.finish(result)
        for watcher in self.watchers:
            watcher.close(None, "match over")

    def close_all(self, code: grpc.StatusCode, reason: str) -> None:
        for watcher in self.watchers:
            watcher.close(code, reason)
        self.watchers.clear()
        self._public = None
