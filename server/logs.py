"""structlog set-up (readable lines on a terminal, JSON lines in production), and
how often an event a client can repeat is logged."""

from __future__ import annotations

import logging
import math
import os
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import structlog

# Events a client can repeat at will (refusals, joins, watchers) are logged one
# by one this many times for a seat or a match, then one in a thousand, with the
# count so far: a client that keeps at it cannot fill the disk.
LOGGED_IN_FULL = 20


def worth_logging(count: int) -> bool:
    """Whether the `count`th of a repeatable event is logged."""
    return count <= LOGGED_IN_FULL or count % 1000 == 0


# And from every key together (every client address, say), at most this many
# such lines a minute for one kind of event: a client with many addresses got
# the first 20 of each logged in full, without end.
LINES_A_MINUTE = 300


class Counts:
    """How often a repeatable event happened, per key (a match id), for the
    `keep` keys seen last: a client cycling through keys costs no more memory.

    `due` also keeps the lines of the event from every key together to
    `lines_a_minute`, counting those it leaves out (`left_out`)."""

    def __init__(
        self,
        keep: int = 4096,
        lines_a_minute: int = LINES_A_MINUTE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._counts: OrderedDict[str, int] = OrderedDict()
        self._keep = keep
        self._lines_a_minute = lines_a_minute
        self._clock = clock
        self._minute_began = -math.inf
        self._lines_this_minute = 0
        self._left_out = 0

    def add(self, key: str) -> int:
        """Count one more for `key`; returns its count so far."""
        count = self._counts.pop(key, 0) + 1
        self._counts[key] = count
        if len(self._counts) > self._keep:
            self._counts.popitem(last=False)
        return count

    def due(self, key: str) -> int | None:
        """Count one more for `key`; its count so far when this one is to be
        logged (`worth_logging`, and within the minute's lines), else None."""
        count = self.add(key)
        if not worth_logging(count):
            return None
        now = self._clock()
        if now - self._minute_began >= 60.0:
            self._minute_began, self._lines_this_minute = now, 0
        if self._lines_this_minute >= self._lines_a_minute:
            self._left_out += 1
            return None
        self._lines_this_minute += 1
        return count

    def left_out(self) -> dict[str, int]:
        """`{"not_logged": n}`, the lines `due` left out for want of room since
        it last said so (nothing when none), as fields of the next line."""
        if not self._left_out:
            return {}
        told, self._left_out = self._left_out, 0
        return {"not_logged": told}


class LostLines:
    """Log lines that stderr would not take (a full disk under the log file, a
    closed pipe, a reader that stopped reading), counted until a line goes
    through again: a log that cannot be written costs its lines, never a call,
    a match or the server."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # counted by callers and by the writer thread
        self.count = 0
        self.error = ""

    def lost(self, error: BaseException | str) -> None:
        why = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        with self._lock:
            self.count += 1
            self.error = " ".join(why.split())[:200]

    def told(self) -> tuple[int, str] | None:
        """The lines lost since the last line written (and why), once."""
        with self._lock:
            if not self.count:
                return None
            told = (self.count, self.error)
            self.count, self.error = 0, ""
        return told


def _tell_lost(lost: LostLines) -> None:
    """After a line went through: one more saying how many were lost before it."""
    told = lost.told()
    if told is not None:
        structlog.get_logger("sheepfold").warning(
            "log lines lost: stderr could not be written", lost=told[0], error=told[1]
        )


# Lines waiting for stderr's reader in `serve`: past this many (a few MB), a new
# line is lost and counted instead of holding up the server.
QUEUED_LINES = 10_000
# How long `serve` waits, as it exits, for its last lines to be read.
FLUSH_SECONDS = 2.0
# How long the writer thread, having written, lets lines gather before it
# writes again: lines logged meanwhile are written together, in one write,
# instead of each waking the thread (about 15 us of the server's CPU a line,
# more than rendering it). A flush cuts it short.
GATHER_SECONDS = 0.05


class QueuedStderr:
    """A server's log lines, written to stderr in order by a thread of their own.

    A reader that stops reading without closing its pipe (a stuck log shipper,
    Docker's blocking log mode with its driver stalled) once blocked the first
    log call after the pipe's 64 KB filled, and with it the event loop: every
    match froze. Lines now wait here, at most `capacity` of them; past that a
    line is lost and counted, and once the reader reads again the lines waiting
    are written, followed by one saying how many were lost. The thread writes to
    the file descriptor, not through `sys.stderr`, whose lock a write stuck at
    the exit would hold while the interpreter flushes it.

    A line wakes the thread only when it waits for lines; having written, the
    thread lets the lines of the next `gather` seconds gather and writes them
    together (one write for all, each line on its own after a failed one).

    `around`, when set, is entered around each such write: a live status line
    on the same terminal (a tournament run's) is blanked before the lines and
    drawn again after them, where the lines once began at its end.
    """

    around: Callable[[], AbstractContextManager[object]] | None = None

    def __init__(
        self,
        fd: int,
        encoding: str,
        lost: LostLines,
        capacity: int,
        gather: float = GATHER_SECONDS,
    ) -> None:
        self._fd = fd
        self._encoding = encoding
        self._lost = lost
        self._capacity = capacity
        self._gather = gather
        self._lines: deque[str] = deque()
        self._changed = threading.Condition()
        self._writing = 0  # lines taken to be written, still waiting for the reader
        self._idle = False  # the writer waits for a line (a line must wake it)
        self._flushing = 0  # callers of `flush` waiting (the writer must not gather)
        self._writer = threading.Thread(target=self._write_lines, name="log writer", daemon=True)
        self._writer.start()

    def put(self, line: str) -> None:
        with self._changed:
            if threading.current_thread() is self._writer:
                # The count of lines lost, logged by the writer after a line went
                # through: written next, and never lost itself (its count would be).
                self._lines.appendleft(line)
            elif len(self._lines) + self._writing >= self._capacity:
                self._lost.lost(
                    f"stderr not read: {self._capacity} lines were waiting for its reader"
                )
                return
            else:
                self._lines.append(line)
            if self._idle:
                self._idle = False
                self._changed.notify_all()

    def flush(self, seconds: float) -> bool:
        """Waits at most `seconds` for the lines queued to be written; whether they were."""
        deadline = time.monotonic() + seconds
        with self._changed:
            self._flushing += 1
            self._changed.notify_all()  # the writer gathering lines writes them now
            try:
                while self._lines or self._writing:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._changed.wait(left)
            finally:
                self._flushing -= 1
        return True

    def _write_lines(self) -> None:
        while True:
            with self._changed:
                while not self._lines:
                    self._idle = True
                    self._changed.wait()
                self._idle = False
                lines = list(self._lines)
                self._lines.clear()
                self._writing = len(lines)
            try:
                around = self.around
                if around is None:
                    written = self._write_all(lines)
                else:
                    with around():
                        written = self._write_all(lines)
            finally:
                with self._changed:
                    self._writing = 0
                    self._changed.notify_all()
            if written:
                _tell_lost(self._lost)
            with self._changed:
                if not self._flushing:
                    self._changed.wait(self._gather)

    def _write_all(self, lines: list[str]) -> bool:
        """`lines` in one write. After a failed one, the line it cut is lost, as
        `_write` loses it, and each line after it is written on its own. Whether
        the last line went through."""
        encoded = [f"{line}\n".encode(self._encoding, "backslashreplace") for line in lines]
        data = b"".join(encoded)
        sent = 0
        try:
            while sent < len(data):
                sent += os.write(self._fd, data[sent:])
        except OSError as error:
            # The first line not wholly written, and where it starts.
            index, starts = 0, 0
            while starts + len(encoded[index]) <= sent:
                starts += len(encoded[index])
                index += 1
            if sent > starts:  # this line cut short
                self._lost.lost(error)
                index += 1
            written = False
            for one in encoded[index:]:
                written = self._write(one)
            return written
        return True

    def _write(self, data: bytes) -> bool:
        """One encoded line; whether it went through (else it is lost, and counted)."""
        try:
            while data:
                data = data[os.write(self._fd, data) :]
        except OSError as error:
            self._lost.lost(error)
            return False
        return True


class StderrLogger:
    """Writes each line to whatever `sys.stderr` is at that moment, or to the
    `QueuedStderr` of a server.

    structlog's PrintLogger keeps the file object it was made with; a logger
    bound in a long-lived match would then keep writing to a stream that may be
    replaced and closed since (a test's captured stderr), and the failed write
    would take the match loop down with it. A write stderr refuses (no space
    left, a pipe whose reader has gone) loses that line and nothing else: the
    next line that goes through is followed by one saying how many were lost.
    """

    def __init__(self, lost: LostLines, queue: QueuedStderr | None) -> None:
        self._lost = lost
        self._queue = queue

    def msg(self, message: str) -> None:
        if self._queue is not None:
            self._queue.put(message)
            return
        try:
            print(message, file=sys.stderr, flush=True)
        except (OSError, ValueError) as error:  # ValueError: stderr closed
            self._lost.lost(error)
            return
        _tell_lost(self._lost)

    log = debug = info = warn = warning = msg
    fatal = failure = err = error = critical = exception = msg


class _StderrLoggers:
    """structlog's logger factory: every logger shares one count of lost lines
    (and the queue, when there is one)."""

    def __init__(self, lost: LostLines, queue: QueuedStderr | None) -> None:
        self._lost = lost
        self._queue = queue

    def __call__(self, *_args: Any) -> StderrLogger:
        return StderrLogger(self._lost, self._queue)


def _queue_for_stderr(lost: LostLines) -> QueuedStderr | None:
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's captured stderr)
        return None
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    return QueuedStderr(fd, encoding, lost, QUEUED_LINES)


def configure_logging(
    fmt: str = "auto", level: str = "info", *, queued: bool = False
) -> QueuedStderr | None:
    """`fmt` is "console", "json" or "auto" (console on a terminal, else JSON).

    `queued` (the server): lines are written by a thread of their own, so a
    reader of stderr that stops reading costs lines, not the event loop; the
    queue is returned, to `flush` before the process exits. Otherwise each line
    is written as it is logged."""
    if fmt == "auto":
        fmt = "console" if sys.stderr.isatty() else "json"
    lost = LostLines()
    queue = _queue_for_stderr(lost) if queued else None
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=_colours_wanted())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping()[level.upper()]
        ),
        logger_factory=_StderrLoggers(lost, queue),
        cache_logger_on_first_use=False,
    )
    _route_library_logs(LIBRARY_LOGGERS)
    return queue


def _colours_wanted() -> bool:
    """Colours on the console log: on a terminal, unless it shows none
    (TERM=dumb: Emacs' shell buffer, a serial console) or the user asked for
    none (NO_COLOR set and not empty, https://no-color.org), where escape codes
    once filled every line."""
    return (
        sys.stderr.isatty() and os.environ.get("TERM") != "dumb" and not os.environ.get("NO_COLOR")
    )


# Libraries that log through the standard library: aiohttp (the web viewer)
# logs a traceback for every malformed request it refuses with a 400, which
# logging's last resort printed as plain text, ten lines each, into the JSON log.
# gRPC logs under "grpc" (grpc._server, grpc._cython.cygrpc: "ExecuteBatchError
# raised in core by servicer method", with a traceback, for a client that left
# as its answer was sent); the NullHandler gRPC puts on that logger dropped
# every such line, warnings and errors alike, without a word.
LIBRARY_LOGGERS = ("aiohttp", "grpc")


class _IntoStructlog(logging.Handler):
    """A library's log records as structlog events: one line each, the error
    named without its traceback, and a message a client can repeat at will
    logged as often as `worth_logging` says."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._counts = Counts(keep=256)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        total = self._counts.due(f"{record.name}:{message}")
        if total is None:
            return
        fields: dict[str, Any] = {"logger": record.name, "total": total, **self._counts.left_out()}
        error = record.exc_info[1] if record.exc_info else None
        level = record.levelno
        if error is not None:
            fields["error"] = " ".join(f"{type(error).__name__}: {error}".split())[:500]
            if _clients_doing(error):
                level = logging.WARNING
        log = structlog.get_logger(record.name)
        (log.error if level >= logging.ERROR else log.warning)(message, **fields)


# Errors a client causes at will, logged as warnings: aiohttp's refusal of a
# malformed request, and gRPC's failure to send an answer to a client that has
# left (its deadline passed, or it cancelled, as the answer went out).
_CLIENTS_DOING = ("HttpProcessingError", "ExecuteBatchError")


def _clients_doing(error: BaseException) -> bool:
    """Named, not imported: the server package does not depend on the web
    viewer's framework, nor on gRPC's private Cython module."""
    return any(cls.__name__ in _CLIENTS_DOING for cls in type(error).__mro__)


def _route_library_logs(names: tuple[str, ...]) -> None:
    for name in names:
        logger = logging.getLogger(name)
        for handler in [h for h in logger.handlers if isinstance(h, _IntoStructlog)]:
            logger.removeHandler(handler)
        logger.addHandler(_IntoStructlog())
        logger.propagate = False
