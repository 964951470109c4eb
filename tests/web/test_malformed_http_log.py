"""Malformed HTTP sent to `serve --web-port` is refused with a 400 and told in
the server's JSON log in one line, a few times: aiohttp once logged a plain-text
traceback of ten lines for every such request, as often as a client sent one."""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.conftest import start_server_process, stop_server_process
from tests.web.test_commands import free_port, wait_http

pytestmark = pytest.mark.e2e

MALFORMED = (
    b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # a request line too long
    b"GET / HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n",  # a header without a colon
)


def sent_malformed(port: int, times: int = 30) -> set[bytes]:
    """The first lines of the answers to MALFORMED sent `times` over, each
    request on a connection of its own."""
    answers = set()
    for _ in range(times):
        for request in MALFORMED:
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(request)
                answers.add(client.recv(100).split(b"\r\n")[0])
    return answers


def test_malformed_requests_are_logged_as_json_lines_and_counted() -> None:
    port = free_port()
    server = start_server_process("--web-port", str(port))
    try:
        # The viewer starts listening after the gRPC server's start line.
        wait_http(f"http://127.0.0.1:{port}/static/style.css")
        answers = sent_malformed(port)
        time.sleep(0.5)  # the log is read on another thread
    finally:
        assert stop_server_process(server) == 0
    # The request line too long is a 414, the garbled one a 400.
    assert answers == {b"HTTP/1.0 400 Bad Request", b"HTTP/1.0 414 Request-URI Too Long"}
    entries = [json.loads(line) for line in server.log_lines]  # every line is JSON
    refusals = [e for e in entries if e.get("logger") == "aiohttp.server"]
    assert 2 <= len(refusals) <= 20, "a client's repeats are logged a few times, then counted"
    assert {e["level"] for e in refusals} == {"warning"}, "a client's mistake, not the server's"
    assert all("Traceback" not in e.get("error", "") for e in refusals)
    assert any(e["error"].startswith("LineTooLong: 400") for e in refusals)


def test_ranges_a_static_file_cannot_serve_as_one_get_it_whole_and_log_nothing() -> None:
    """Several ranges, or a Range that does not parse, get the whole file: the
    viewer once sent it and then logged aiohttp's "Unhandled exception" (the
    file answer tried to turn itself into a 416 after it was sent)."""
    port = free_port()
    server = start_server_process("--web-port", str(port))
    answers = []
    try:
        wait_http(f"http://127.0.0.1:{port}/static/style.css")
        for ranges in (b"bytes=a-b", b"bytes=0-0,5-5"):
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(
                    b"GET /static/match.js HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: "
                    + ranges
                    + b"\r\nConnection: close\r\n\r\n"
                )
                answer = b""
                while chunk := client.recv(65536):
                    answer += chunk
                answers.append(answer.split(b"\r\n")[0])
        time.sleep(0.5)  # the log is read on another thread
    finally:
        assert stop_server_process(server) == 0
    assert answers == [b"HTTP/1.1 200 OK"] * 2
    entries = [json.loads(line) for line in server.log_lines]
    assert not [e for e in entries if e["level"] in ("warning", "error")], entries
