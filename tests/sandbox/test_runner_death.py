"""A runner killed with SIGKILL takes its bots with it, whenever it dies: while
they play, and at any moment of their start-up."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from clients.launch import Launcher
from tests.conftest import ROOT
from tests.sandbox.test_hostile_bots import _processes_with

# A minimal runner: one bot through the launcher, started once the sandbox check is
# done. "starting" is printed just before the launcher forks, which the test times its
# SIGKILL from. Its check leaves the cgroups of killed runners alone (as root), so that
# no runner cleans up what an earlier one left behind before the test has looked.
RUNNER = """
import asyncio, sys
import clients.launch.process
from clients.launch import BotCommand, Launcher, SandboxPolicy

clients.launch.process.remove_stale = lambda where: None
socket, folder, mark, sandboxed = sys.argv[1:]
launcher = Launcher(socket)
if sandboxed == "yes":
    launcher.check()
program = (sys.executable, "-c", "import time; time.sleep(60)", mark)
policy = SandboxPolicy() if sandboxed == "yes" else None
bot = launcher.process(BotCommand(program, folder, "", sandbox=policy))
print("starting", flush=True)
asyncio.run(bot.run())
"""
# When the SIGKILL comes after "starting": bunched near 0 (an ordinary user's bot
# starts in a few ms on a fast machine), up to 60 ms (a root's takes tens of ms).
LAST_KILL_SECONDS = 0.06


def _wait(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_bots_die_with_the_runner(tmp_path: Path, sandbox_ready: None) -> None:
    mark = f"sheepfold-orphan-{uuid.uuid4().hex}"
    (tmp_path / "bot").mkdir()
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "stubborn-sheep"\nplayers = 1\n[[bots]]\nname = "sleeper"\n'
        f'command = ["{{python}}", "-c", "import time; time.sleep(600)", "{mark}"]\n'
        'cwd = "bot"\n'
    )
    runner = subprocess.Popen(
        [sys.executable, "-m", "cli", "tournament", "run", str(config), "--no-report"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # bwrap (outer and the sandbox's init) and the bot itself, all running.
        assert _wait(lambda: len(_processes_with(mark)) >= 3, 60), "the bot never started"
        time.sleep(0.5)
        os.kill(runner.pid, signal.SIGKILL)
        runner.wait(10)
        assert _wait(lambda: not _processes_with(mark), 10), "the bot outlived its runner"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    if os.geteuid() == 0:  # its cgroup is left behind; the next run removes it
        launcher = Launcher()
        launcher.check()
        hierarchies = launcher.cgroups
        assert hierarchies is not None
        for root in hierarchies.roots:
            assert not list(root.glob(f"sheepfold-bot-{runner.pid}-*"))


def _kill_runners_while_their_bots_start(folder: Path, sandboxed: bool, tries: int) -> list[float]:
    """Start `tries` runners one after another, each SIGKILLed a moment after it
    starts its bot; return the moments (ms) after which some of its start-up
    chain or the bot still ran a few seconds later."""
    socket = folder / "arena.sock"
    socket.touch()
    marks: dict[str, float] = {}
    for index in range(tries):
        delay = LAST_KILL_SECONDS * (index / (tries - 1)) ** 2
        mark = f"sheepfold-orphan-{uuid.uuid4().hex}"
        marks[mark] = round(delay * 1000, 1)
        runner = subprocess.Popen(
            [
                sys.executable,
                "-c",
                RUNNER,
                str(socket),
                str(folder),
                mark,
                "yes" if sandboxed else "no",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        try:
            assert runner.stdout is not None and runner.stdout.readline() == b"starting\n"
            time.sleep(delay)
        finally:
            runner.kill()
            runner.wait(10)
    _wait(lambda: not any(_processes_with(mark) for mark in marks), 3)
    leaked = [moment for mark, moment in marks.items() if _processes_with(mark)]
    for mark in marks:
        for pid in _processes_with(mark):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    return leaked


def test_a_runner_killed_while_its_sandboxed_bot_starts_leaves_nothing_running(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """bwrap's --die-with-parent holds only once bwrap and its sandbox are set up: a
    runner killed before (a few ms as an ordinary user, tens as root) left the bot
    running for ever (nearly all of these tries as root, about half as a user)."""
    try:
        leaked = _kill_runners_while_their_bots_start(tmp_path, sandboxed=True, tries=24)
    finally:
        if os.geteuid() == 0:
            Launcher().check()  # removes the killed runners' cgroups
    assert not leaked, f"killed {leaked} ms after the start, the bot outlived its runner"


def test_a_runner_killed_while_its_trusted_bot_starts_leaves_nothing_running(
    tmp_path: Path,
) -> None:
    """A trusted bot had no parent-death signal at all: nearly every try left it
    running. (Its own program, that is: what that starts is the bot's affair.)"""
    leaked = _kill_runners_while_their_bots_start(tmp_path, sandboxed=False, tries=12)
    assert not leaked, f"killed {leaked} ms after the start, the bot outlived its runner"
