"""A live page that goes away gives up its place among the match's watchers
at once: the viewer's Watch stream on the game server is cancelled as soon
as its last page is gone, as the game server's own count of watchers says."""

from __future__ import annotations

import re
import socket
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from server.app import ServerConfig
from web.gateway import Gateway
from web.hub import WatchHub
from web.responses import with_heartbeats
from web.showcase import Showcase, start_showcase

pytestmark = pytest.mark.e2e


@pytest.fixture
def measured() -> Iterator[Showcase]:
    """A game server with its metrics served (they count its Watch streams)."""
    viewer = start_showcase(games=(), config=ServerConfig(metrics_port=0))
    try:
        yield viewer
    finally:
        viewer.stop()


def server_watchers(viewer: Showcase) -> float:
    """Open Watch streams on the game server's live matches, from its metrics."""
    port = viewer.server.server.metrics_port
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return sum(float(n) for n in re.findall(r"^sheepfold_watchers\{[^}]*\} (\S+)$", text, re.M))


def wait_for_watchers(viewer: Showcase, wanted: float, seconds: float) -> float:
    deadline = time.monotonic() + seconds
    while (seen := server_watchers(viewer)) != wanted and time.monotonic() < deadline:
        time.sleep(0.05)
    return seen


def test_a_page_closed_between_two_batches_ends_the_viewers_watch_at_once(
    measured: Showcase,
) -> None:
    """A live page's stream is the hub's batches with heartbeats between them
    (web.responses.with_heartbeats). Closed while the page wrote a batch (a
    page gone while its connection was full, say), with_heartbeats gave up
    only an item it waited for, and there was none: the hub's batches for
    that page stayed open until collected, and with them the viewer's Watch
    on the game server. Closing it closes its source."""
    viewer = measured
    match_id = viewer.start_live("sheep-n-sheep", 3, 4242, delay=0.05)
    held: dict[str, Any] = {}

    async def open_and_write_a_batch() -> None:
        held["gateway"] = gateway = Gateway(viewer.server.address)
        held["hub"] = hub = WatchHub(gateway.watch)
        # Held, as the live handler's frame holds it until its task is gone.
        held["batches"] = hub.subscribe(match_id)
        held["beating"] = with_heartbeats(held["batches"], 30.0)
        await anext(held["beating"])  # a batch: the page is writing it

    async def leave() -> int:
        await held["beating"].aclose()
        return int(held["hub"].watchers(match_id))

    async def close() -> None:
        await held["batches"].aclose()
        await held["hub"].close()
        await held["gateway"].close()

    try:
        viewer.server.run(open_and_write_a_batch())
        assert wait_for_watchers(viewer, 1, 5.0) == 1
        assert viewer.server.run(leave()) == 0, "the page's place among the hub's watchers is kept"
        assert wait_for_watchers(viewer, 0, 2.0) == 0, (
            "the game server still counts the viewer's Watch of a page that left"
        )
    finally:
        viewer.server.run(close())


def test_a_live_stream_whose_client_leaves_ends_the_viewers_watch_soon(
    measured: Showcase,
) -> None:
    """Through the viewer: an HTTP client reading a live match's stream, then
    gone, leaves the game server with no Watch of the match within a second
    or two."""
    viewer = measured
    match_id = viewer.start_live("sheep-n-sheep", 3, 4343, delay=0.05)
    assert viewer.web is not None
    client = socket.create_connection(("127.0.0.1", viewer.web.port), timeout=10)
    try:
        client.sendall(
            f"GET /api/match/{match_id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        )
        assert b"data: " in client.recv(65536) + client.recv(65536)
        assert wait_for_watchers(viewer, 1, 5.0) == 1
    finally:
        client.close()
    assert wait_for_watchers(viewer, 0, 3.0) == 0, "the viewer still watches for a client gone"
