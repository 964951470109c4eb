"""The lines gRPC's core writes to descriptor 2 in `serve`, kept to a bound.

gRPC's C core writes its own lines, not JSON, straight to descriptor 2, one a
call for some of a client's mistakes (a malformed `grpc-timeout` header: one
connection wrote 158,000 lines in 2 s), one a failed TLS handshake. In `serve`
descriptor 2 becomes the write end of a pipe before gRPC starts; the server's
own log (server/logs.py, Python's tracebacks, faulthandler) goes on writing to
the real stderr, a copy of the old descriptor 2. A small process of its own
reads the pipe and logs core's lines to the real stderr through the server's
own log set-up (server/logs.py: the same JSON or console lines, under logger
"grpc-core", and the same queue, which a stalled reader costs lines, counted,
never a wait), at most `LINES_A_SECOND` a second after a burst of
`BURST_LINES`, with one warning a second saying how many it dropped.

The reader is a process, not a thread, so that what core writes as the server
dies (an abort's "assertion failed") is still read: it ignores the stop
signals and reads until every writer of the pipe is gone. The lines of the
last second before that end are written whatever the bound, since they may
say why the server died.

Should the reader die while the server runs, `CoreLog.watch` starts another
in its place on a new pipe (a few times at most: see REPLACEMENTS_BURST).

Run as `python -m cli.core_log json|console`: the reader itself.
"""

from __future__ import annotations

import contextlib
import faulthandler
import logging
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import structlog
from sheepfold.stop_signals import STOP_SIGNALS

from cli.standard_streams import errors_to
from server.logs import configure_logging

__all__ = ["BURST_LINES", "LINES_A_SECOND", "CoreLog", "bound_core_log"]

# Core's own lines are few when nobody attacks (a handful as the server starts
# and stops, a failed handshake now and then): a burst of 100 passes them all,
# a crash's lines included. Past that, 5 a second, the 300 a minute the server
# allows one kind of its own repeatable lines (server/logs.py): about 40 MB a
# day of a client's flood at worst, instead of 15 MB in 2 s.
LINES_A_SECOND = 5.0
BURST_LINES = 100
# A longer line is cut there (the rest is the next line).
MAX_LINE_BYTES = 16_384
# The lines that arrived over the bound in the last second before the pipe's
# end, at most this many, are written anyway: an abort's last words.
LAST_LINES = 50
# How long the reader tries to write its last lines to a real stderr that does
# not read, once the server is gone; and how long `serve` waits for the reader.
LAST_WRITE_SECONDS = 2.0
# A reader that dies is replaced, 5 times at once and then once a minute: past
# that, readers that die as they start (one that cannot run here) are not.
REPLACEMENTS_BURST = 5
REPLACEMENTS_A_SECOND = 1 / 60
LOGGER = "grpc-core"
DROPPED = "gRPC core log lines dropped"
# Core's lines begin with their severity: E1206 00:12:31.123456  4242 file.cc:12] ...
_SEVERITY = re.compile(rb"([DIWEF])\d{4} ")
_LEVELS = {b"D": "debug", b"I": "info", b"W": "warning", b"E": "error", b"F": "critical"}


class CoreLog:
    """The reader process of core's lines, and the real stderr it writes to."""

    def __init__(self, process: subprocess.Popen[bytes], real_fd: int, fmt: str) -> None:
        self.process = process
        self.real_fd = real_fd
        self._fmt = fmt
        self._replacements = TokenBucket(
            REPLACEMENTS_A_SECOND, REPLACEMENTS_BURST, time.monotonic()
        )
        self._closing = False
        # Held while the reader is replaced or closed: `close` then waits for
        # the reader there is, never one the watch is starting in its place.
        self._lock = threading.Lock()

    def watch(self) -> None:
        """Once the log is set up: should the reader die while the server runs
        (killed by hand as a stray process, the OOM killer), a new one takes its
        place, core's lines kept to the same bound, and the log says so. Before,
        core's lines went into a pipe nobody read, lost without a word until the
        server stopped; then they went to the real stderr unbounded, where a
        client's flood of malformed headers wrote 490,000 of them (50 MB) in 2 s."""
        threading.Thread(target=self._watch, name="core-log-watch", daemon=True).start()

    def _watch(self) -> None:
        log = structlog.get_logger(LOGGER)
        while True:
            code = self.process.wait()
            with self._lock:
                if self._closing:
                    return
                replaced = self._replacements.take(time.monotonic()) and self._replace()
                if not replaced:
                    with contextlib.suppress(OSError):
                        os.dup2(self.real_fd, 2)
            if not replaced:
                log.warning(
                    "gRPC core's log reader stopped and could not be replaced; core's own"
                    " lines go to stderr unbounded until the server restarts",
                    logger=LOGGER,
                    exit_status=code,
                )
                return
            log.warning(
                "gRPC core's log reader stopped; a new one reads core's lines",
                logger=LOGGER,
                exit_status=code,
            )

    def _replace(self) -> bool:
        """A new reader on a new pipe, made descriptor 2; False if none could start."""
        started = _start_reader(self._fmt, self.real_fd)
        if started is None:
            return False
        self.process, write = started
        try:
            os.dup2(write, 2)
        except OSError:
            self.process.kill()
            return False
        finally:
            os.close(write)
        return True

    def close(self, seconds: float = LAST_WRITE_SECONDS + 1.0) -> None:
        """Descriptor 2 back to the real stderr (the pipe's last writer here
        gone), then waits at most `seconds` for the reader to write its last
        lines and exit: `serve` leaves no process behind."""
        with self._lock:
            self._closing = True
            with contextlib.suppress(OSError):
                os.dup2(self.real_fd, 2)
        _stop_resource_tracker()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(seconds)


def _stop_resource_tracker() -> None:
    """Ends multiprocessing's resource tracker, if this process started one
    (the web viewer's replay process does): started with descriptor 2, the
    pipe, it holds a writer of it until this process exits, so the reader
    read on and `close` waited its whole time, 3 s more for every `serve
    --web-port` stopped after a replay or a tournament page was shown."""
    tracker = sys.modules.get("multiprocessing.resource_tracker")
    if tracker is None:
        return
    with contextlib.suppress(Exception):  # private; a Python without it waits as before
        tracker._resource_tracker._stop()


def bound_core_log(fmt: str) -> CoreLog | None:
    """Descriptor 2 made the pipe to a reader process that bounds core's lines,
    `sys.stderr` (and faulthandler) moved to the real stderr; `fmt` "json" or
    "console", the log's format. Call before any thread starts and before gRPC
    is imported. None: it could not be done, and core writes to stderr unbound."""
    try:
        real = os.dup(2)
    except OSError:
        return None
    started = _start_reader(fmt, real)
    if started is None:
        os.close(real)
        return None
    process, write = started
    os.dup2(write, 2)
    os.close(write)
    errors_to(real)
    if faulthandler.is_enabled():
        faulthandler.enable(sys.stderr)
    return CoreLog(process, real, fmt)


def _start_reader(fmt: str, real_fd: int) -> tuple[subprocess.Popen[bytes], int] | None:
    """A reader process writing to `real_fd`, and the write end of its pipe;
    None if it could not be started."""
    try:
        read, write = os.pipe()
    except OSError:
        return None
    here = str(Path(__file__).resolve().parents[1])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])),
    }
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.core_log", fmt],
            stdin=read,
            stdout=real_fd,
            stderr=real_fd,
            env=env,
            start_new_session=True,  # a terminal's Ctrl-C or hang-up is the server's to take
        )
    except OSError:
        os.close(write)
        return None
    finally:
        os.close(read)
    return process, write


class TokenBucket:
    """At most `rate` a second after a burst of `burst`."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._last = now

    def take(self, now: float) -> bool:
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


def severity(line: bytes) -> str:
    """The level of one of core's lines, from its first letter: an error when it
    names none (an abort's message)."""
    found = _SEVERITY.match(line)
    return _LEVELS[found.group(1)] if found else "error"


# What `forward` hands a line to: its level, its text, and fields to log beside it.
Emit = Callable[..., None]


def forward(
    source: int,
    emit: Emit,
    *,
    rate: float = LINES_A_SECOND,
    burst: int = BURST_LINES,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Reads `source` until its end, handing its lines to `emit(level, text)`
    within the bound, and `emit("warning", DROPPED, dropped=n)` for those left
    out, once a second at most."""
    bucket = TokenBucket(rate, burst, clock())
    held: deque[bytes] = deque()  # over the bound, in the last second
    dropped = 0
    last_line = last_told = clock()
    pending = b""

    def emit_line(line: bytes) -> None:
        line = line.rstrip(b"\r")
        emit(severity(line), line.decode("utf-8", "backslashreplace"))

    def admit(line: bytes, now: float) -> None:
        """Emitted within the bound; else held as perhaps the last words."""
        nonlocal dropped
        if bucket.take(now):
            dropped += len(held)  # not the last words: a line came after them
            held.clear()
            emit_line(line)
        else:
            held.append(line)
            if len(held) > LAST_LINES:
                held.popleft()
                dropped += 1

    while True:
        ready, _, _ = select.select([source], [], [], 1.0)
        now = clock()
        if ready:
            data = os.read(source, 65_536)
            if not data:
                break
            pending += data
            *lines, pending = pending.split(b"\n")
            while len(pending) > MAX_LINE_BYTES:
                lines.append(pending[:MAX_LINE_BYTES])
                pending = pending[MAX_LINE_BYTES:]
            for line in lines:
                last_line = now
                admit(line, now)
        if held and now - last_line >= 1.0:
            dropped += len(held)  # a second with no line and no end: the writer lives on
            held.clear()
        if dropped and now - last_told >= 1.0:
            emit("warning", DROPPED, dropped=dropped)
            dropped, last_told = 0, now
    if pending:  # a last line with no end of line
        admit(pending, clock())
    if dropped:
        emit("warning", DROPPED, dropped=dropped)
    for line in held:  # the last words, after the count of those before them
        emit_line(line)


def main() -> None:
    """The reader: core's lines from standard input to the server's log on
    standard error, through the server's own log set-up (its JSON or console
    lines, and a queue whose stalled reader costs lines, counted, never a wait)."""
    for stop in STOP_SIGNALS:
        signal.signal(stop, signal.SIG_IGN)
    queue = configure_logging(sys.argv[1] if len(sys.argv) > 1 else "auto", "debug", queued=True)
    log = structlog.get_logger(LOGGER).bind(logger=LOGGER)

    def emit(level: str, text: str, **fields: object) -> None:
        log.log(logging.getLevelNamesMapping()[level.upper()], text, **fields)

    forward(0, emit)
    if queue is not None:
        queue.flush(LAST_WRITE_SECONDS)


if __name__ == "__main__":
    main()
