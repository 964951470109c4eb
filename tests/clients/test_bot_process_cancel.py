"""A bot program's run, cancelled while it kills the program, ends cancelled.

Python 3.11's `asyncio.wait_for`, which the kill waits with, drops a cancel
that races its result. The run then raised BotFailure("killed by SIGKILL")
instead: after repeated Ctrl-C, `sheepfold match` ended with asyncio.run's
"unhandled exception during asyncio.run() shutdown" and a traceback (seen once
in CI, tests/cli/test_interrupts.py)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

import pytest

from clients.launch import BotCommand, Launcher
from clients.launch.process import BotProcess


def test_a_run_cancelled_while_it_kills_its_program_ends_cancelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    killing = asyncio.Event()
    real_kill = BotProcess.kill

    async def kill_that_drops_a_cancel(self: BotProcess) -> None:
        await real_kill(self)
        killing.set()
        with contextlib.suppress(asyncio.CancelledError):  # as wait_for may drop one
            await asyncio.sleep(5)

    monkeypatch.setattr(BotProcess, "kill", kill_that_drops_a_cancel)
    command = BotCommand(
        (sys.executable, "-c", "raise SystemExit(3)"), str(tmp_path), "127.0.0.1:1"
    )

    async def cancelled_while_killing() -> asyncio.Task[None]:
        run = asyncio.create_task(Launcher().process(command).run())
        await asyncio.wait_for(killing.wait(), 30)
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)
        return run

    run = asyncio.run(cancelled_while_killing())
    assert run.cancelled(), run.exception()
