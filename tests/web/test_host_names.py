"""The viewer answers only to the host names it goes by: a page on another site
that points its own name at the viewer's address (DNS rebinding) gets a 403,
not the matches, the hands of finished matches or the tournament databases."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from urllib.parse import urlsplit

import pytest
from structlog.testing import capture_logs

from tests.conftest import ROOT, start_server_process, stop_server_process
from tests.web.test_commands import _web_command, free_port, wait_http
from web.host_names import HostNameError, allowed_host_name
from web.hosts import HostGuard, host_of
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


def fetch(url: str, host: str) -> tuple[int, str, str]:
    """GET `url` with `host` as its Host header; the status, content type and body."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest("GET", parts.path or "/", skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read().decode()
    finally:
        connection.close()


def test_a_page_renamed_to_reach_the_viewer_gets_a_403_everywhere(showcase: Showcase) -> None:
    match_id = showcase.finished["sheep-n-sheep"]
    for path in (
        "/",
        "/api/matches",
        f"/api/match/{match_id}/frames?view=all",
        f"/api/match/{match_id}/live",
        "/tournaments",
        "/static/match.js",
    ):
        status, kind, body = fetch(showcase.url + path, "attacker.example:8080")
        assert status == 403, (path, status)
        assert "attacker.example" in body and "--allowed-host" in body, body
        assert '"frames"' not in body and "data: " not in body
        if path.startswith("/api/"):
            assert kind.startswith("application/json")
            assert json.loads(body)["status"] == 403


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.0.0.1:{port}",
        "localhost:{port}",
        "LocalHost.",
        "viewer.localhost:{port}",
        "[::1]:{port}",
        "10.1.2.3",
    ],
)
def test_addresses_and_localhost_are_answered(showcase: Showcase, host: str) -> None:
    port = urlsplit(showcase.url).port
    status, _, body = fetch(showcase.url + "/api/matches", host.format(port=port))
    assert status == 200, body
    assert isinstance(json.loads(body), list)


def test_a_refused_host_name_is_logged_with_its_client(showcase: Showcase) -> None:
    with capture_logs() as logs:
        fetch(showcase.url + "/", "logged.example")
    refused = [entry for entry in logs if entry["event"] == "web request refused"]
    assert len(refused) == 1, logs
    assert refused[0]["host"] == "logged.example"
    assert refused[0]["client"] == "127.0.0.1"
    assert refused[0]["reason"] == "host name not allowed"


def test_a_guard_logs_a_name_it_keeps_refusing_once_in_a_while() -> None:
    guard = HostGuard()
    with capture_logs() as logs:
        for _ in range(100):
            assert guard.refusal("again.example", "127.0.0.1") is not None
    assert len(logs) == 20


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("Viewer.Example:8080", "viewer.example"),
        ("viewer.example.", "viewer.example"),
        ("[::1]:80", "::1"),
        ("[fe80::1]", "fe80::1"),
        ("127.0.0.1:1", "127.0.0.1"),
    ],
)
def test_the_name_of_a_host_header(header: str, name: str) -> None:
    assert host_of(header) == name


@pytest.mark.parametrize(
    "text", ["", "viewer.example:8080", "http://viewer.example", "a b", "é.fr"]
)
def test_a_name_no_host_header_could_carry_is_refused(text: str) -> None:
    with pytest.raises(HostNameError, match="not a host name"):
        allowed_host_name(text)


def test_the_web_command_answers_the_names_it_is_given() -> None:
    server = start_server_process()
    port = free_port()
    web = _web_command(
        server.address, port, "--allowed-host", "Viewer.Example", "--allowed-host", "b.example."
    )
    url = f"http://127.0.0.1:{port}/api/matches"
    try:
        wait_http(url)
        assert fetch(url, "viewer.example:443")[0] == 200
        assert fetch(url, "B.EXAMPLE")[0] == 200
        assert fetch(url, "c.example")[0] == 403
    finally:
        web.terminate()
        stopped = web.wait(15)
        stop_server_process(server)  # first: a failed assert here once left it running
        assert stopped == 0


def test_serve_answers_any_name_when_told_to() -> None:
    port = free_port()
    server = start_server_process("--web-port", str(port), "--web-allowed-host", "*")
    try:
        url = f"http://127.0.0.1:{port}/api/matches"
        wait_http(url)
        assert fetch(url, "anything.example")[0] == 200
    finally:
        assert stop_server_process(server) == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["web", "--allowed-host", "viewer.example:8080"],
        ["serve", "--web-port", "0", "--web-allowed-host", "https://viewer.example"],
    ],
    ids=["web", "serve"],
)
def test_an_allowed_host_with_a_port_or_scheme_is_a_usage_error(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "is not a host name" in done.stderr
    assert "Traceback" not in done.stderr
