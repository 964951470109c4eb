"""One Play stream as a bot plays it: the join, the view of each decision
the bot is given, the index it answers with, and the stream read while the bot
thinks, until the result or the stream's end.

`clients.sdk.play` plays a seat across streams (connecting, rejoining, giving
up); this module plays one of them, and says how it went (`Progress`,
`StreamEnded`) for `play` to decide what comes next. Bots import
`DecisionView` and `Bot` from `clients.sdk`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import operator
import reprlib
from collections import deque
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, SupportsIndex, cast, runtime_checkable

import grpc
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

# How long a seat waits, after its result, for the server to end the stream:
# the result is final either way (see `_play_messages`).
STATUS_SECONDS = 5.0
# How long a stream waits for its join's answer (joined, or a status): a server
# answers at once. A server that took the join and answered nothing (its gRPC
# core alive, the rest of it stuck) once held the seat, and `sheepfold bot`,
# for ever.
JOIN_ANSWER_SECONDS = 30.0
# The seat the Play stream of the running task joined, as its `Joined` says
# (None before): what a bot's wrapper (`sheepfold bot` without --seat) names
# when the bot raises in `on_event` before its first decision, since an event
# carries no seat. A task of its own per seat (`sheepfold match`) keeps its own.
joined_seat: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "joined_seat", default=None
)


@dataclass(frozen=True, slots=True)
class DecisionView:
    """What a bot sees when it must decide."""

    decision_id: int
    seat: int
    game: str
    prompt: str
    observation: Any  # the game's observation message, e.g. SheepShowdownObservation
    actions: Sequence[arena_pb2.LegalAction]
    clock: arena_pb2.Clock
    # The options the match is played with, as `Joined` gives them: every
    # option, defaults filled in, as strings ({"wolf": "true", ...}).
    options: Mapping[str, str] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        return [action.label for action in self.actions]

    def action(self, index: int) -> Any:
        """The game's typed action message at `index`."""
        wrapper = self.actions[index].action
        return getattr(wrapper, wrapper.WhichOneof("game"))

    @classmethod
    def from_message(
        cls,
        decision: arena_pb2.Decision,
        game: str,
        options: Mapping[str, str] | None = None,
    ) -> DecisionView:
        member = decision.observation.WhichOneof("game")
        observation = getattr(decision.observation, member) if member else None
        return cls(
            decision_id=decision.decision_id,
            seat=decision.seat,
            game=game,
            prompt=decision.prompt,
            observation=observation,
            actions=decision.actions,
            clock=decision.clock,
            options={} if options is None else options,
        )


@runtime_checkable
class Bot(Protocol):
    def decide(self, decision: DecisionView) -> int | Awaitable[int]: ...


class StreamEnded(Exception):
    """The stream ended with neither its result nor an error status."""


class JoinUnanswered(Exception):
    """The server answered the stream's join with nothing within JOIN_ANSWER_SECONDS."""


@dataclass(slots=True)
class Progress:
    """How far the stream now open got, for `play` to tell what its end means."""

    # The server acknowledged the join of the stream now open. Per stream: a
    # seat that joined before a restart is not joined on the next stream.
    joined: bool = False
    # The stream carried play after its join (a decision, event or result): the
    # seat was back, so a later outage counts its attempts afresh.
    played: bool = False
    # The seat the server said this stream joined (None until it did).
    seat: int | None = None
    # The last PlayError the server sent on this stream ("action index 9 is out
    # of range 0..3"): a bot that answers out of range every time is asked again
    # and again until the stream ends for its refusals, which says only "more
    # than 100 rejected messages"; `play` then says what was refused.
    refused: str | None = None


async def play_stream(
    bot: Bot,
    channel: grpc.aio.Channel,
    match_id: str,
    token: str,
    seat: int | None,
    log: structlog.typing.FilteringBoundLogger,
    progress: Progress,
    events_in_decisions: bool,
) -> arena_pb2.MatchResult:
    """Join on a new Play stream of `channel` and play it to its result; raises
    the stream's error (grpc.aio.AioRpcError) or StreamEnded, `progress`
    saying how far it got."""
    progress.joined = progress.played = False
    progress.seat = progress.refused = None
    stub = arena_pb2_grpc.ArenaStub(channel)
    call = stub.Play(wait_for_ready=True)
    join = arena_pb2.Join(match_id=match_id, token=token, events_in_decisions=events_in_decisions)
    if seat is not None:
        join.seat = seat
    # A write that lands after the server has ended the stream (it refused the
    # join at once) fails with INTERNAL "Internal error from Core": reading
    # then gives the status the server really sent.
    with contextlib.suppress(asyncio.InvalidStateError, grpc.aio.AioRpcError):
        await call.write(arena_pb2.PlayRequest(join=join))
    reader = _Reader(call)
    try:
        return await _play_messages(bot, call, reader, log, progress)
    finally:
        reader.close()


async def _play_messages(
    bot: Bot,
    call: grpc.aio.StreamStreamCall,
    reader: _Reader,
    log: structlog.typing.FilteringBoundLogger,
    progress: Progress,
) -> arena_pb2.MatchResult:
    """Answer the stream's decisions until its result."""
    game = ""
    options: dict[str, str] = {}
    on_event = getattr(bot, "on_event", None)
    while True:
        if progress.joined:
            response = await reader.read()
        else:
            try:
                async with asyncio.timeout(JOIN_ANSWER_SECONDS):
                    response = await reader.read()
            except TimeoutError:
                call.cancel()
                raise JoinUnanswered(f"answered no join within {JOIN_ANSWER_SECONDS:g} s") from None
        if response is grpc.aio.EOF:
            raise StreamEnded()
        kind = response.WhichOneof("kind")
        if progress.joined and kind != "error":
            progress.played = True
        if kind == "decision":
            if on_event is not None:
                for event in response.decision.events:
                    if await _given(on_event, event, reader) is _OVER:
                        break
            if reader.over:
                continue  # the match ended while the bot thought about an earlier one
            view = DecisionView.from_message(response.decision, game, options)
            choice = bot.decide(view)
            if inspect.isawaitable(choice):
                choice = await reader.read_while(choice)
                if choice is _OVER:
                    continue  # the result came first: it is the next message
            try:
                await call.write(
                    arena_pb2.PlayRequest(
                        answer=arena_pb2.Answer(
                            decision_id=response.decision.decision_id,
                            action_index=action_index(choice),
                        )
                    )
                )
            except (asyncio.InvalidStateError, grpc.aio.AioRpcError):
                # The server ended the stream while the bot was thinking (the match
                # ended, a restart, a newer join). Keep reading: what it sent before
                # (the result) may still be buffered, else the status tells `play`
                # whether to rejoin.
                continue
        elif kind == "event":
            if on_event is not None:
                await _given(on_event, response.event, reader)
        elif kind == "joined":
            progress.joined = True
            progress.seat = response.joined.seat
            joined_seat.set(response.joined.seat)
            game = response.joined.game
            options = dict(response.joined.options)
            log = log.bind(seat=response.joined.seat, game=game)
        elif kind == "error":
            progress.refused = f"{status_name(response.error.code)}: {response.error.message}"
            log.warning(
                "server refused an answer",
                code=status_name(response.error.code),
                message=response.error.message,
            )
        elif kind == "result":
            # The result is final: a stream the server already closed may refuse
            # the half-close, which must not turn a finished match into an error.
            # The server's status is waited for before the channel closes: a status
            # sent on a call its client has cancelled fails in the server, and
            # grpc.aio keeps about 100 bytes of every failed batch for good
            # (grpc/grpc#43360), so leaving at once grew the server a little with
            # every match.
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await call.done_writing()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STATUS_SECONDS):
                    await call.code()
            return response.result


_OVER = object()  # what `_Reader.read_while` gives when the result came first


async def _given(on_event: Any, event: Any, reader: _Reader) -> Any:
    """Hand `event` to the bot; an `async` on_event (as `decide` may be) is
    awaited, not dropped unawaited with the event unseen, while the stream is
    read, as a `decide` is: _OVER when the result came first. An on_event
    stuck for ever (on a thread, as `sheepfold match` runs it) once held
    `play` after its match had ended, and the command with it."""
    seen = on_event(event)
    if inspect.isawaitable(seen):
        return await reader.read_while(seen)
    return None


class _Reader:
    """A Play stream's messages, read one at a time, also while the bot thinks.

    An async `decide` (and every `decide` that `sheepfold match`, `bot` and a
    tournament run on a thread) is awaited while the stream is read: a bot
    stuck in `decide` is struck and disqualified by the server, the match ends,
    and its result must end `play` rather than wait for an answer that never
    comes. What arrives meanwhile is kept, in order, for after the answer.
    A read is never cancelled while the stream is wanted: grpc.aio cancels
    the whole call with it."""

    def __init__(self, call: grpc.aio.StreamStreamCall) -> None:
        self._call = call
        self._kept: deque[Any] = deque()
        self._reading: asyncio.Future[Any] | None = None

    async def read(self) -> Any:
        """The next message (or EOF); raises the stream's error."""
        if self._kept:
            return self._kept.popleft()
        try:
            return await self._next()
        finally:
            self._reading = None

    @property
    def over(self) -> bool:
        """The result is among the messages kept for later."""
        return any(message.WhichOneof("kind") == "result" for message in self._kept)

    async def read_while(self, choice: Awaitable[Any]) -> Any:
        """`choice`'s value, or _OVER once the result is the next message to
        read; raises the stream's error, or StreamEnded, as soon as it comes
        (the answer could not be sent): the bot's thinking is then dropped."""
        thinking = asyncio.ensure_future(choice)
        try:
            if self.over:
                return _OVER
            while not thinking.done():
                reading = self._next()
                await asyncio.wait({thinking, reading}, return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    break
                self._reading = None
                message = reading.result()
                if message is grpc.aio.EOF:
                    raise StreamEnded()
                self._kept.append(message)
                if message.WhichOneof("kind") == "result":
                    return _OVER
            return thinking.result()
        finally:
            if not thinking.done():
                thinking.cancel()
            thinking.add_done_callback(_retrieve)

    def close(self) -> None:
        """Drop a read still waiting (the stream is being left)."""
        if self._reading is not None and not self._reading.done():
            self._reading.cancel()
        if self._reading is not None:
            self._reading.add_done_callback(_retrieve)
        self._reading = None

    def _next(self) -> asyncio.Future[Any]:
        if self._reading is None:
            self._reading = asyncio.ensure_future(self._call.read())
        return self._reading


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a dropped future's outcome as seen (no "exception was never retrieved")."""
    if not future.cancelled():
        future.exception()


def action_index(choice: object) -> int:
    """What a bot's `decide` returned, as an Answer carries it: a whole number
    (an int, or anything int-like such as numpy's integers) within the wire's
    int32. Anything else raises TypeError or ValueError saying what was
    returned, rather than failing inside int() or protobuf. An index below 0 or
    past the last action is sent: the server refuses it (INVALID_ARGUMENT) and
    asks again, and the match goes on, as for any client. A bool is refused:
    `True` is an int to Python, but a `decide` that returns one has almost
    surely returned a test where it meant an index, and it once played action 1.
    A coroutine refused here (an `async` decide that returned one unawaited) is
    closed: Python's "coroutine ... was never awaited" once followed the line."""
    try:
        if isinstance(choice, bool):
            raise TypeError
        # operator.index decides what is an index (its TypeError is caught below;
        # the cast only tells mypy), and never truncates: 1.5 is refused, not 1.
        index = operator.index(cast(SupportsIndex, choice))
    except TypeError:
        if inspect.iscoroutine(choice):
            choice.close()
        raise TypeError(f"decide returned {reprlib.repr(choice)}, {NOT_AN_INDEX}") from None
    if not -(2**31) <= index < 2**31:
        raise ValueError(f"decide returned {index}, {PAST_INT32}")
    return index


NOT_AN_INDEX = "not an action index (a whole number)"
PAST_INT32 = f"not an action index (past the wire's int32: {-(2**31)} to {2**31 - 1})"


def status_name(code: int) -> str:
    """The name of a numeric gRPC status code, as PlayError carries it."""
    for status in grpc.StatusCode:
        if status.value[0] == code:
            return status.name
    return f"CODE_{code}"
