"""`tournament report` on a database another process holds locked waits for the
lock; that wait is not bootstrap time, so the progress line's ETA does not
count it (it once said hours for a bootstrap of a second)."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

from tests.cli.helpers import command
from tests.conftest import ROOT

CUP = """
name = "cup"
game = "sheep-showdown"
players = 2
games_per_pairing = 2
database = "cup.sqlite"

[[bots]]
name = "a"
builtin = "random"

[[bots]]
name = "b"
builtin = "random"
"""

LOCK_SECONDS = 4.0


def _hold_locked(database: Path, held: threading.Event) -> None:
    connection = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    try:
        connection.execute("BEGIN EXCLUSIVE")
        held.set()
        time.sleep(LOCK_SECONDS)
        connection.execute("ROLLBACK")
    finally:
        connection.close()


def _eta_seconds(line: str) -> int:
    fields = [int(part) for part in line.rsplit("ETA ", 1)[1].split(":")]
    return sum(value * 60**power for power, value in enumerate(reversed(fields)))


def test_a_wait_for_the_lock_is_not_counted_in_the_bootstrap_eta(tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(CUP)
    played = subprocess.run(
        command("tournament", "run", str(config), "--no-report"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    database = tmp_path / "cup.sqlite"
    held = threading.Event()
    holder = threading.Thread(target=_hold_locked, args=(database, held))
    holder.start()
    try:
        assert held.wait(10)
        done = subprocess.run(
            command("tournament", "report", "--db", str(database), "--bootstrap", "100"),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        holder.join()
    assert done.returncode == 0, done.stderr
    assert "Elo" in done.stdout
    etas = [_eta_seconds(line) for line in done.stderr.splitlines() if re.search(r"ETA \d", line)]
    assert all(eta < LOCK_SECONDS * 10 for eta in etas), done.stderr
