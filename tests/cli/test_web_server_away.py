"""`sheepfold web` in front of a game server it cannot use yet: it starts (the
server may come up after its viewer) but says so in one line at start, where
it once started as if all were well and every page it served was a 502."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import command
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e


def _free_port() -> int:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        return holder.getsockname()[1]


def _viewer_lines(*args: str) -> tuple[list[str], int | None]:
    """The viewer's stderr lines once it has started (and had a moment to say
    more), and its exit status after a Ctrl-C."""
    viewer = subprocess.Popen(
        command("web", "--port", str(_free_port()), *args),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert viewer.stderr is not None
    try:
        deadline = time.monotonic() + 30
        first = viewer.stderr.readline()
        assert "http://127.0.0.1:" in first, first
        assert time.monotonic() < deadline
        time.sleep(0.5)
    finally:
        viewer.send_signal(signal.SIGINT)
        # Read through the stream already read from (communicate() would skip
        # what its buffer holds); the viewer stops on its Ctrl-C.
        rest = viewer.stderr.read()
        viewer.wait(timeout=30)
    return [first.rstrip("\n"), *rest.splitlines()], viewer.returncode


def test_a_viewer_in_front_of_no_server_says_so_at_start() -> None:
    lines, status = _viewer_lines("--server", "127.0.0.1:1")
    assert lines[1:] == [
        "sheepfold web: warning: the game server 127.0.0.1:1 does not answer yet "
        "(connection refused): every page says so until it does "
        "(is `sheepfold serve` running there?)"
    ]
    assert status == 0


def test_a_viewer_in_front_of_a_missing_socket_says_so_at_start(tmp_path: Path) -> None:
    path = tmp_path / "arena.sock"
    lines, _ = _viewer_lines("--server", f"unix:{path}")
    assert len(lines) == 2, lines
    assert lines[1].startswith(
        f"sheepfold web: warning: the game server unix:{path} does not answer yet ("
    ), lines


def test_a_viewer_with_tls_to_a_plaintext_server_says_so_at_start(
    server: ServerProcess,
) -> None:
    lines, _ = _viewer_lines("--server", server.address, "--tls")
    assert lines[1:] == [
        f"sheepfold web: warning: cannot use the game server at {server.address}: the TLS "
        "handshake failed: the server does not speak TLS (a plaintext server?); every page "
        "says so until that is put right"
    ]


def test_a_viewer_in_front_of_a_running_server_says_only_where_it_is(
    server: ServerProcess,
) -> None:
    lines, status = _viewer_lines("--server", server.address)
    assert len(lines) == 1, lines
    assert lines[0].endswith(f"(game server {server.address})")
    assert status == 0
