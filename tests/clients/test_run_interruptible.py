"""`run_interruptible` as a library and as a program: an interrupted run gives
the caller its own signal handlers back; a command whose cleanup hangs can
still be ended by a signal once the cleanup has had its time."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

from clients.interrupts import run_interruptible
from tests.conftest import ROOT


async def _interrupted_by_itself() -> None:
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.sleep(5)


def test_an_interrupted_run_gives_the_caller_its_handlers_back() -> None:
    """A program calling it (a notebook, a test) once kept SIGINT, SIGTERM and
    SIGHUP ignored for good after one Ctrl-C."""

    def mine(signum: int, frame: object) -> None:
        pass

    before = signal.signal(signal.SIGTERM, mine)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_interruptible(_interrupted_by_itself())
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGTERM) is mine
        assert run_interruptible(asyncio.sleep(0, result=7)) == 7, "a second run runs"
    finally:
        signal.signal(signal.SIGTERM, before)


HANGING_CLEANUP = """
import asyncio, sys, threading, time
from clients import interrupts

interrupts.FORCE_AFTER_SECONDS = 1.0
interrupts.exit_when_interrupted()


async def main():
    # A thread of the loop's pool that will not end: the loop's shutdown waits for it.
    asyncio.get_running_loop().run_in_executor(None, time.sleep, 60)
    print("ready", flush=True)
    await asyncio.sleep(60)


def hang(args=None):
    try:
        interrupts.run_interruptible(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
    return 130


if sys.argv[1:] == ["cli"]:  # as a command of sheepfold's, named on its lines
    import cli.health
    from cli.main import main as sheepfold

    cli.health.run_health = hang  # `sheepfold health`, whose stopping hangs
    sheepfold(["health"])
else:
    hang()
"""


@pytest.mark.parametrize(
    ("how", "name"),
    [("library", "sheepfold"), ("cli", "sheepfold health")],
    ids=["library", "command"],
)
def test_a_command_whose_cleanup_hangs_still_ends_after_ctrl_c(how: str, name: str) -> None:
    """Later signals are ignored while the cleanup runs; one that hangs (the
    loop waiting for a thread that never ends) once kept the command for good.
    It ends FORCE_AFTER_SECONDS after Ctrl-C, however often Ctrl-C is pressed,
    with a line that names the command as its other lines do ("sheepfold
    health: interrupted"), where it once began "interrupted:" alone."""
    process = subprocess.Popen(
        [sys.executable, "-c", HANGING_CLEANUP, how],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        started = time.monotonic()
        while process.poll() is None and time.monotonic() - started < 20:
            process.send_signal(signal.SIGINT)
            time.sleep(0.05)
        assert process.poll() == 130, "still running 20 s after Ctrl-C"
        assert time.monotonic() - started >= 1.0, "ended inside the cleanup's time"
        assert process.stderr is not None
        lines = process.stderr.read().strip().splitlines()
        assert lines == [f"{name}: interrupted: still stopping 1 s after Ctrl-C; stopping at once"]
    finally:
        process.kill()
        process.wait()
        # Its text pipes too: left to the collector, they once warned
        # "ResourceWarning: unclosed file" in whichever later test collected them.
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
