"""The viewer's answers gzipped only for clients that accept it (Accept-Encoding
read with its qualities): the matches list, its event stream (each update
decoding as it arrives) and a replay's frames."""

from __future__ import annotations

import gzip
import http.client
import json
import zlib
from typing import Any

import pytest

from tests.web.answer_headers import headers_of
from web.app import STATE
from web.responses import GZIP_HEADER, accepts_gzip, deflate_event, event_frame
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


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
