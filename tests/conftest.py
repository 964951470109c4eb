"""Fixtures shared by the end-to-end tests: real servers on loopback ports."""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from clients.bots.random_bot import RandomBot
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import InProcessServer

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    address: str
    port: int
    log_lines: list[str]


def start_server_process(*extra: str, env: dict[str, str] | None = None) -> ServerProcess:
    """`sheepfold serve` as a subprocess on a free port; waits until it listens.

    Each server gets a fresh SQLite file unless `extra` names its own `--db`.
    """
    if "--db" not in extra:
        extra = ("--db", str(Path(tempfile.mkdtemp(prefix="sheepfold-")) / "server.db"), *extra)
    command = [
        sys.executable,
        "-m",
        "cli",
        "serve",
        "--port",
        "0",
        "--log-format",
        "json",
        *extra,
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
    )
    lines: list[str] = []
    deadline = time.monotonic() + 30
    assert process.stderr is not None
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
            # Keep draining stderr so a chatty server never blocks on a full pipe.
            threading.Thread(target=_drain, args=(process.stderr, lines), daemon=True).start()
            return ServerProcess(process, f"127.0.0.1:{port}", port, lines)
    process.kill()
    raise RuntimeError("sheepfold serve did not start:\n" + "".join(lines))


def _drain(stream: IO[str], lines: list[str]) -> None:
    for line in stream:
        lines.append(line)


def stop_server_process(server: ServerProcess) -> int:
    if server.process.poll() is None:
        server.process.terminate()
    try:
        return server.process.wait(15)
    finally:
        if server.process.poll() is None:
            server.process.kill()


# A test still running after this long is stuck. pytest's faulthandler_timeout
# (pyproject.toml, 300 s) dumps every thread's stack first; then this ends the
# run, so a hang fails at once instead of holding CI until its limit.
TEST_WATCHDOG_SECONDS = 330


@pytest.fixture(autouse=True)
def _watchdog() -> Iterator[None]:
    timer = threading.Timer(TEST_WATCHDOG_SECONDS, os._exit, args=(3,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@pytest.fixture
def server_process() -> Iterator[ServerProcess]:
    server = start_server_process()
    try:
        yield server
    finally:
        stop_server_process(server)


def random_opponent(
    server: InProcessServer, match_id: str, token: str, seed: int = 1
) -> concurrent.futures.Future:
    """A seeded random bot playing one seat, on the server's own event loop
    (async clients never get a loop of their own beside an in-process server:
    see server/inprocess.py). `.result(timeout)` waits for its match result."""
    return server.submit(play(RandomBot(seed), server.address, match_id, token))


@pytest.fixture
def inprocess_server() -> Iterator[InProcessServer]:
    with InProcessServer(ServerConfig()) as server:
        yield server
