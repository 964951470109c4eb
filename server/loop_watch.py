"""How busy a server's event loop is, for its metrics.

One server runs on one event loop on one thread, and that thread is its
ceiling: once it is busy all the time, new calls are accepted slowly and round
trips grow (docs/performance.md). Two readings show how close it is:

- the loop thread's CPU time, read from the kernel when it is asked for (a
  scrape), so it costs nothing in between; its rate is the share of a core
  the loop uses, and stops rising once the loop is full;
- how late a timer set every `interval` seconds runs: the time the loop spent
  on other work before it could run it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

LAG_INTERVAL = 0.25  # seconds between two lag samples: four callbacks a second


class LoopWatch:
    """Samples the lateness of the running loop and knows its thread's CPU clock.

    `start` on the loop to watch; `cpu_seconds` may be called from any thread.
    """

    def __init__(self, on_lag: Callable[[float], None], interval: float = LAG_INTERVAL) -> None:
        self._on_lag = on_lag
        self._interval = interval
        self._timer: asyncio.TimerHandle | None = None
        self._clock: int | None = None
        self._final_cpu: float | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        getcpuclockid = getattr(time, "pthread_getcpuclockid", None)  # Unix only
        if getcpuclockid is not None:
            self._clock = getcpuclockid(threading.get_ident())
        self._schedule(loop)

    def stop(self) -> None:
        """Stop sampling; the CPU reading stays at what it is now (the thread's
        clock is not read after this, as the thread may end)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._clock is not None:
            self._final_cpu = time.clock_gettime(self._clock)
            self._clock = None

    def cpu_seconds(self) -> float | None:
        """CPU seconds the loop's thread has used (None before `start`, and where
        the platform cannot tell)."""
        clock = self._clock
        return self._final_cpu if clock is None else time.clock_gettime(clock)

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        # The loop's own clock may count in whole milliseconds (uvloop's does):
        # lateness is measured on the monotonic clock instead.
        due = time.monotonic() + self._interval
        self._timer = loop.call_later(self._interval, self._tick, loop, due)

    def _tick(self, loop: asyncio.AbstractEventLoop, due: float) -> None:
        self._on_lag(max(0.0, time.monotonic() - due))
        # Scheduled from now, not from `due`: a long stall is one late sample,
        # not a burst of catching-up ones.
        self._schedule(loop)
