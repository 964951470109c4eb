"""One daemon thread that runs a bot's calls in order, for an asyncio caller.

A bot's `decide` (or its building) may block for seconds or for ever; run on
the event loop it would stall every other seat, and a server sharing the loop.
Not the loop's shared pool: bots that hang must neither fill it nor hold the
process's exit until they end, so each bot gets a daemon thread of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import signal
import threading
from collections.abc import Callable
from typing import Any

__all__ = [
    "BotExited",
    "BotRaisedBase",
    "BotThread",
    "bot_error",
    "may_be_ctrl_c",
    "passes_through",
]


class BotExited(Exception):
    """A bot called `sys.exit` (raised SystemExit) while it was called: its
    mistake, like any exception it raises. Passed on as SystemExit, it would
    end the process that plays it (a whole tournament run, exit 0 for
    `sys.exit()`), the other seats and their server with it, without a word."""

    def __init__(self, code: object) -> None:
        super().__init__("sys.exit()" if code is None else f"sys.exit({code!r})")
        self.code = code

    @classmethod
    def of(cls, exit_: SystemExit) -> BotExited:
        """`exit_` as a BotExited, with its traceback (where the bot called it)."""
        return cls(exit_.code).with_traceback(exit_.__traceback__)


class BotRaisedBase(Exception):
    """A bot raised a BaseException that is no Exception (GeneratorExit, or a
    class of its own) while it was called: its mistake, like any exception it
    raises. Passed on as itself, it got past every handler meant for a bot's
    errors; a GeneratorExit on an event loop ended `sheepfold match` in
    "RuntimeError: coroutine ignored GeneratorExit". Says what was raised."""

    def __init__(self, error: BaseException) -> None:
        said = str(error)
        super().__init__(f"{type(error).__name__}: {said}" if said else type(error).__name__)
        self.error = error


def may_be_ctrl_c() -> bool:
    """Whether a KeyboardInterrupt raised here and now may be a Ctrl-C rather
    than one a bot raised itself: Python raises it for SIGINT only on the main
    thread, and only while its own handler is SIGINT's (a command's
    run_interruptible, and asyncio.run, cancel their main task instead). A bot
    that raised one was once taken for a Ctrl-C: a whole tournament run
    stopped as "interrupted", exit 130, on its first game."""
    return (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )


def passes_through(error: BaseException) -> bool:
    """Whether `error`, raised while a bot's call was awaited, is not the bot's
    mistake: the cancelling of the task that awaits it, or a Ctrl-C (see
    may_be_ctrl_c), which still stops the program. A CancelledError is the
    task's own only while the task is being cancelled: one a bot raised itself
    (nothing cancelled) was passed on as a cancelling, and ended `sheepfold
    match` in a traceback through the SDK's frames."""
    if isinstance(error, asyncio.CancelledError):
        return being_cancelled()
    return isinstance(error, KeyboardInterrupt) and may_be_ctrl_c()


def being_cancelled() -> bool:
    """Whether the task running here has been asked to cancel (True outside a task)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running loop
        return True
    return task is None or task.cancelling() > 0


def bot_error(error: BaseException) -> BaseException:
    """What to raise for `error`, which a bot's own call raised: SystemExit as
    BotExited, any other BaseException that is no Exception as BotRaisedBase
    (a KeyboardInterrupt too, unless it may be a Ctrl-C, which still stops the
    program: see may_be_ctrl_c), each with the bot's traceback; an Exception
    as it is."""
    if isinstance(error, SystemExit):
        return BotExited.of(error)
    if isinstance(error, Exception) or (isinstance(error, KeyboardInterrupt) and may_be_ctrl_c()):
        return error
    return BotRaisedBase(error).with_traceback(error.__traceback__)


class BotThread:
    """`run(call)` gives an asyncio future of `call()`'s value (or exception),
    computed on this object's thread; calls run one after another.

    What the thread awaits for a call (`awaited`: an `async` decide) is
    cancelled when that call's future is cancelled (the SDK drops a decide
    whose match ended while it thought) and at `close`: an `async` decide that
    awaited for ever once kept its thread alive after its match had ended and
    its command had returned. A plain call stuck for ever cannot be stopped;
    the thread is a daemon, and never holds the process's exit."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        # The future of the call running now, and what it awaits on this thread's loop.
        self._calling: asyncio.Future[Any] | None = None
        self._awaiting: asyncio.Future[Any] | None = None
        # Whether `_awaiting` was cancelled: once only, so a decide's own
        # cleanup (an `await` in its `finally`) runs whole. The match's end
        # and then `close` each cancelled it, and the second cut that short.
        self._awaiting_cancelled = False
        self._closed = False
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def awaited(self, awaitable: Any) -> Any:
        """On this thread (inside a call given to `run`): `awaitable`'s value,
        awaited on an event loop of the thread's own. An `async` decide that
        never yields (a search written in one) once ran on the loop every seat
        shares, blocking them all: the other seats missed their deadlines.
        Raises CancelledError when the call is dropped (see the class)."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        task = asyncio.ensure_future(awaitable, loop=self._loop)
        with self._lock:
            self._awaiting = task
            calling = self._calling
            dropped = self._closed or (calling is not None and calling.cancelled())
            self._awaiting_cancelled = dropped
        if dropped:
            task.cancel()
        try:
            return self._loop.run_until_complete(task)
        finally:
            with self._lock:
                self._awaiting = None

    def run(self, call: Callable[[], Any]) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(self._dropped)
        self._jobs.put((call, future))
        return future

    def close(self) -> None:
        """Let the thread end once the calls already given are done, cancelling
        what it awaits now (nobody waits for its answer any more)."""
        with self._lock:
            self._closed = True
            self._cancel_awaiting()
        self._jobs.put(None)

    def join(self, seconds: float) -> bool:
        """Wait up to `seconds` for the thread to end (after `close`); whether it has."""
        self._thread.join(max(seconds, 0.0))
        return not self._thread.is_alive()

    def _dropped(self, future: asyncio.Future[Any]) -> None:
        """On the caller's loop: `future` is done; if it was cancelled while its
        call awaits on this thread, that awaiting is cancelled too."""
        if not future.cancelled():
            return
        with self._lock:
            if self._calling is future:
                self._cancel_awaiting()

    def _cancel_awaiting(self) -> None:
        """With the lock held: cancel what this thread awaits now, if anything
        and not already (its loop closes only under the lock, after the last call)."""
        if self._awaiting is not None and self._loop is not None and not self._awaiting_cancelled:
            self._awaiting_cancelled = True
            self._loop.call_soon_threadsafe(self._awaiting.cancel)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            call, future = job
            if future.cancelled():  # dropped before it began: nobody waits for it
                continue
            with self._lock:
                self._calling = future
            try:
                outcome: tuple[bool, Any] = (True, call())
            except BaseException as error:  # CancelledError too: nothing cancels a thread
                outcome = (False, bot_error(error))
            finally:
                with self._lock:
                    self._calling = None
            with contextlib.suppress(RuntimeError):  # the caller's loop has closed
                future.get_loop().call_soon_threadsafe(_settle, future, outcome)
        if self._loop is not None:
            # What the bot left running on it (tasks it spawned) ends with it.
            pending = asyncio.all_tasks(self._loop)
            for task in pending:
                task.cancel()
            with contextlib.suppress(BaseException):
                self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            with self._lock:
                self._loop.close()


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():  # cancelled while the call ran
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
