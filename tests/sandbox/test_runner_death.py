"""A runner killed with SIGKILL takes its sandboxed bots with it (bwrap --die-with-parent)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from clients.launch import Launcher
from tests.conftest import ROOT
from tests.sandbox.test_hostile_bots import _processes_with


def _wait(condition, seconds: float) -> bool:
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
        # bwrap (outer and the sandbox's init) and the bot itself, all running: a runner
        # killed within the few ms while bwrap sets up can leave it behind (see the docs).
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
