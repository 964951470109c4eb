"""A bot's own exception, shown with its own traceback.

When a `module:Class` bot raises in `decide`, the error is the author's code:
they need the traceback from their file, not `AttributeError: no_such_field`
from somewhere inside the SDK. `GuardedBot` wraps a bot and turns whatever it
raises into `BotRaised`, which names the seat and keeps the bot's frames only.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
import traceback
from collections.abc import Iterable
from typing import Any

import clients.bot_thread
from clients.bot_thread import BotExited, BotThread, may_be_ctrl_c, passes_through
from clients.play_stream import joined_seat
from clients.sdk import Bot, DecisionView, action_index


class BotRaised(Exception):
    """The bot of `seat` raised `error` while deciding (or, with `answer`, returned
    something that is no action index: `error` then says what)."""

    def __init__(
        self, seat: int | None, spec: str, error: BaseException, frames: str, answer: bool = False
    ) -> None:
        who = f"the bot in seat {seat}" if seat is not None else "the bot"
        what = f": {error}" if answer else f" raised {type(error).__name__}: {error}"
        super().__init__(f"{who} ({spec}){what}")
        self.seat = seat
        self.spec = spec
        self.error = error
        self.frames = frames

    def report(self, command: str) -> str:
        """What to print: one line naming the bot, then its own traceback."""
        return f"sheepfold {command}: {self}\n{self.frames}".rstrip()


class GuardedBot:
    """With `threaded`, the bot's `decide` runs on a daemon thread of its own: a
    `match` plays every seat (and maybe the server) on one event loop, where a
    bot that thinks for seconds without yielding would make the other seats
    miss their deadlines too."""

    def __init__(self, bot: Bot, seat: int | None, spec: str, *, threaded: bool = False) -> None:
        self._bot = bot
        self._seat = seat
        self._spec = spec
        self._worker = BotThread(f"bot-seat-{seat}") if threaded else None
        self._on_event = getattr(bot, "on_event", None)
        if self._on_event is not None:
            # Only a bot that has one: the SDK skips events for a bot without.
            self.on_event = self._guarded_event

    async def _guarded_event(self, event: Any) -> None:
        """The bot's on_event, plain or `async` (the SDK awaits what it gets).
        With `threaded`, a plain one runs on the bot's thread, as `decide` does:
        on the loop, one that blocked stalled every seat and the in-process
        server, and `match` hung until it was killed."""
        if self._seat is None:
            # `sheepfold bot` without --seat, before its first decision: the
            # events that come first carry no seat, the stream's join told it.
            self._seat = joined_seat.get()
        if self._worker is not None:
            # An `async` one is awaited on the thread too, on its own loop, as an
            # `async` decide is (both see the same loop).
            worker = self._worker
            await worker.run(lambda: self._on_thread(worker, self._event_call(event)))
            return
        seen = self._event_call(event)
        if inspect.isawaitable(seen):
            try:
                await seen
            except BaseException as error:
                if passes_through(error):
                    raise
                raise self._raised(error) from None

    def _event_call(self, event: Any) -> Any:
        assert self._on_event is not None
        try:
            return self._on_event(event)
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt) and may_be_ctrl_c():
                raise  # a Ctrl-C still stops the program
            raise self._raised(error) from None

    def __getattr__(self, name: str) -> Any:  # on_event and anything else the SDK looks up
        return getattr(self._bot, name)

    def decide(self, decision: DecisionView) -> Any:
        if self._seat is None:
            # `sheepfold bot` without --seat: the server told the seat from the token.
            self._seat = decision.seat
        if self._worker is not None:
            return self._off_loop(self._worker, decision)
        choice = self._call(decision)
        if inspect.isawaitable(choice):
            return self._wait(choice)
        return self._index(choice)

    def close(self) -> None:
        """Let the worker thread end, cancelling what it still awaits (an `async`
        decide whose match is over); it is a daemon: it never holds the exit."""
        if self._worker is not None:
            self._worker.close()

    def join(self, seconds: float) -> bool:
        """Wait up to `seconds` for the worker thread to end (after `close`)."""
        return self._worker is None or self._worker.join(seconds)

    def _call(self, decision: DecisionView) -> Any:
        try:
            return self._bot.decide(decision)
        except BaseException as error:  # GeneratorExit too: the bot's, as a ValueError is
            if isinstance(error, KeyboardInterrupt) and may_be_ctrl_c():
                raise  # a Ctrl-C still stops the program
            raise self._raised(error) from None

    async def _off_loop(self, worker: BotThread, decision: DecisionView) -> int:
        choice = await worker.run(lambda: self._on_thread(worker, self._call(decision)))
        return self._index(choice)

    def _on_thread(self, worker: BotThread, choice: Any) -> Any:
        """On the bot's thread: `choice`, or what it gives when awaited there (an
        `async` decide or on_event, which never runs on the loop the seats and
        maybe the server share); what it raises is the bot's error."""
        if not inspect.isawaitable(choice):
            return choice
        try:
            return worker.awaited(choice)
        except BaseException as error:  # CancelledError too: nothing cancels this thread
            raise self._raised(error) from None

    async def _wait(self, choice: Any) -> int:
        try:
            chosen = await choice
        except BaseException as error:
            if passes_through(error):
                raise
            raise self._raised(error) from None
        return self._index(chosen)

    def _index(self, choice: Any) -> int:
        """The bot's answer, or one line saying what it returned instead (no
        traceback: the mistake is the returned value, not a line of code)."""
        try:
            return action_index(choice)
        except (TypeError, ValueError) as error:
            raise BotRaised(self._seat, self._spec, error, "", answer=True) from None

    def _raised(self, error: BaseException) -> BotRaised:
        if isinstance(error, SystemExit):
            error = BotExited.of(error)
        # Drop this module's frame, and the frames of the bot thread's own loop
        # that awaited an `async` one: what is left starts in the bot's own code.
        tb = error.__traceback__.tb_next if error.__traceback__ is not None else None
        while tb is not None and _not_the_bots(tb.tb_frame.f_code.co_filename):
            tb = tb.tb_next
        frames = "".join(traceback.format_exception(type(error), error, tb))
        return BotRaised(self._seat, self._spec, error, frames)


# How long `close_bots` waits for the bots' threads, all together, to end: an
# `async` decide cancelled at the match's end ends at once; a plain one stuck
# in a loop never does, and its daemon thread is left behind.
THREADS_END_SECONDS = 1.0


def close_bots(bots: Iterable[object], seconds: float = THREADS_END_SECONDS) -> None:
    """Close every GuardedBot of `bots` (what their threads await is cancelled)
    and wait up to `seconds` in all for their threads to end: an `async` decide
    awaiting for ever once outlived its match, its thread left running after
    `match` or `bot` had returned."""
    guarded = [bot for bot in bots if isinstance(bot, GuardedBot)]
    for bot in guarded:
        bot.close()
    deadline = time.monotonic() + seconds
    for bot in guarded:
        bot.join(deadline - time.monotonic())


# The files whose frames come before a bot's own in what it raised on its thread.
_AWAITING_FILES = (os.path.dirname(asyncio.__file__), clients.bot_thread.__file__, __file__)


def _not_the_bots(filename: str) -> bool:
    return filename.startswith(_AWAITING_FILES)
