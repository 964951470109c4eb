"""Start `sheepfold serve` (or any server that logs the same JSON start line)
as a child process and wait until it listens; used by the end-to-end tests and
the benchmarks, which need a real server in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    address: str
    port: int
    log_lines: list[str]
    reader: threading.Thread | None = None  # reads the rest of the log into log_lines

    @property
    def pid(self) -> int:
        return self.process.pid


def serve_command(*flags: str) -> list[str]:
    """`sheepfold serve` on a free loopback port with JSON logs, plus `flags`."""
    return [sys.executable, "-m", "cli", "serve", "--port", "0", "--log-format", "json", *flags]


def start(
    command: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    max_lines: int | None = None,
    cwd: Path | None = None,
) -> ServerProcess:
    """Run `command` and wait for its `{"event": "server started", "port": N}` line.

    The child's stderr is read for as long as it runs (so a chatty server never
    blocks on a full pipe) into `log_lines`, at most `max_lines` of them.
    """
    process = subprocess.Popen(
        list(command),
        cwd=cwd or ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
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
            port = int(entry["port"])
            reader = threading.Thread(
                target=_drain, args=(process.stderr, lines, max_lines), daemon=True
            )
            reader.start()
            return ServerProcess(process, f"127.0.0.1:{port}", port, lines, reader)
    process.kill()
    process.wait()
    process.stderr.close()
    raise RuntimeError(f"{' '.join(command)} did not start:\n" + "".join(lines[-40:]))


def _drain(stream: IO[str], lines: list[str], max_lines: int | None) -> None:
    """Read the log to its end, and close the pipe then: left open, it was
    closed by the garbage collector, with a ResourceWarning, in whatever ran
    at that moment (another test)."""
    with stream:
        for line in stream:
            if max_lines is None or len(lines) < max_lines:
                lines.append(line)


# How long `stop` waits, after the exit, for the log's last lines to be read.
LAST_LINES_SECONDS = 5.0


def stop(server: ServerProcess, *, graceful: bool = True, timeout: float = 15.0) -> int:
    """SIGTERM (or SIGKILL when not `graceful`) and wait; returns the exit code.
    By then `log_lines` holds what the server wrote as it stopped: the process
    can exit before the reader thread has read its last lines."""
    if server.process.poll() is None:
        if graceful:
            server.process.terminate()
        else:
            server.process.kill()
    try:
        return server.process.wait(timeout)
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
        if server.reader is not None:
            server.reader.join(LAST_LINES_SECONDS)
