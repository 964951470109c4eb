"""A trusted bot that leaves a process behind in a session of its own, holding
its stdout open: its own end is seen, and its pipes are closed, without waiting
for that process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from clients.launch import BotCommand, BotFailure, Launcher
from tests.conftest import ROOT

# Leaves a child in a session of its own that holds stdout and stderr open for
# 60 s (its pid written to `child.pid`), then exits with status argv[1].
LEAVER = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    with open("child.pid", "w") as file:
        file.write(str(os.getpid()))
    time.sleep(60)
    os._exit(0)
while not os.path.exists("child.pid"):
    time.sleep(0.01)
sys.exit(int(sys.argv[1]))
"""


def _stop_child(folder: Path) -> None:
    pid_file = folder / "child.pid"
    if pid_file.exists():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


@pytest.mark.parametrize("status", [1, 0])
def test_a_bot_that_ends_is_seen_to_end_while_its_child_holds_its_output(
    tmp_path: Path, status: int
) -> None:
    """A bot that crashed mid-match was once seen to end only when the process
    it left behind did: its seat was never handed to a stand-in."""
    (tmp_path / "leaver.py").write_text(LEAVER)
    command = BotCommand((sys.executable, "leaver.py", str(status)), str(tmp_path), "127.0.0.1:1")
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        sys.path.insert(0, {str(ROOT)!r})
        from clients.launch import BotCommand, BotFailure, Launcher
        command = BotCommand(*{(command.argv, command.folder, command.server)!r})
        try:
            asyncio.run(Launcher().process(command).run())
            print("ended 0")
        except BotFailure as failure:
            print("failed", failure.reason)
        """
    )
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=50
        )
    finally:
        _stop_child(tmp_path)
    elapsed = time.monotonic() - started
    assert elapsed < 20, elapsed
    expected = "ended 0" if status == 0 else "failed exit code 1"
    assert done.stdout.strip() == expected, done
    # The pipes left open once printed "Event loop is closed" and a traceback.
    assert "Traceback" not in done.stderr, done.stderr


def test_a_bot_killed_while_its_child_holds_its_output_is_let_go(tmp_path: Path) -> None:
    """Killed (its game over), the bot's run ends without waiting for its child."""
    (tmp_path / "leaver.py").write_text(LEAVER.replace("sys.exit(", "time.sleep(60) or sys.exit("))

    async def kill_it() -> None:
        bot = Launcher().process(
            BotCommand((sys.executable, "leaver.py", "0"), str(tmp_path), "127.0.0.1:1")
        )
        run = asyncio.create_task(bot.run())
        while not (tmp_path / "child.pid").exists():
            await asyncio.sleep(0.05)
        await bot.kill()
        with pytest.raises(BotFailure, match="killed by SIGKILL"):
            await asyncio.wait_for(run, 10)

    try:
        asyncio.run(kill_it())
    finally:
        _stop_child(tmp_path)
