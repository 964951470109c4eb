"""The lines gRPC's core writes to descriptor 2 in `serve`, kept to a bound.

gRPC's C core writes its own lines, not JSON, straight to descriptor 2, one a
call for some of a client's mistakes (a malformed `grpc-timeout` header: one
connection wrote 158,000 lines in 2 s), one a failed TLS handshake. In `serve`
descriptor 2 becomes the write end of a pipe before gRPC starts; the server's
own log (server/logs.py, Python's tracebacks, faulthandler) goes on writing to
the real stderr, a copy of the old descriptor 2. A small process of its own
reads the pipe and writes core's lines to the real stderr, at most
`LINES_A_SECOND` a second after a burst of `BURST_LINES`, with one warning a
second saying how many it dropped.

The reader is a process, not a thread, so that what core writes as the server
dies (an abort's "assertion failed") is still read: it ignores the stop
signals and reads until every writer of the pipe is gone. The lines of the
last second before that end are written whatever the bound, since they may
say why the server died.

Run as `python -m cli.core_log json|console`: the reader itself.
"""

from __future__ import annotations

import contextlib
import datetime
import faulthandler
import json
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

from cli.standard_streams import errors_to

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
# Lines the reader holds for a real stderr that does not read: past this many a
# line is dropped and counted, and the pipe is still read, so core never waits.
WAITING_LINES = 1_000
# The lines that arrived over the bound in the last second before the pipe's
# end, at most this many, are written anyway: an abort's last words.
LAST_LINES = 50
# How long the reader tries to write its last lines to a real stderr that does
# not read, once the server is gone; and how long `serve` waits for the reader.
LAST_WRITE_SECONDS = 2.0
LOGGER = "grpc-core"
# Core's lines begin with their severity: E1206 00:12:31.123456  4242 file.cc:12] ...
_SEVERITY = re.compile(rb"([DIWEF])\d{4} ")
_LEVELS = {b"D": "debug", b"I": "info", b"W": "warning", b"E": "error", b"F": "critical"}


class CoreLog:
    """The reader process of core's lines, and the real stderr it writes to."""

    def __init__(self, process: subprocess.Popen[bytes], real_fd: int) -> None:
        self.process = process
        self.real_fd = real_fd

    def close(self, seconds: float = LAST_WRITE_SECONDS + 1.0) -> None:
        """Descriptor 2 back to the real stderr (the pipe's last writer here
        gone), then waits at most `seconds` for the reader to write its last
        lines and exit: `serve` leaves no process behind."""
        with contextlib.suppress(OSError):
            os.dup2(self.real_fd, 2)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(seconds)


def bound_core_log(fmt: str) -> CoreLog | None:
    """Descriptor 2 made the pipe to a reader process that bounds core's lines,
    `sys.stderr` (and faulthandler) moved to the real stderr; `fmt` "json" or
    "console", the log's format. Call before any thread starts and before gRPC
    is imported. None: it could not be done, and core writes to stderr unbound."""
    try:
        real = os.dup(2)
    except OSError:
        return None
    read, write = os.pipe()
    here = str(Path(__file__).resolve().parents[1])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])),
    }
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.core_log", fmt],
            stdin=read,
            stdout=real,
            stderr=real,
            env=env,
            start_new_session=True,  # a terminal's Ctrl-C or hang-up is the server's to take
        )
    except OSError:
        os.close(real)
        os.close(write)
        return None
    finally:
        os.close(read)
    os.dup2(write, 2)
    os.close(write)
    errors_to(real)
    if faulthandler.is_enabled():
        faulthandler.enable(sys.stderr)
    return CoreLog(process, real)


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


def _timestamp(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).isoformat().replace("+00:00", "Z")


def render_line(line: bytes, at: float, as_json: bool) -> bytes:
    """One of core's lines as written: as it was on a console; in a JSON log one
    JSON line like the server's own, `event` the line, `level` core's severity
    (an error when it names none: an abort's message), `logger` "grpc-core"."""
    line = line.rstrip(b"\r")
    if not as_json:
        return line + b"\n"
    found = _SEVERITY.match(line)
    entry = {
        "event": line.decode("utf-8", "backslashreplace"),
        "level": _LEVELS[found.group(1)] if found else "error",
        "logger": LOGGER,
        "timestamp": _timestamp(at),
    }
    return json.dumps(entry).encode() + b"\n"


def render_dropped(dropped: int, at: float, as_json: bool) -> bytes:
    event = "gRPC core log lines dropped"
    if not as_json:
        return f"{_timestamp(at)} [warning  ] {event} dropped={dropped} logger={LOGGER}\n".encode()
    entry = {
        "event": event,
        "dropped": dropped,
        "level": "warning",
        "logger": LOGGER,
        "timestamp": _timestamp(at),
    }
    return json.dumps(entry).encode() + b"\n"


class _Writer:
    """Writes lines to `fd` in a thread of its own, at most `capacity` waiting."""

    def __init__(self, fd: int, capacity: int) -> None:
        self._fd = fd
        self._capacity = capacity
        self._lines: deque[bytes] = deque()
        self._changed = threading.Condition()
        self._writing = False
        threading.Thread(target=self._write_lines, daemon=True).start()

    def put(self, line: bytes, *, always: bool = False) -> bool:
        with self._changed:
            if len(self._lines) >= self._capacity and not always:
                return False
            self._lines.append(line)
            self._changed.notify_all()
        return True

    def flush(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        with self._changed:
            while self._lines or self._writing:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._changed.wait(left)

    def _write_lines(self) -> None:
        while True:
            with self._changed:
                while not self._lines:
                    self._changed.wait()
                data = self._lines.popleft()
                self._writing = True
            try:
                while data:
                    data = data[os.write(self._fd, data) :]
            except OSError:
                pass  # a stderr that cannot be written: the line is lost, as the server's own
            finally:
                with self._changed:
                    self._writing = False
                    self._changed.notify_all()


def forward(
    source: int,
    target: int,
    as_json: bool,
    *,
    rate: float = LINES_A_SECOND,
    burst: int = BURST_LINES,
    clock: Callable[[], float] = time.monotonic,
    wall: Callable[[], float] = time.time,
) -> None:
    """Reads `source` until its end, writing its lines to `target` within the bound."""
    writer = _Writer(target, WAITING_LINES)
    bucket = TokenBucket(rate, burst, clock())
    held: deque[tuple[float, bytes]] = deque()  # over the bound, in the last second
    dropped = 0
    last_line = last_told = clock()
    pending = b""
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
                if bucket.take(now):
                    dropped += len(held)  # not the last words: a line came after them
                    held.clear()
                    if not writer.put(render_line(line, wall(), as_json)):
                        dropped += 1
                else:
                    held.append((wall(), line))
                    if len(held) > LAST_LINES:
                        held.popleft()
                        dropped += 1
        if held and now - last_line >= 1.0:
            dropped += len(held)  # a second with no line and no end: the writer lives on
            held.clear()
        if dropped and now - last_told >= 1.0:
            writer.put(render_dropped(dropped, wall(), as_json), always=True)
            dropped, last_told = 0, now
    if pending:  # a last line with no end of line
        if bucket.take(clock()):
            writer.put(render_line(pending, wall(), as_json), always=True)
        else:
            held.append((wall(), pending))
            if len(held) > LAST_LINES:
                held.popleft()
                dropped += 1
    if dropped:
        writer.put(render_dropped(dropped, wall(), as_json), always=True)
    for at, line in held:  # the last words, after the count of those before them
        writer.put(render_line(line, at, as_json), always=True)
    writer.flush(LAST_WRITE_SECONDS)


def main() -> None:
    for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, signal.SIG_IGN)
    forward(0, 1, sys.argv[1:2] == ["json"])


if __name__ == "__main__":
    main()
