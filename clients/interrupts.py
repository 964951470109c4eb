"""Running a command's event loop so that Ctrl-C stops it once, in order.

asyncio.run takes a first Ctrl-C by cancelling its main task, whose cleanup
then kills the bot programs and stops the in-process server. A second one (a
user pressing Ctrl-C twice; `timeout -s INT`, which signals the command and
then its whole process group) made asyncio.run raise KeyboardInterrupt out of
the loop and cancel every task left, gRPC's own too, while that cleanup
awaited gRPC's server shutdown (a Cython coroutine): the interpreter then
crashed now and then (SIGSEGV in a coroutine frame whose code was gone).

`run_interruptible` takes the first SIGINT (or SIGTERM, SIGHUP: see
`interrupt`) as asyncio.run does and ignores the later ones: the cleanup under
way (the bots are killed, the server stops within its grace) and the exit after
it are not broken into. A command whose cleanup hangs all the same (a thread
still building a bot) is ended at once FORCE_AFTER_SECONDS after the first
signal, with `os._exit`: nothing unwinds, so nothing can crash. A program
calling it as a library gets its own handlers back once the run is over.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Coroutine
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from sheepfold.stop_signals import STOP_SIGNALS

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "exit_when_interrupted",
    "ignore_further_interrupts",
    "interrupt",
    "name_the_command",
    "run_interruptible",
]

T = TypeVar("T")
# A command still stopping this long after Ctrl-C is ended at once (see the module doc).
FORCE_AFTER_SECONDS = 30.0


class _FirstInterrupt:
    """Cancels the main task at the first signal; the later ones are ignored."""

    def __init__(self) -> None:
        self.task: asyncio.Task[Any] | None = None
        self.received = False
        self.saved: dict[int, Any] = {}  # the handlers the first signal replaced

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.saved = ignore_further_interrupts()
        self.received = True
        task = self.task
        if task is not None and not task.done():
            task.cancel()
            # Wakes the loop up if it waits in select() with a long timeout.
            task.get_loop().call_soon_threadsafe(_nothing)


_running: _FirstInterrupt | None = None


class _Process:
    """What this process does once interrupted (signal handlers are the process's)."""

    exits_when_interrupted = False
    watched = False  # the watchdog of a process stopping has started
    # What the watchdog's line starts with, as the command's other lines do.
    command = "sheepfold"


_process = _Process()


def exit_when_interrupted() -> None:
    """This process ends once a run is interrupted (a command, not a library's
    caller): the later signals stay ignored until it has exited, rather than
    its own handlers coming back between the run and its exit."""
    _process.exits_when_interrupted = True


def name_the_command(command: str) -> None:
    """The command this process runs ("sheepfold match"), as its lines start:
    the watchdog's line says it too ("sheepfold match: interrupted; ...")."""
    _process.command = command


def run_interruptible(main: Coroutine[Any, Any, T]) -> T:
    """asyncio.run(main), stopped once by Ctrl-C (see the module doc): raises
    KeyboardInterrupt when it was interrupted, as asyncio.run does."""
    global _running
    if threading.current_thread() is not threading.main_thread():
        return _run(main, _FirstInterrupt())  # only the main thread receives signals
    first = _FirstInterrupt()
    # An ignored SIGINT (a command started in the background) stays ignored.
    takes_sigint = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if takes_sigint:
        signal.signal(signal.SIGINT, first)
    _running = first
    try:
        return _run(main, first)
    finally:
        _running = None
        if not (first.received and _process.exits_when_interrupted):
            for signum, handler in first.saved.items():
                signal.signal(signum, handler)
            if takes_sigint:
                signal.signal(signal.SIGINT, signal.default_int_handler)


def _run(main: Coroutine[Any, Any, T], first: _FirstInterrupt) -> T:
    # Here, not at the top: cli.main imports this module before anything heavy,
    # so that a Ctrl-C while the command loads ends quietly too.
    import asyncio

    with asyncio.Runner() as runner:
        first.task = runner.get_loop().create_task(main)
        if first.received:  # a signal before the task existed
            first.task.cancel()
        try:
            result = runner.get_loop().run_until_complete(first.task)
        except (asyncio.CancelledError, Exception):
            if first.received:  # whatever the cancellation made of it
                raise KeyboardInterrupt from None
            raise
    if first.received:  # during the loop's shutdown, after the command was done
        raise KeyboardInterrupt
    return result


def interrupt(frame: FrameType | None = None) -> None:
    """Stop the command as Ctrl-C does (SIGTERM and SIGHUP do, see cli.main):
    through `run_interruptible` when it runs, else through what handles SIGINT
    (Python's default raises KeyboardInterrupt; asyncio.run cancels its main task)."""
    if _running is not None:
        _running(signal.SIGINT, frame)
        return
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:  # SIGINT ignored (started in the background by a shell): stop all the same
        raise KeyboardInterrupt


def ignore_further_interrupts() -> dict[int, Any]:
    """The command is stopping: a later Ctrl-C (SIGTERM, SIGHUP) would only
    interrupt its cleanup or its exit, so they are ignored from now on. In a
    process that exits when interrupted, a watchdog then ends it at once if it
    is still there FORCE_AFTER_SECONDS later (a cleanup that hangs). Returns the
    handlers replaced (none off the main thread, which receives no signals)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    saved: dict[int, Any] = {
        signum: signal.signal(signum, signal.SIG_IGN) for signum in STOP_SIGNALS
    }
    if _process.exits_when_interrupted and not _process.watched:
        _process.watched = True
        threading.Thread(
            target=_force_exit_later, args=(FORCE_AFTER_SECONDS,), name="interrupted", daemon=True
        ).start()
    return saved


def _force_exit_later(seconds: float) -> None:
    """Ends the process without unwinding anything (nothing can crash or hang)."""
    time.sleep(seconds)
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(
            f"{_process.command}: interrupted: still stopping {seconds:g} s after Ctrl-C; "
            "stopping at once\n"
        )
        sys.stderr.flush()
    os._exit(130)


def _nothing() -> None:
    pass
