"""Server subprocesses and what /proc says about them (Linux only).

`sheepfold serve` and the baseline server both log a JSON line with
`"event": "server started"` and the port; `start` waits for it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from server import launch
from server.launch import ServerProcess

ROOT = launch.ROOT
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def start(command: Sequence[str], timeout: float = 30.0, cwd: Path | None = None) -> ServerProcess:
    """Run `command` (in `cwd`, default the repository) and wait for its
    "server started" log line."""
    return launch.start(command, timeout=timeout, max_lines=1000, cwd=cwd)


def stop(server: ServerProcess) -> None:
    launch.stop(server, graceful=False)


def sheepfold_serve_command(db: str = ":memory:") -> list[str]:
    """`sheepfold serve` on a free port with the store `db` (default in memory), JSON logs."""
    return launch.serve_command("--db", db)


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
