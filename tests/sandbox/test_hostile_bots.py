"""Hostile bots in one real tournament: every attack is contained, the run completes.

One `sheepfold serve` (TCP and a Unix socket, an admin token, its own
database) and one `sheepfold tournament run` against it, as separate
processes, with a solo game so that every bot plays exactly one game, many at
once. The hostile bots attack the host; the well-behaved ones (a Python
program, a shell script, one trusted and unsandboxed) must play undisturbed.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.launch.cgroup import find_hierarchies
from server import launch
from tests.conftest import ROOT
from tests.processes import processes
from tournament.store import Store

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "bots" / "hostile" / "hostile_bot.py"
PROBES = (
    "network",
    "database",
    "write",
    "proc",
    "env",
    "shm",
    "kernel",
    "keyring",
    "devices",
    "procfs",
    "watches",
    "aio",
    "inodes",
)
CONTAINED = (*PROBES, "signal", "leftover")
STOPPED = {
    "forkbomb": "process limit",
    "memory": "memory limit",
    "cpu": "CPU limit",
    "output": "output limit",
}
# Memory a bot holds without mapping it is counted by a memory cgroup alone,
# which the launcher makes only as root, where a memory hierarchy is writable
# (CI runs so; an ordinary user's bots can hold it, see docs/operations.md).
if os.geteuid() == 0 and getattr(find_hierarchies(), "memory", None) is not None:
    STOPPED["memfd"] = "memory limit"
ADMIN_TOKEN = "admin-" + uuid.uuid4().hex


def _processes_with(mark: str) -> list[int]:
    return [pid for pid, _, cmdline in processes() if mark.encode() in cmdline]


def _config(tmp: Path, env: dict[str, str]) -> Path:
    env_line = "env = { " + ", ".join(f'{k} = "{v}"' for k, v in env.items()) + " }"
    bots = []
    for role in [*CONTAINED, *STOPPED]:
        bots.append(
            f'[[bots]]\nname = "{role}"\ncommand = ["{{python}}", "hostile_bot.py", "{role}"]\n'
            f'cwd = "{HOSTILE.parent}"\n{env_line}\n'
        )
        if role == "cpu":
            bots.append("sandbox = { cpu_seconds = 1 }\n")
    bots.append(
        f'[[bots]]\nname = "python"\ncommand = ["{{python}}", "command_bot.py"]\n'
        f'cwd = "{ROOT / "examples" / "command-bot"}"\n'
    )
    bots.append(
        f'[[bots]]\nname = "script"\ncommand = ["./script_bot.sh", "{{python}}"]\n'
        f'cwd = "{HERE / "bots" / "script"}"\n'
    )
    bots.append('[[bots]]\nname = "trusted"\ncommand = ["{python}", "-m", "cli", "bot"]\n')
    bots.append(f'cwd = "{ROOT}"\nsandbox = false\n')
    path = tmp / "config" / "hostile.toml"
    path.parent.mkdir()
    path.write_text(
        'game = "stubborn-sheep"\nplayers = 1\ngames_per_pairing = 1\nconcurrency = 6\n'
        f'decision_seconds = 20.0\nbootstrap = 10\ndatabase = "{tmp / "results.sqlite"}"\n'
        + "".join(bots)
    )
    return path


@pytest.fixture
def other_port() -> Iterator[socket.socket]:
    """A loopback port the bots have no business reaching."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    yield listener
    listener.close()


def test_probes_notice_real_access_when_unsandboxed(
    tmp_path: Path, other_port: socket.socket
) -> None:
    """Control: outside the sandbox every probe does find what it looks for."""
    db = tmp_path / "some.sqlite"
    db.write_bytes(b"SQLite format 3\0")
    canary = tmp_path / "canary"
    canary.mkdir()
    env = {
        **os.environ,
        "TARGET_PORT": str(other_port.getsockname()[1]),
        "OTHER_PORT": str(other_port.getsockname()[1]),
        "TARGET_DB": str(db),
        "SERVER_DB": str(db),
        "CANARY_DIR": str(canary),
        "SHEEPFOLD_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    for role in PROBES:
        if role == "shm" and shutil.disk_usage("/dev/shm").free < 200 * 1024 * 1024:
            continue  # a container's own /dev/shm (64 MB by default) would stop it too
        if role in ("kernel", "devices", "procfs") and os.geteuid() != 0:
            continue  # only root may write the kernel's settings, in or out of a sandbox
        done = subprocess.run(
            [sys.executable, str(HOSTILE), role, "--probe"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=180,  # `inodes` makes 100,000 files on a disk, once 30 s on a busy machine
            check=False,
        )
        assert done.returncode == 3 and "ESCAPED" in done.stderr, (role, done.stderr)
    mark = f"sheepfold-control-{uuid.uuid4().hex}"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", mark])
    try:
        deadline = time.monotonic() + 10
        while not _processes_with(mark) and time.monotonic() < deadline:
            time.sleep(0.02)  # until the child has exec'd
        assert _processes_with(mark) == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()


def test_hostile_bots_are_contained_and_the_tournament_completes(
    tmp_path: Path, other_port: socket.socket, sandbox_ready: None
) -> None:
    socket_path = tmp_path / "arena.sock"
    server_db = tmp_path / "server.db"
    server = launch.start(
        launch.serve_command(
            "--listen",
            "127.0.0.1:0",
            "--listen",
            f"unix:{socket_path}",
            "--db",
            str(server_db),
            "--admin-token",
            ADMIN_TOKEN,
            "--private-replays",  # as a tournament's server should be: see docs/tournament.md
        )
    )
    canary = tmp_path / "canary"
    canary.mkdir(mode=0o777)
    mark = f"sheepfold-leftover-{uuid.uuid4().hex}"
    config = _config(
        tmp_path,
        {
            "TARGET_PORT": str(server.port),
            "OTHER_PORT": str(other_port.getsockname()[1]),
            "TARGET_DB": str(tmp_path / "results.sqlite"),
            "SERVER_DB": str(server_db),
            "CANARY_DIR": str(canary),
            "LEFTOVER_MARK": mark,
        },
    )
    try:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "cli",
                "tournament",
                "run",
                str(config),
                "--server",
                f"unix:{socket_path}",
                "--no-report",
            ],
            cwd=ROOT,
            env={**os.environ, "SHEEPFOLD_ADMIN_TOKEN": ADMIN_TOKEN},
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert server.process.poll() is None, "the server died"
    finally:
        launch.stop(server)
    # The tournament completes; the bots stopped by a limit crashed in every game
    # they played, so the run ends with exit 1 and one summary line for each.
    assert run.returncode == 1, run.stderr[-3000:]
    summary = [line for line in run.stderr.splitlines() if "crashed in every one" in line]
    assert sorted(line.split("'")[1] for line in summary) == sorted(STOPPED), summary

    with Store(tmp_path / "results.sqlite") as store:
        record = store.tournament()
        games = store.games(record.id)
        # Fetched from a server with private replays, with the runner's token.
        assert len(store.replays()) == len(games)
    assert len(games) == record.scheduled == len(CONTAINED) + len(STOPPED) + 3
    assert "lets anyone list and replay" not in run.stderr
    outcome = {}
    for game in games:
        (seat,) = game.seats
        crashes = json.loads(game.details_json).get("crashes", {})
        outcome[seat.bot] = (seat.failure, seat.strikes, crashes.get("0", ""))
    for role in (*CONTAINED, "python", "script", "trusted"):
        assert outcome[role] == (None, 0, ""), (role, outcome[role])
    for role, reason in STOPPED.items():
        failure, _, why = outcome[role]
        assert failure == "crash" and why.startswith(reason), (role, outcome[role])

    with sqlite3.connect(tmp_path / "results.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert list(canary.iterdir()) == []
    assert not list((HOSTILE.parent).glob("escaped*"))
    with pytest.raises(BlockingIOError):
        other_port.accept()  # nobody connected to the other loopback port
    assert _processes_with(mark) == [], "a bot's background process outlived its game"
    assert not _processes_with("hostile_bot.py"), "hostile bot processes are still running"

    report = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "tournament",
            "report",
            "--db",
            str(tmp_path / "results.sqlite"),
            "--format",
            "json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(report.stdout)["unsandboxed"] == ["trusted"]
