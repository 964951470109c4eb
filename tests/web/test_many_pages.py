"""The viewer cheap under many pages: one ListMatches and one report build
shared by every page, a `304` for a report unchanged, a live batch framed
once, a stream that drops a client that does not read, and a quiet stream's
comments."""

from __future__ import annotations

import asyncio
import gzip
import socket
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

from tests.web.answer_headers import headers_of
from tests.web.test_http import get
from web import reports, responses, tournaments
from web.app import STATE
from web.hub import WatchHub
from web.listing import Listing
from web.responses import event_frame
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


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
        fragment, stored = f"<p>{len(built)}</p>", frozenset[str]()
        return reports.Built(name, fragment, b"", marker[0][2], marker[0][1], marker[0], stored)

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
