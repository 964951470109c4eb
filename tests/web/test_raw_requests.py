"""Requests written byte by byte to the viewer: one it cannot parse, in another
HTTP version, too long, behind one asking to upgrade, with ranges it cannot
serve as one, or naming its host in its target, each gets a short answer
that echoes nothing and leaves nothing waiting."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from tests.web.answer_headers import headers_of
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


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


HEAD_UNPARSABLE = (
    b"HEAD / HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n",
    b"HEAD /a b HTTP/1.1\r\nHost: x\r\n\r\n",  # a space in the target
    b"HEAD / HTTP/9.9\r\nHost: x\r\n\r\n",
    b"HEAD / HTTP/1.1\r\n\r\n",  # no Host
    # behind a request answered in full, on the same connection
    b"GET /static/words.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHEAD / HTTP/1.1\r\nno colon\r\n\r\n",
    # ahead of a request sent with it, before any answer (pipelined)
    b"HEAD / HTTP/1.1\r\nno colon\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
)


@pytest.mark.parametrize("request_bytes", HEAD_UNPARSABLE)
@pytest.mark.parametrize("sent", ["whole", "split"])
def test_a_head_aiohttp_cannot_parse_gets_the_short_pages_headers_and_no_body(
    showcase: Showcase, request_bytes: bytes, sent: str
) -> None:
    """aiohttp builds a request it could not parse with the method "UNKNOWN",
    so the answer to a HEAD came with the page's 3 KB after its headers, read
    as the start of the next answer by a client keeping its connection."""
    # Byte by byte up to the HEAD's method, split between reads; the rest whole,
    # as the viewer closes the connection on reading the fault.
    split = request_bytes.index(b"HEAD ") + 3 if sent == "split" else 0
    pieces = [bytes([b]) for b in request_bytes[:split]] + [request_bytes[split:]]
    before, head, body = _last_answer(_raw_answer_sent(showcase, pieces))
    if request_bytes.startswith(b"GET ") and not before:
        # Read at once with the GET ahead, the fault is answered for both
        # (aiohttp drops the requests a faulty read holds) and read by the
        # client as the GET's answer: it must come whole.
        assert head.startswith(b"HTTP/1.0 400 ") and b"could not read" in body, head
        return
    # Once a GET behind the HEAD was taken for the request answered, and the
    # page was sent after the headers of a HEAD's answer.
    assert head.startswith(b"HTTP/1.0 400 ") and body == b"", (head, body[:200])
    as_get = b"GET ".join(request_bytes.split(b"HEAD ", 1))
    _, get_head, get_body = _last_answer(_raw_answer_sent(showcase, [as_get]))
    assert get_head.startswith(b"HTTP/1.0 400 ") and b"could not read" in get_body
    assert b"\r\nContent-Length: %d\r\n" % len(get_body) in head + b"\r\n", head
    assert b"text/html" in head and b"X-Content-Type-Options: nosniff" in head
    if before:  # the request ahead of it had its whole answer
        assert before.startswith(b"HTTP/1.1 200 ") and before.endswith(b"\n"), before[-100:]


def _last_answer(answer: bytes) -> tuple[bytes, bytes, bytes]:
    """The answers before the last (a 400's), and the last's head and body."""
    before, status, last = answer.rpartition(b"HTTP/1.0 ")
    head, _, body = (status + last).partition(b"\r\n\r\n")
    return before, head, body


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
    head, _, body = _raw_answer_sent(showcase, [request_bytes]).partition(b"\r\n\r\n")
    return head, body


def _raw_answer_sent(showcase: Showcase, pieces: list[bytes]) -> bytes:
    """All the viewer answers to `pieces`, each sent on its own, until it closes."""
    port = int(showcase.url.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for piece in pieces:
            client.sendall(piece)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    return answer


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
