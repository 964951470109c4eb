"""Malformed HTTP sent to the viewer on its own (`sheepfold web`) is refused
with a 400 and told in one line, a few times: nothing routed aiohttp's log
there (as `serve --web-port` does), and it printed a traceback of ten lines
for every such request, as often as a client sent one."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.web.test_commands import free_port, wait_http
from tests.web.test_malformed_http_log import MALFORMED, sent_malformed

pytestmark = pytest.mark.e2e


def test_malformed_requests_to_the_viewer_alone_are_logged_in_a_line_and_counted() -> None:
    port = free_port()
    web = subprocess.Popen(
        [sys.executable, "-m", "cli", "web", "--server", "127.0.0.1:1", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/static/style.css")
        answers = sent_malformed(port)
    finally:
        web.send_signal(signal.SIGTERM)
        output, _ = web.communicate(timeout=20)
    assert answers == {b"HTTP/1.0 400 Bad Request", b"HTTP/1.0 414 Request-URI Too Long"}
    assert "Traceback" not in output, output[:2000]
    lines = [line for line in output.splitlines() if "Error handling request" in line]
    assert 2 <= len(lines) <= 20, "a client's repeats are logged a few times, then counted"
    assert any("LineTooLong: 400" in line for line in lines), lines


def test_the_viewer_alone_logs_json_lines_on_stderr_as_serve_does() -> None:
    """`sheepfold web` set up no logging: its lines went to stdout in
    structlog's default console form, whatever read its stderr, and it took
    no `--log-format` or `--log-level` as `serve` does."""
    port = free_port()
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "cli", "web", "--server", "127.0.0.1:1"),
            *("--port", str(port), "--log-format", "json", "--log-level", "info"),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/static/style.css")
        with socket.create_connection(("127.0.0.1", port)) as client:
            client.sendall(MALFORMED[0])
            assert client.recv(100).startswith(b"HTTP/1.0 414")  # its line too long
    finally:
        web.send_signal(signal.SIGTERM)
        output, errors = web.communicate(timeout=20)
    assert output == ""
    logged = [json.loads(line) for line in errors.splitlines() if line.startswith("{")]
    refused = [line for line in logged if line["event"].startswith("Error handling request")]
    assert refused and all(line["level"] == "warning" for line in refused), errors
    assert all("timestamp" in line for line in logged)
