"""Server subprocesses and what /proc says about them (Linux only).

`sheepfold serve` and the baseline server both log a JSON line with
`"event": "server started"` and the port; `start` waits for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    address: str
    log_lines: list[str]

    @property
    def pid(self) -> int:
        return self.process.pid


def start(command: Sequence[str], timeout: float = 30.0) -> ServerProcess:
    """Run `command` and wait for its "server started" log line."""
    process = subprocess.Popen(
        list(command),
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert process.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line)
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if entry.get("event") == "server started":
            # Keep draining stderr so a chatty server never blocks on a full pipe.
            threading.Thread(target=_drain, args=(process.stderr, lines), daemon=True).start()
            return ServerProcess(process, f"127.0.0.1:{int(entry['port'])}", lines)
    process.kill()
    process.wait()
    raise RuntimeError(f"{' '.join(command)} did not start:\n" + "".join(lines[-20:]))


def _drain(stream: IO[str], lines: list[str]) -> None:
    for line in stream:
        if len(lines) < 1000:  # enough to explain a failure, bounded for long runs
            lines.append(line)


def stop(server: ServerProcess) -> None:
    if server.process.poll() is None:
        server.process.kill()
    server.process.wait(15)


def sheepfold_serve_command() -> list[str]:
    """`sheepfold serve` on a free port with an in-memory store, JSON logs."""
    command = [sys.executable, "-m", "cli", "serve", "--port", "0", "--log-format", "json"]
    if serve_has_flag("--db"):
        command += ["--db", ":memory:"]
    return command


def serve_has_flag(flag: str) -> bool:
    help_text = subprocess.run(
        [sys.executable, "-m", "cli", "serve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return flag in help_text


@dataclass(frozen=True, slots=True)
class ProcSample:
    """CPU seconds (user + system) and resident bytes of one process."""

    cpu_seconds: float
    rss_bytes: int


def sample(pid: int) -> ProcSample:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        # Fields after the command name, which is in parentheses and may hold spaces.
        fields = f.read().rpartition(")")[2].split()
    utime, stime = int(fields[11]), int(fields[12])
    with open(f"/proc/{pid}/statm", encoding="ascii") as f:
        resident_pages = int(f.read().split()[1])
    return ProcSample((utime + stime) / _CLOCK_TICKS, resident_pages * _PAGE_BYTES)
