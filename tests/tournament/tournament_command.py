"""`sheepfold tournament ...` run in this process, as the tests call it, or
in a process of its own that a test kills mid-run."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from cli.main import main

REPO = Path(__file__).resolve().parents[2]
# How long a killed run may take to store the games it is killed after.
STORING_SECONDS = 60


def tournament_main(argv: list[str]) -> int:
    """The exit status of `sheepfold tournament ARGV...`."""
    return main(["tournament", *argv])


def killed_after(games: int, database: Path, argv: list[str]) -> set[str]:
    """Start `sheepfold tournament ARGV...` in a process of its own, SIGKILL it
    once `database` holds at least `games` games, and return their keys."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "proto")])}
    runner = subprocess.Popen(
        [sys.executable, "-m", "cli", "tournament", *argv],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + STORING_SECONDS
        stored = 0
        while stored < games and time.monotonic() < deadline and runner.poll() is None:
            time.sleep(0.05)
            if database.exists():
                try:
                    with sqlite3.connect(database) as raw:
                        stored = raw.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                except sqlite3.OperationalError:
                    stored = 0  # tables not created yet
        assert runner.poll() is None, f"`tournament {argv[0]}` finished before it could be killed"
        runner.send_signal(signal.SIGKILL)
        runner.wait(10)
    finally:
        if runner.poll() is None:
            runner.kill()
    with sqlite3.connect(database) as raw:
        return {row[0] for row in raw.execute("SELECT key FROM games")}
