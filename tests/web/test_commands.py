"""`sheepfold serve --web-port` and `sheepfold web`, run as a user runs them."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, start_server_process, stop_server_process

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_serve_with_web_port_runs_both_in_one_process() -> None:
    port = free_port()
    server = start_server_process("--web-port", str(port))
    try:
        page = wait_http(f"http://127.0.0.1:{port}/")
        assert "Matches" in page and "Sheep Showdown" in page
        assert json.loads(wait_http(f"http://127.0.0.1:{port}/api/matches")) == []
    finally:
        assert stop_server_process(server) == 0


def test_web_command_in_front_of_a_server(tmp_path: Path) -> None:
    server = start_server_process()
    port = free_port()
    web = subprocess.Popen(
        [sys.executable, "-m", "cli", "web", "--server", server.address, "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "Matches" in wait_http(f"http://127.0.0.1:{port}/")
    finally:
        web.terminate()
        assert web.wait(15) == 0
        stop_server_process(server)


def test_web_command_names_a_missing_tournament_db(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "web", "--tournament-db", str(tmp_path / "none.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "no tournament database at" in done.stderr and "Traceback" not in done.stderr
