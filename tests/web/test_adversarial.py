"""What an outside client can try against a running viewer, beyond the pages
a browser asks for: odd methods on the event streams, and the like."""

from __future__ import annotations

import http.client
import shutil
import socket
import sqlite3
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import start_server_process, stop_server_process
from tests.web.test_commands import _web_command, free_port, wait_http
from tournament import store_schema
from web.app import RunningWeb, WebConfig, start_web
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("accept_encoding", ["", "gzip"])
@pytest.mark.parametrize("stream", ["matches", "finished-live"])
def test_a_head_request_for_an_event_stream_gets_its_headers_only(
    showcase: Showcase, stream: str, accept_encoding: str
) -> None:
    """HEAD on a stream once wrote the stream's bytes after the headers (the
    gzip header, the list, `event: end`), so the next answer on the same
    connection began mid-stream (a proxy reusing the connection would hand one
    client another's bytes), or never came (the list's stream never ends)."""
    path = (
        "/api/matches/events"
        if stream == "matches"
        else f"/api/match/{showcase.finished['sheep-showdown']}/live"
    )
    host, port = showcase.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as connection:
        # The HEAD, and a GET after it on the same connection, as a proxy may send.
        connection.sendall(
            f"HEAD {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: {accept_encoding}\r\n\r\n"
            f"GET /api/matches HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        )
        received = b""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and received.count(b"HTTP/1.1 ") < 2:
            try:
                piece = connection.recv(1 << 16)
            except TimeoutError:
                break
            if not piece:
                break
            received += piece
    head, _, rest = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head, head
    # Nothing after the HEAD's headers but the next answer (or the connection closed).
    assert rest == b"" or rest.startswith(b"HTTP/1.1 200"), rest[:200]


def get(url: str, timeout: float = 30) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def _status(url: str) -> int:
    return get(url, timeout=15)[0]


def test_the_viewer_answers_again_soon_after_the_game_server_comes_back(
    tmp_path: Path,
) -> None:
    """The viewer's channel to the game server once backed off as gRPC does by
    default, longer after every failed attempt up to 2 minutes: a game server
    away for 3 minutes was answered 502 for 81 s after it came back (30 s
    away: 8 to 18 s). Now it tries again at least every 2 s."""
    db = tmp_path / "server.db"
    port = free_port()
    server = start_server_process("--port", str(port), "--db", str(db))
    web_port = free_port()
    viewer = _web_command(f"127.0.0.1:{port}", web_port)
    url = f"http://127.0.0.1:{web_port}/api/matches"
    try:
        wait_http(url)
        stop_server_process(server)
        away = time.monotonic() + 30  # asked all the while, as open pages do
        while time.monotonic() < away:
            down = _status(url)
            time.sleep(0.5)
        assert down == 502
        server = start_server_process("--port", str(port), "--db", str(db))
        back = time.monotonic()
        while _status(url) != 200:
            assert time.monotonic() - back < 20, "the viewer still cannot reach the game server"
            time.sleep(0.1)
        assert time.monotonic() - back < 4, f"502 for {time.monotonic() - back:.1f} s"
    finally:
        viewer.terminate()
        viewer.wait(15)
        stop_server_process(server)


def _viewer_of_a_copy(showcase: Showcase, copy: Path) -> tuple[str, RunningWeb]:
    """A viewer of a copy (at `copy`) of the showcase's first tournament
    database, and the match id of one of its games."""
    shutil.copy(showcase.tournament_dbs[0], copy)
    with sqlite3.connect(copy) as connection:
        (match_id,) = connection.execute("SELECT match_id FROM games LIMIT 1").fetchone()
    connection.close()
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (copy,)), "127.0.0.1", 0)
    )
    return match_id, viewer


def _tournament_urls(base: str, match_id: str) -> list[str]:
    return [
        f"{base}/tournaments",
        f"{base}/tournaments/0/showcase",
        f"{base}/tournaments/0/showcase/match/{match_id}",
        f"{base}/api/tournaments/0/showcase/match/{match_id}/frames?view=all",
    ]


def test_tournament_pages_read_the_database_while_the_runner_writes_to_it(
    showcase: Showcase, tmp_path: Path
) -> None:
    """The viewer opened each tournament database read-write and took its write
    lock (BEGIN IMMEDIATE) on every read: while the runner held the lock (as it
    does storing a game) every tournament page waited 30 s and was a 500, and
    a viewer took the lock from the runner in turn. It reads only now."""
    copy = tmp_path / "running.db"
    match_id, viewer = _viewer_of_a_copy(showcase, copy)
    runner = sqlite3.connect(copy, isolation_level=None)
    try:
        runner.execute("BEGIN IMMEDIATE")  # the runner in the middle of storing a game
        runner.execute("UPDATE tournaments SET updated_at = updated_at")
        for url in _tournament_urls(f"http://127.0.0.1:{viewer.port}", match_id):
            started = time.monotonic()
            status, _, body = get(url, timeout=10)
            assert status == 200, (url, body[:300])
            assert time.monotonic() - started < 5, url
        runner.execute("COMMIT")
    finally:
        runner.close()
        showcase.server.run(viewer.stop())


def test_a_tournament_database_of_an_older_sheepfold_is_named_and_left_as_it_is(
    showcase: Showcase, tmp_path: Path
) -> None:
    """Reading an older database, the viewer once upgraded its tables (behind
    the back of a runner of that version that may be using it)."""
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as connection:
        connection.executescript(store_schema.MIGRATIONS[0])
        connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        connection.execute("INSERT INTO schema_version (version) VALUES (1)")
        connection.execute(
            "INSERT INTO tournaments (name, game, players, options_json, scheduled, config_json,"
            " created_at, updated_at) VALUES ('old', 'sheep-showdown', 2, '{}', 2, '{}', 1, 1)"
        )
    connection.close()
    before = old.read_bytes()
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (old,)), "127.0.0.1", 0)
    )
    try:
        base = f"http://127.0.0.1:{viewer.port}"
        for url in (f"{base}/tournaments", f"{base}/tournaments/0/old"):
            status, _, body = get(url)
            assert "older sheepfold" in body and str(tmp_path) not in body, (url, body[-800:])
        status, _, body = get(f"{base}/api/tournaments/0/old/match/none/frames")
        assert status == 400 and "older sheepfold" in body
    finally:
        showcase.server.run(viewer.stop())
    assert old.read_bytes() == before


@pytest.mark.parametrize("name", ["night #2.db", "what?.db", "100%.db"])
def test_a_tournament_database_named_with_url_characters_is_read(
    showcase: Showcase, tmp_path: Path, name: str
) -> None:
    """The database was opened as a `file:` URI made of its bare path: a `#`,
    `?` or `%` in its name made it another file, and the page said it was not
    a SQLite database."""
    copy = tmp_path / name
    match_id, viewer = _viewer_of_a_copy(showcase, copy)
    try:
        for url in _tournament_urls(f"http://127.0.0.1:{viewer.port}", match_id):
            status, _, body = get(url)
            assert status == 200 and "not a SQLite" not in body, (url, body[-500:])
    finally:
        showcase.server.run(viewer.stop())


@pytest.mark.parametrize("path", ["/", "/api/matches", "/static/style.css"])
def test_a_method_not_allowed_says_which_are(showcase: Showcase, path: str) -> None:
    """A 405 must name the methods the resource takes (RFC 9110, 15.5.6); the
    viewer's own 405 page once dropped aiohttp's Allow header."""
    host, port = showcase.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("DELETE", path)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 405
        assert set(answer.headers.get("Allow", "").replace(" ", "").split(",")) == {"GET", "HEAD"}
        assert answer.headers["X-Frame-Options"] == "DENY"
    finally:
        connection.close()


def test_a_game_server_that_never_answers_is_named_on_the_error_page() -> None:
    """A game server that takes the connection and says nothing (a wrong
    port, a frozen program) runs out the viewer's 10 s deadline: the page was
    "504 · Error", which named neither the game server nor the gateway."""
    silent = socket.create_server(("127.0.0.1", 0))
    address = f"127.0.0.1:{silent.getsockname()[1]}"
    web_port = free_port()
    viewer = _web_command(address, web_port)
    try:
        wait_http(f"http://127.0.0.1:{web_port}/static/style.css")
        status, kind, body = get(f"http://127.0.0.1:{web_port}/", timeout=30)
    finally:
        viewer.terminate()
        viewer.wait(15)
        silent.close()
    assert kind.startswith("text/html"), kind
    heading = {502: "502 · Game server unreachable", 504: "504 · Game server not answering"}
    assert status in heading, (status, body[:500])
    assert heading[status] in body, body
    assert "the game server does not answer (ListGames)" in body, body


@pytest.mark.parametrize(
    "request_line",
    [b"CONNECT 127.0.0.1:443 HTTP/1.1", b"CONNECT / HTTP/1.1", b"OPTIONS * HTTP/1.1"],
)
def test_a_request_for_no_path_is_a_405_naming_the_methods(
    showcase: Showcase, request_line: bytes
) -> None:
    """CONNECT (a proxy's tunnel) and OPTIONS * (the server as a whole) name
    no page: they were a 404 saying "no page at ''", as if a link were cut."""
    port = int(showcase.url.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(request_line + b"\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 405 "), head
    assert b"\r\nAllow: GET,HEAD\r\n" in head.replace(b", ", b","), head
    assert b"no page at" not in body and b"GET and HEAD" in body
