"""The event loop watch behind `sheepfold_event_loop_lag_seconds` and
`sheepfold_event_loop_cpu_seconds_total`, on both event loops a server runs on."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

import pytest

from server import loops
from server.loop_watch import LoopWatch


def spin(seconds: float) -> None:
    """Hold this thread busy for `seconds` of its own CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


@pytest.mark.parametrize("loop_name", loops.LOOPS)
def test_a_held_loop_shows_as_lag_and_its_threads_cpu_is_read_from_elsewhere(
    loop_name: str,
) -> None:
    lags: list[float] = []
    readings: dict[str, float | None] = {}
    other_thread = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    async def watched() -> None:
        watch = LoopWatch(lags.append, interval=0.02)
        assert watch.cpu_seconds() is None, "nothing to read before it starts"
        watch.start()
        await asyncio.sleep(0.3)  # a free loop: samples on time
        free = len(lags)
        # Read from another thread, as a scrape does: it must still be this thread's clock.
        readings["before"] = other_thread.submit(watch.cpu_seconds).result()
        spin(0.4)  # the loop held by work, not sleeping
        readings["after"] = other_thread.submit(watch.cpu_seconds).result()
        await asyncio.sleep(0.1)
        watch.stop()
        stopped = len(lags)
        await asyncio.sleep(0.1)
        readings["free"] = free
        assert len(lags) == stopped, "no sample after stop"

    loops.run(watched(), loop_name)
    other_thread.shutdown()
    free = int(readings["free"] or 0)
    assert free >= 5
    on_time = sorted(lags[:free])
    assert on_time[len(on_time) // 2] < 0.1, on_time
    # The sample due while the loop was held runs once, late by most of the hold.
    assert max(lags[free:]) >= 0.3, lags[free:]
    # 0.1 s of free loop after the hold is about five samples; catching up on the
    # 0.4 s held would have added twenty more.
    assert len(lags) - free <= 8, "a stall is one late sample, not a burst of them"
    before, after = readings["before"], readings["after"]
    assert before is not None and after is not None
    assert after - before >= 0.3, (before, after)


def test_after_stop_the_reading_stays_as_it_was() -> None:
    watch = LoopWatch(lambda _: None)

    async def briefly() -> None:
        watch.start()
        spin(0.05)
        watch.stop()
        stopped = watch.cpu_seconds()
        spin(0.05)
        assert watch.cpu_seconds() == stopped

    loops.run(briefly(), "asyncio")
    last = watch.cpu_seconds()
    assert last is not None and last >= 0.05
