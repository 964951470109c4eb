"""How a `--ray` run on a Ray instance of its own ends when something dies under
it, as a user runs it (the command, in a process of its own): the instance's
head (its GCS and raylet) killed mid-run, then the command itself killed
(SIGKILL); and the same command resumes what they left.

The run once waited 60 s after its head was gone, for Ray's own client to end
the process (exit 1, Ray's log lines); and Ray's agents outlived a killed
command by 60 s (waiting for the dead GCS) beside its session folder in /tmp/ray.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tournament.executors.ray_local import FOLDER_PREFIX

REPO = Path(__file__).resolve().parents[2]
GAMES = 8
# Before, 60 s and more each.
HEAD_LOST_ENDS_WITHIN = 15.0
KILLED_RUN_GONE_WITHIN = 10.0
# The folder of the run's Ray instance, as its processes' arguments name it.
FOLDER = re.compile(rb"(/[^\0=\s]*/" + re.escape(FOLDER_PREFIX.encode()) + rb"[^/\0\s]+)")

# Slow on Ray's workers (their current folder is Ray's copy of the config's
# folder), so a run can be killed mid-game; quick where the run resumes without Ray.
BOT = """
import os
import random
import time

PAUSE = 0.02 if "_ray_pkg_" in os.getcwd() else 0.0


class SlowBot:
    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def decide(self, decision):
        time.sleep(PAUSE)
        return self.rng.randrange(len(decision.actions))
"""


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for thread in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{thread}/children") as children:
                found += [int(child) for child in children.read().split()]
    except OSError:  # ended meanwhile
        pass
    return found


def _descendants(pid: int) -> dict[int, bytes]:
    """Every process under `pid`, with its command line."""
    found: dict[int, bytes] = {}
    todo = _children(pid)
    while todo:
        child = todo.pop()
        command = _command(child)
        if command is not None:
            found[child] = command
            todo += _children(child)
    return found


def _command(pid: int) -> bytes | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read()
    except OSError:
        return None


def _program(command: bytes) -> bytes:
    return command.split(b"\0")[0].rsplit(b"/", 1)[-1]


def _stored(db: Path) -> list[tuple[str, int]]:
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT key, COUNT(*) FROM games GROUP BY key").fetchall()
    except sqlite3.Error:  # not made yet
        return []


def _start(cup: Path, db: Path, home: Path, *ray: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cli", "tournament", "run", str(cup), "--db", str(db), *ray],
        cwd=REPO,
        env={**os.environ, "HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _once_stored(run: subprocess.Popen[str], db: Path, games: int) -> dict[int, bytes]:
    """The run's processes once it has stored more than `games` games."""
    deadline = time.monotonic() + 120
    while len(_stored(db)) <= games:
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "no game stored within 120 s"
        time.sleep(0.1)
    return _descendants(run.pid)


def test_a_lost_head_ends_the_run_in_seconds_a_killed_run_leaves_nothing_and_it_resumes(
    tmp_path: Path,
) -> None:
    (tmp_path / "cup").mkdir()
    (tmp_path / "cup" / "slow.py").write_text(BOT)
    cup = tmp_path / "cup" / "cup.toml"
    cup.write_text(
        textwrap.dedent(
            f"""\
            game = "sheep-showdown"
            players = 2
            games_per_pairing = {GAMES // 2}
            bootstrap = 0
            python_path = ["."]
            [options]
            rounds = 1
            [[bots]]
            name = "a"
            class = "slow:SlowBot"
            [[bots]]
            name = "b"
            class = "slow:SlowBot"
            """
        )
    )
    db, home = tmp_path / "cup.sqlite", tmp_path / "home"
    home.mkdir()

    # The head goes: its GCS and raylet die.
    run = _start(cup, db, home, "--ray", "--ray-cpus", "1")
    processes = _once_stored(run, db, 0)
    head = [
        p for p, command in processes.items() if _program(command) in (b"gcs_server", b"raylet")
    ]
    assert len(head) == 2, processes
    for pid in head:
        os.kill(pid, signal.SIGKILL)
    lost = time.monotonic()
    try:
        _out, err = run.communicate(timeout=45)
    finally:
        run.kill()
    ended = time.monotonic() - lost
    assert run.returncode == 1, err
    assert "lost the Ray cluster's head" in err and "run the same command again" in err, err
    assert ended < HEAD_LOST_ENDS_WITHIN, f"the run ended {ended:.1f} s after its head was lost"
    kept = len(_stored(db))
    assert 0 < kept < GAMES

    # The same command resumes; killed in turn, it leaves no Ray process or folder.
    run = _start(cup, db, home, "--ray", "--ray-cpus", "1")
    processes = _once_stored(run, db, kept)
    folders = {path for command in processes.values() for path in FOLDER.findall(command)}
    assert len(folders) == 1, processes
    folder = Path(os.fsdecode(folders.pop()))
    run.kill()
    killed = time.monotonic()
    run.communicate()
    left = dict(processes)
    while left and time.monotonic() - killed < 60:
        left = {p: c for p, c in left.items() if _command(p) == c}
        time.sleep(0.1)
    gone = time.monotonic() - killed
    assert not left, f"alive 60 s after the run was killed: {list(left.values())}"
    assert gone < KILLED_RUN_GONE_WITHIN, f"its last Ray process ended {gone:.1f} s after it"
    assert not folder.exists()

    # Without Ray: the games left, each stored once.
    finished = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", "run", str(cup), "--db", str(db)],
        cwd=REPO,
        env={**os.environ, "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    stored = _stored(db)
    assert len(stored) == GAMES and {count for _key, count in stored} == {1}, stored
    assert not (home / ".ray").exists()
