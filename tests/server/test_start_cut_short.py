"""A server whose start is cut short (Ctrl-C as `sheepfold demo` or a
tournament starts its in-process server) is stopped there and then: gRPC's
finaliser once stopped it after the event loop had closed, printing a
traceback ("Task exception was never retrieved ... invalid state", or "Event
loop is closed") after the user's Ctrl-C."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.conftest import ROOT

# Cancels a start after 0, 1, 2, ... turns of the loop: every await of the
# start is cut at least once, and the last ones let it finish.
SCRIPT = textwrap.dedent(
    """
    import asyncio
    from server.inprocess import serving_here

    async def enter(started):
        async with serving_here():
            started.set()
            await asyncio.sleep(3600)

    async def main():
        for turns in range(12):
            started = asyncio.Event()
            task = asyncio.create_task(enter(started))
            for _ in range(turns):
                await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            print(turns, "started" if started.is_set() else "cut short", flush=True)

    asyncio.run(main())
    """
)


def test_a_start_cancelled_at_any_await_leaves_no_server_behind() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.endswith(("started", "cut short"))]
    assert len(lines) == 12, done.stdout[-3000:]
    assert "cut short" in lines[1] and "started" in lines[-1], lines
    for sign in ("Traceback", "never retrieved", "never awaited", "Exception ignored"):
        assert sign not in done.stderr + done.stdout, done.stderr[-3000:]
