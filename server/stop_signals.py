"""The signals that stop `sheepfold serve`, each taken once.

SIGTERM (`docker stop`, Kubernetes, systemd), SIGINT (Ctrl-C), SIGHUP (the
terminal closed, or an operator's `kill -HUP`) and SIGQUIT (Ctrl-\\, a
container's STOPSIGNAL as nginx images set it) all stop the server gracefully:
new matches refused, streams ended with `UNAVAILABLE`, unfinished matches kept.
SIGHUP once killed the server at once with its default action, with no line
in the log, and SIGQUIT likewise with a core dump. Once the server is
stopping, every later one of them is ignored
until the process exits: a second SIGTERM (a supervisor that signals twice,
`timeout`, a process group signalled after its leader) once arrived after the
event loop had put back the default actions and killed a server that had
stopped cleanly, which then exited by the signal instead of with status 0.

A SIGHUP ignored when the process started (`nohup sheepfold serve &`) stays
ignored: nohup is how a server is left running past the terminal it was
started from, and closing that terminal once stopped it all the same.

SIGUSR1 and SIGUSR2, which ask a daemon to reload or reopen something (a log
rotation's postrotate line, `pkill -USR1 python` meant for another program),
are logged (`signal ignored`) and ignored: the server reloads and reopens
nothing, and their default action once killed it at once, with no line in its
log and no drain.
"""

from __future__ import annotations

import asyncio
import signal
from collections import Counter

from sheepfold.stop_signals import TAKEN_STOP_SIGNALS as STOP_SIGNALS

# Logged and ignored rather than left to their default action, which kills.
IGNORED_SIGNALS = (signal.SIGUSR1, signal.SIGUSR2)


class EarlyStops:
    """Stop signals that come before the event loop takes them (StopSignals),
    kept for it to act on at once. Set just before the loop starts. A Ctrl-C
    there once reached asyncio.run's own handler, which cancels the main task
    wherever it is (gRPC's start, half-way: a traceback, the database left
    open) and raises KeyboardInterrupt; a SIGTERM or SIGHUP killed the process."""

    def __init__(self) -> None:
        self.received: signal.Signals | None = None
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._received)
        for signum in IGNORED_SIGNALS:  # logged once the loop runs (StopSignals)
            signal.signal(signum, signal.SIG_IGN)

    def _received(self, signum: int, frame: object) -> None:
        if self.received is None:
            self.received = signal.Signals(signum)


_early: EarlyStops | None = None


def catch_early_stops() -> None:
    """Take the stop signals from now on: `sheepfold serve` calls it first thing
    in `cli.main`, before the command's modules load (gRPC and the rest take
    most of a second, longer on a busy machine). A SIGTERM in that first second
    once killed the server by its default action (exit 143), a SIGHUP likewise."""
    global _early
    _early = EarlyStops()


def take_early_stops() -> EarlyStops:
    """The EarlyStops `catch_early_stops` made, handed over once (a later serve
    in the same process, a test's, starts afresh), or a new one."""
    global _early
    early, _early = _early or EarlyStops(), None
    return early


class StopSignals:
    """Sets `stopping` at the first stop signal and remembers which it was;
    one that came before, to `early`, counts as the first."""

    def __init__(self, loop: asyncio.AbstractEventLoop, early: EarlyStops | None = None) -> None:
        self._loop = loop
        self.stopping = asyncio.Event()
        self.received: signal.Signals | None = None
        self._ignored: Counter[signal.Signals] = Counter()
        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, self._received, signum)
        for signum in IGNORED_SIGNALS:
            loop.add_signal_handler(signum, self._ignore, signum)
        if early is not None and early.received is not None:
            self._received(early.received)

    def _ignore(self, signum: signal.Signals) -> None:
        """One line for each of the first few, then one in a thousand: a
        signal sent in a loop cannot fill the disk."""
        import structlog  # here: this module loads before the slow imports

        from server.logs import worth_logging

        self._ignored[signum] += 1
        count = self._ignored[signum]
        if worth_logging(count):
            structlog.get_logger("sheepfold").warning(
                "signal ignored",
                signal=signum.name,
                total=count,
                advice="nothing is reloaded or reopened; the server stops on "
                + ", ".join(stop.name for stop in STOP_SIGNALS),
            )

    def _received(self, signum: signal.Signals) -> None:
        if self.received is None:
            self.received = signum
        self.stopping.set()

    def ignore_from_now(self) -> None:
        """The server is stopping: later stop signals are ignored, for the rest
        of the process's life (the loop would put back their default actions
        when it closes, before the process has exited)."""
        # Ignored first, then taken off the loop's list of handlers without its
        # remove_signal_handler, which puts back the default action: a second
        # SIGTERM in between killed the stopping server (exit -15). A loop
        # that keeps no such list (not asyncio's own) is left to do it.
        handlers = getattr(self._loop, "_signal_handlers", None)
        for signum in STOP_SIGNALS + IGNORED_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
            if isinstance(handlers, dict):
                handlers.pop(signum, None)
            else:
                self._loop.remove_signal_handler(signum)
                signal.signal(signum, signal.SIG_IGN)
        if isinstance(handlers, dict) and not handlers:
            signal.set_wakeup_fd(-1)  # as remove_signal_handler does with the last one
