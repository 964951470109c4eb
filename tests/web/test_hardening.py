"""The viewer's answers are safe to put on a network and cheap under many
pages: security headers, no internal paths, gzip only where accepted, one
ListMatches and one report build shared by every page, and streams that drop
a client that does not read."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import shutil
import socket
import sqlite3
import time
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

from tests.web.test_http import get
from tournament.store import Store
from web import reports, responses, tournaments
from web.app import STATE, WebConfig, start_web
from web.hub import WatchHub
from web.listing import Listing
from web.pages import _layout
from web.responses import GZIP_HEADER, accepts_gzip, deflate_event, event_frame
from web.showcase import Showcase, start_showcase

pytestmark = pytest.mark.e2e


def headers_of(
    url: str, accept_encoding: str = "", more: dict[str, str] | None = None
) -> tuple[int, Any, bytes]:
    """Status, headers and body of a GET of `url`, with `more` request headers."""
    request = urllib.request.Request(
        url, headers={"Accept-Encoding": accept_encoding, **(more or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.mark.parametrize(
    "path", ["/", "/static/style.css", "/api/matches", "/tournaments", "/static/none.js"]
)
def test_every_answer_has_the_security_headers_and_hides_the_software(
    showcase: Showcase, path: str
) -> None:
    _, headers, _ = headers_of(showcase.url + path)
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "aiohttp" not in headers.get("Server", "") and "Python" not in headers.get("Server", "")


def test_the_live_streams_have_the_security_headers_too(showcase: Showcase) -> None:
    match_id = showcase.finished["sheep-showdown"]
    _, headers, _ = headers_of(f"{showcase.url}/api/match/{match_id}/live")
    assert headers["X-Frame-Options"] == "DENY" and headers["Server"] == "sheepfold"


def test_a_missing_static_file_is_the_404_page(showcase: Showcase) -> None:
    status, headers, body = headers_of(f"{showcase.url}/static/no-such-file.js")
    assert status == 404 and "text/html" in headers["Content-Type"]
    assert b"error-page" in body and b"no-such-file.js" in body
    status, _, _ = headers_of(f"{showcase.url}/static/%2E%2E/app.py")
    assert status == 404
    status, headers, _ = headers_of(f"{showcase.url}/static/match.js")
    assert status == 200 and "javascript" in headers["Content-Type"]
    for odd in ("a%00b", "a" * 300):  # a NUL byte, a name too long: no 500, no traceback
        status, _, body = headers_of(f"{showcase.url}/static/{odd}")
        assert status == 404 and b"error-page" in body


@pytest.mark.parametrize(
    ("header", "gzip_ok"),
    [
        ("gzip", True),
        ("gzip, deflate, br", True),
        ("x-gzip", True),
        ("GZIP;q=0.5", True),
        ("*", True),
        ("", False),
        ("identity", False),
        ("gzip;q=0", False),
        ("x-gzip;q=0", False),
        ("gzip;q=0.000, *", False),
        ("*;q=0", False),
        ("deflate, gzip;q=nonsense", False),
    ],
)
def test_accept_encoding_is_parsed_with_its_qualities(header: str, gzip_ok: bool) -> None:
    assert accepts_gzip(header) is gzip_ok


def test_the_matches_list_is_gzipped_only_for_clients_that_take_it(showcase: Showcase) -> None:
    status, headers, body = headers_of(f"{showcase.url}/api/matches", "gzip")
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    matches = json.loads(gzip.decompress(body))
    status, headers, plain = headers_of(f"{showcase.url}/api/matches", "gzip;q=0")
    assert status == 200 and headers.get("Content-Encoding") is None
    assert json.loads(plain) == matches
    # Only what the list page shows.
    assert set(matches[0]) == {
        "match_id", "game", "title", "players", "status", "moves", "to_move", "created_at",
        "result",
    }  # fmt: skip
    finished = next(m for m in matches if m["result"])
    assert set(finished["result"]) == {"scores", "ranks"}


def _open_matches_stream(showcase: Showcase, accept_encoding: str) -> http.client.HTTPConnection:
    host, port = showcase.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("GET", "/api/matches/events", headers={"Accept-Encoding": accept_encoding})
    return connection


def _first_event(response: http.client.HTTPResponse, decode: Any = lambda chunk: chunk) -> bytes:
    """The stream's first event, read as its chunks arrive (a read waiting
    more than 10 s for one is a timeout: the event did not come)."""
    text = b""
    while b"\n\n" not in text:
        chunk = response.read1(1 << 16)
        assert chunk, f"the stream ended after {text[:80]!r}"
        text += decode(chunk)
    return text.split(b"\n\n")[0]


@pytest.mark.parametrize("accept_encoding", ["gzip", "br;q=1, gzip;q=0.4", "x-gzip", "*"])
def test_the_matches_stream_is_gzipped_and_each_update_decodes_on_arrival(
    showcase: Showcase, accept_encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200 matches are about 44 KB an update and 6 KB gzipped. Each update is
    flushed: here the stream sends one and then waits an hour, so an update
    held back in the compressor until the next one would never be read."""
    assert showcase.web is not None
    monkeypatch.setattr(showcase.web.runner.app[STATE].matches, "poll_seconds", 3600.0)
    connection = _open_matches_stream(showcase, accept_encoding)
    try:
        response = connection.getresponse()
        assert response.status == 200
        assert response.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response.headers["Vary"]
        assert response.headers["Content-Type"].startswith("text/event-stream")
        event = _first_event(response, zlib.decompressobj(wbits=31).decompress)
    finally:
        connection.close()
    assert event.startswith(b"data: [")
    listed = {m["match_id"] for m in json.loads(event.removeprefix(b"data: "))}
    assert listed >= set(showcase.finished.values())


@pytest.mark.parametrize("accept_encoding", ["", "identity", "gzip;q=0", "x-gzip;q=0, gzip;q=0"])
def test_the_matches_stream_is_plain_for_clients_that_refuse_gzip(
    showcase: Showcase, accept_encoding: str
) -> None:
    connection = _open_matches_stream(showcase, accept_encoding)
    try:
        response = connection.getresponse()
        assert response.status == 200 and response.headers.get("Content-Encoding") is None
        assert "Accept-Encoding" in response.headers["Vary"]
        event = _first_event(response)
    finally:
        connection.close()
    assert event.startswith(b"data: [") and json.loads(event.removeprefix(b"data: "))


def test_gzipped_events_built_apart_make_one_stream() -> None:
    """Each event is compressed once for every page, on its own; after the
    header they are one gzip stream, and each decodes whole as it comes."""
    decoder = zlib.decompressobj(wbits=31)
    assert decoder.decompress(GZIP_HEADER) == b""
    for n in range(3):
        frame = event_frame(json.dumps([{"match_id": f"m{n}", "moves": n}] * 50).encode())
        assert decoder.decompress(deflate_event(frame)) == frame


def test_replay_frames_refuse_gzip_at_quality_zero(showcase: Showcase) -> None:
    match_id = showcase.finished["sheep-showdown"]
    url = f"{showcase.url}/api/match/{match_id}/frames"
    _, headers, _ = headers_of(url, "x-gzip;q=0, gzip;q=0")
    assert headers.get("Content-Encoding") is None and "Accept-Encoding" in headers["Vary"]


def test_pages_polling_the_list_at_once_share_one_list_matches(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert showcase.web is not None
    matches = showcase.web.runner.app[STATE].matches
    real = matches.fetch
    calls: list[str] = []

    async def slow(game: str, limit: int, status: int) -> Any:
        calls.append(game)
        await asyncio.sleep(0.5)  # the other pages ask while this call is out
        return await real(game, limit, status)

    monkeypatch.setattr(matches, "fetch", slow)
    monkeypatch.setattr(matches, "cached", {})
    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda _: get(f"{showcase.url}/api/matches"), range(12)))
    assert {status for status, _, _ in answers} == {200}
    assert len({body for _, _, body in answers}) == 1
    assert calls == [""]


def test_a_file_that_is_no_tournament_db_now_is_a_400_page_without_its_folder(
    tmp_path: Path,
) -> None:
    """A tournament database's pages name the file alone, never its folder,
    and say what is wrong with it when it is no tournament database any more
    (the viewer starts only with tournament databases; this one was replaced
    since)."""
    database, notes = tmp_path / "tournament.db", tmp_path / "notes.txt"
    Store(database).close()
    Store(notes).close()
    viewer = start_showcase(games=(), tournament_dbs=[database, notes])
    try:
        notes.write_text("this is not a tournament database\n")
        folder = str(tmp_path)
        status, _, body = get(f"{viewer.url}/tournaments/1/anything")
        assert status == 400 and "notes.txt" in body and folder not in body
        status, _, body = get(f"{viewer.url}/tournaments")
        assert status == 200 and "notes.txt is not a SQLite database" in body
        assert folder not in body
        status, _, body = get(f"{viewer.url}/tournaments/0/no-such-tournament")
        assert status == 404 and "tournament.db" in body and folder not in body
        status, _, body = get(f"{viewer.url}/tournaments/7/anything")
        assert status == 404 and "no tournament database number 7" in body
    finally:
        viewer.stop()


def test_a_tournament_named_with_url_characters_links_to_itself(
    showcase: Showcase, tmp_path: Path
) -> None:
    copy = tmp_path / "odd.db"
    shutil.copy(showcase.tournament_dbs[0], copy)
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE tournaments SET name = ?", ("a?b#c d/e",))
    connection.close()
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (copy,)), "127.0.0.1", 0)
    )
    try:
        base = f"http://127.0.0.1:{viewer.port}"
        status, _, body = get(f"{base}/tournaments")
        assert status == 200 and 'href="/tournaments/0/a%3Fb%23c%20d%2Fe"' in body
        status, _, body = get(f"{base}/tournaments/0/a%3Fb%23c%20d%2Fe")
        assert status == 200 and "a?b#c d/e" in body
        assert '"fragment_url": "/tournaments/0/a%3Fb%23c%20d%2Fe/fragment"' in body
        assert 'href="/tournaments/0/a%3Fb%23c%20d%2Fe/match/' in body
    finally:
        showcase.server.run(viewer.stop())


def test_an_unchanged_tournament_report_is_a_304(showcase: Showcase) -> None:
    url = f"{showcase.url}/tournaments/0/showcase/fragment"
    status, headers, body = headers_of(url, "gzip")
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert b"standings" in gzip.decompress(body)
    request = urllib.request.Request(url, headers={"If-None-Match": headers["ETag"]})
    try:
        urllib.request.urlopen(request, timeout=30)
        raise AssertionError("an unchanged report was sent again")
    except urllib.error.HTTPError as error:
        assert error.code == 304
        assert error.headers["X-Tournament-Running"] == "0"


def test_reports_are_built_once_per_change_and_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages asking at once share one build; polls of an unchanged tournament
    build nothing; a stored game (a new change marker) builds it again."""
    marker = [(1.0, 6, 3, 3)]
    built: list[tuple[str, int, str]] = []

    def fake_polled(path: Path, name: str) -> tournaments.Polled:
        return tournaments.Polled(marker[0], None, 1.0)

    async def run(function: Any, path: str, index: int, name: str) -> Any:
        assert function is reports.build
        built.append((path, index, name))
        await asyncio.sleep(0.2)
        return name, f"<p>{len(built)}</p>", b"", marker[0][2], marker[0][1]

    monkeypatch.setattr(reports.tournaments, "polled", fake_polled)

    async def scenario() -> None:
        cache = reports.ReportCache(run)
        first = await asyncio.gather(*(cache.get(0, Path("x.db"), "t") for _ in range(8)))
        # One build, shared (each answer carries the state read for it).
        assert len(built) == 1 and len({id(report.plain) for report in first}) == 1
        again = await cache.get(0, Path("x.db"), "t")
        assert again.plain is first[0].plain and len(built) == 1
        marker[0] = (2.0, 6, 4, 4)
        changed = await cache.get(0, Path("x.db"), "t")
        assert len(built) == 2 and changed.etag != again.etag and changed.fragment == "<p>2</p>"

    asyncio.run(scenario())


def test_a_page_not_reading_the_matches_stream_is_dropped(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every list update goes to every page; one that takes none is disconnected
    after EVENT_WRITE_SECONDS instead of holding what piles up for it."""
    assert showcase.web is not None
    matches = showcase.web.runner.app[STATE].matches
    monkeypatch.setattr(responses, "EVENT_WRITE_SECONDS", 1.0)
    monkeypatch.setattr(matches, "poll_seconds", 0.02)
    count = [0]

    async def changing(game: str) -> Listing:
        count[0] += 1
        body = b'["' + str(count[0]).encode() + b"x" * 200_000 + b'"]'
        return Listing(body, b"", event_frame(body), b"")

    monkeypatch.setattr(matches, "get", changing)
    host, port = showcase.url.removeprefix("http://").split(":")
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect((host, int(port)))
    with connection:
        connection.sendall(f"GET /api/matches/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        time.sleep(3.0)  # reading nothing
        connection.settimeout(5)
        deadline = time.monotonic() + 30
        closed = False
        while time.monotonic() < deadline:
            try:
                if not connection.recv(1 << 20):
                    closed = True
                    break
            except (ConnectionResetError, TimeoutError):
                closed = True
                break
        assert closed, "the stream kept going to a client that read nothing for 3 s"


def test_a_live_batch_is_framed_once_for_every_page() -> None:
    class Stream:
        def __init__(self) -> None:
            self.queue: asyncio.Queue[Any] = asyncio.Queue()

        def __aiter__(self) -> Stream:
            return self

        async def __anext__(self) -> Any:
            item = await self.queue.get()
            if item is None:
                raise StopAsyncIteration
            return item

        def cancel(self) -> None:
            pass

    async def scenario() -> None:
        stream = Stream()
        hub = WatchHub(lambda match_id: stream, flush_seconds=0.01, frame=event_frame)
        got: list[list[bytes]] = [[], []]

        async def page(n: int) -> None:
            async for frame in hub.subscribe("m"):
                got[n].append(frame)

        pages = [asyncio.create_task(page(n)) for n in range(2)]
        await asyncio.sleep(0.05)
        event = arena_pb2.WatchResponse(event=arena_pb2.EventMessage(move=1, text="x"))
        await stream.queue.put(event)
        await asyncio.sleep(0.1)
        await stream.queue.put(None)
        await asyncio.gather(*pages)
        assert got[0] and got[0][0].startswith(b"data: [") and got[0][0].endswith(b"\n\n")
        assert got[0][0] is got[1][0]

    asyncio.run(scenario())


def _lines_for(url: str, seconds: float) -> list[bytes]:
    """The lines an event stream sends in its first `seconds`."""
    lines: list[bytes] = []
    deadline = time.monotonic() + seconds
    with urllib.request.urlopen(url, timeout=seconds + 5) as stream:
        while time.monotonic() < deadline:
            lines.append(stream.readline())
    return lines


def test_a_quiet_event_stream_sends_a_comment_now_and_then(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream with nothing to say (the list with no match changing, a live
    match while its seat decides) once sent nothing at all: a proxy in front
    closed it (nginx after 60 s, and the list page then said it was not
    updating), and TCP never noticed its client gone. It sends a comment
    (which EventSource skips) after HEARTBEAT_SECONDS of quiet."""
    assert showcase.web is not None
    state = showcase.web.runner.app[STATE]
    monkeypatch.setattr(state.config, "heartbeat_seconds", 0.5, raising=False)
    listing = Listing(b"[]", b"", event_frame(b"[]"), b"")

    async def unchanged(game: str) -> Listing:
        return listing

    monkeypatch.setattr(state.matches, "get", unchanged)
    lines = _lines_for(f"{showcase.url}/api/matches/events", 2.2)
    assert lines[:2] == [b"data: []\n", b"\n"], lines
    assert lines[2:].count(b":\n") >= 3, lines
    # A live match whose seats take 5 s a move: quiet in between.
    match_id = showcase.start_live("sheep-showdown", 2, 612, delay=5.0)
    lines = _lines_for(f"{showcase.url}/api/match/{match_id}/live", 2.2)
    assert lines[0].startswith(b"data: [{"), lines
    assert lines.count(b":\n") >= 3, lines


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/static/match.js", "text/javascript; charset=utf-8"),
        ("/static/games/sheep-showdown.js", "text/javascript; charset=utf-8"),
        ("/static/style.css", "text/css; charset=utf-8"),
        ("/static/favicon.svg", "image/svg+xml; charset=utf-8"),
    ],
)
def test_static_text_files_say_their_charset(showcase: Showcase, path: str, kind: str) -> None:
    """They hold UTF-8 (glyphs drawn on the boards): a type without a charset
    left a browser showing the file on its own to guess."""
    status, headers, body = headers_of(showcase.url + path)
    assert status == 200 and body
    assert headers["Content-Type"] == kind
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_page_data_holds_no_markup_that_could_end_its_script_element() -> None:
    """Data embedded in a page's `<script type="application/json">` is escaped so
    that no "<" is left: "</script>" would end the element early, and "<!--<script"
    would make the next "</script>" not end it."""
    hostile = "a</script><script>alert(1)</script><!--<script>b"
    html = _layout("t", "", "match.js", {"reason": hostile})
    start = html.index('<script id="boot" type="application/json">') + len(
        '<script id="boot" type="application/json">'
    )
    payload = html[start : html.index("</script>", start)]
    assert "<" not in payload
    assert json.loads(payload) == {"reason": hostile}


UNPARSABLE = (
    b"GET /" + b"<script>x</script>" * 600 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # line too long
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Note: " + b"<b>secret</b>" * 800 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n<script>x</script>\r\n\r\n",  # a header without a colon
    b"G<script>T / HTTP/1.1\r\n\r\n",  # no HTTP method
)


@pytest.mark.parametrize("request_bytes", UNPARSABLE)
def test_a_request_aiohttp_cannot_parse_gets_the_viewers_short_page_with_no_echo(
    showcase: Showcase, request_bytes: bytes
) -> None:
    head, body = _raw_answer(showcase, request_bytes)
    answer = head + b"\r\n\r\n" + body
    assert head[:13] in {b"HTTP/1.%d %d " % (v, s) for v in (0, 1) for s in (400, 414, 431)}, head
    assert b"script" not in answer and b"secret" not in answer and b"<b>" not in body
    assert b"could not read this request" in body and len(body) < 8_000
    assert b"aiohttp" not in answer and b"Python" not in answer
    assert b"X-Content-Type-Options: nosniff" in head


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /api/matches\r\n\r\n",  # HTTP/0.9: no version, no headers
        b"GET /api/matches HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n",  # HTTP/2 spoken as text
    ],
)
def test_a_request_in_an_http_version_other_than_1_is_a_505_in_http_1(
    showcase: Showcase, request_bytes: bytes
) -> None:
    """aiohttp answered both with "HTTP/0.9 200 OK" or "HTTP/2.0 200 OK" and the
    matches list: a status line no client of either version reads."""
    head, body = _raw_answer(showcase, request_bytes)
    assert head.startswith(b"HTTP/1.0 505 ") or head.startswith(b"HTTP/1.1 505 "), head
    assert b"HTTP/1.0 and HTTP/1.1" in body and b"match_id" not in body
    assert b"X-Content-Type-Options: nosniff" in head


def _raw_answer(showcase: Showcase, request_bytes: bytes) -> tuple[bytes, bytes]:
    port = int(showcase.url.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(request_bytes)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


@pytest.mark.parametrize(
    ("request_bytes", "status", "words"),
    [
        (b"GET /match/" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, b"address"),
        (b"GET /?game=" + b"a" * 8_100 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, b"address"),
        (b"GET / HTTP/1.1\r\nHost: x\r\nCookie: " + b"a" * 9_000 + b"\r\n\r\n", 431, b"header"),
        (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-" + b"a" * 9_000 + b": 1\r\n\r\n", 431, b"header"),
        (
            b"GET / HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: 1\r\n" % i for i in range(200))
            + b"\r\n",
            431,
            b"header",
        ),
    ],
)
def test_a_request_too_long_says_which_part_in_its_status(
    showcase: Showcase, request_bytes: bytes, status: int, words: bytes
) -> None:
    """A target over its bound is a 414, a header over its bound or too many
    headers a 431 (RFC 9110, RFC 6585): all were a 400, as if garbled."""
    head, body = _raw_answer(showcase, request_bytes)
    assert head.startswith(b"HTTP/1.0 %d " % status) or head.startswith(b"HTTP/1.1 %d " % status)
    assert words in body and b"aaaa" not in body, body[-600:]
    assert b"X-Content-Type-Options: nosniff" in head


@pytest.mark.parametrize("path", [b"/static/match.js", b"/"])
def test_a_request_behind_one_asking_to_upgrade_is_not_left_waiting(
    showcase: Showcase, path: bytes
) -> None:
    """aiohttp took what followed a request with `Connection: Upgrade` on its
    connection for the new protocol's: a request sent behind it was never
    answered, the connection held until its idle close 30 s later (here, the
    read's 10 s timeout). The viewer upgrades to nothing: it answers such a
    request and closes the connection, saying so."""
    asking = (
        b"GET "
        + path
        + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: foo\r\nConnection: Upgrade\r\n\r\n"
    )
    behind = b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    head, _ = _raw_answer(showcase, asking + behind)
    assert head.startswith(b"HTTP/1.1 200 "), head
    assert b"Connection: close" in head, head


def _static_with_range(showcase: Showcase, range_header: str) -> tuple[int, Any, bytes]:
    return headers_of(showcase.url + "/static/match.js", more={"Range": range_header})


@pytest.mark.parametrize(
    "range_header",
    ["bytes=0-0,5-5", "bytes=0-1,2-3,4-5", "bytes=a-b", "bytes=", "lines=1-2", "bytes=5-1"],
)
def test_a_range_the_viewer_cannot_serve_as_one_is_ignored(
    showcase: Showcase, range_header: str
) -> None:
    """Several ranges, or a Range header that does not parse, get the whole
    file (RFC 9110 14.2: a server may ignore it): aiohttp answered them 416
    "Range Not Satisfiable", which means the file has none of the bytes asked."""
    whole = headers_of(showcase.url + "/static/match.js")[2]
    status, headers, body = _static_with_range(showcase, range_header)
    assert (status, body) == (200, whole), (status, body[:200])
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"


@pytest.mark.parametrize(
    ("range_header", "status", "size"),
    [("bytes=0-9", 206, 10), ("bytes=-5", 206, 5), ("bytes=99999999-", 416, 0)],
)
def test_one_range_of_a_static_file_is_served_or_refused_as_before(
    showcase: Showcase, range_header: str, status: int, size: int
) -> None:
    got, _, body = _static_with_range(showcase, range_header)
    assert (got, len(body)) == (status, size)


def test_a_target_naming_its_host_is_judged_by_that_host(showcase: Showcase) -> None:
    """A request's target may name its host (`GET http://HOST/path`), which
    then wins over the Host header (RFC 9112, 3.2.2). The viewer judged the
    Host header alone: it answered such a request for any host, and its
    trailing-slash redirect sent it to that host (`Location:
    http://evil.example/tournaments`)."""
    head, _ = _raw_answer(
        showcase,
        b"GET http://evil.example/tournaments/ HTTP/1.1\r\n"
        b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n",
    )
    assert head.startswith(b"HTTP/1.1 403 "), head
    assert b"evil.example" not in head
    head, _ = _raw_answer(
        showcase,
        b"GET http://127.0.0.1/tournaments/ HTTP/1.1\r\n"
        b"Host: evil.example\r\nConnection: close\r\n\r\n",
    )
    assert head.startswith(b"HTTP/1.1 308 "), head
    assert b"\r\nLocation: http://127.0.0.1/tournaments" in head
