"""A viewer already replaying as many matches as it queues refuses the next
with 503 and says when to ask again, and still answers once a place frees."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.store import MemoryStore
from web import replays
from web.app import WebConfig, start_web
from web.showcase import Showcase
from web.state import STATE

pytestmark = pytest.mark.e2e


@pytest.fixture
def viewer() -> Iterator[tuple[Showcase, str]]:
    server = InProcessServer(ServerConfig(), MemoryStore())
    server.start()
    showcase = Showcase(server)
    try:
        bots = [RandomBot(seat) for seat in range(2)]
        match_id = server.run(play_match(server.address, "sheep-showdown", bots, seed=5)).match_id
        showcase.web = server.run(start_web(WebConfig(server.address), "127.0.0.1", 0))
        yield showcase, match_id
    finally:
        showcase.stop()


def _fetch(url: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_the_busy_refusal_says_when_to_ask_again(
    viewer: tuple[Showcase, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    showcase, match_id = viewer
    monkeypatch.setattr(replays, "MAX_RENDERS_WAITING", 1)
    registry = showcase.server.server.registry
    real = registry.replay
    release = threading.Event()

    async def slow(wanted: str) -> Any:
        while not release.is_set():
            await asyncio.sleep(0.02)
        return await real(wanted)

    monkeypatch.setattr(registry, "replay", slow)
    frames = f"{showcase.url}/api/match/{match_id}/frames"
    first: list[tuple[int, dict[str, str], str]] = []
    holder = threading.Thread(target=lambda: first.append(_fetch(frames)))
    holder.start()
    try:
        assert showcase.web is not None
        state = showcase.web.runner.app[STATE]
        deadline = time.monotonic() + 10
        while not state.rendering:
            assert time.monotonic() < deadline, "the first replay never started"
            time.sleep(0.02)
        url = f"{frames}?view=seat-1"  # another replay: no place left for it
        status, headers, body = _fetch(url)
        assert status == 503, body
        assert headers.get("Retry-After") == str(replays.BUSY_RETRY_SECONDS)
        assert "replaying many matches" in body
    finally:
        release.set()
        holder.join(timeout=30)
    assert first and first[0][0] == 200
    # The place is free again: the refused view is answered now.
    assert _fetch(url)[0] == 200
