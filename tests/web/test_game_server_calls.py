"""What the viewer asks the game server, counted as a real game server
receives it (its own handlers, wrapped to count the calls and answer as
before): a crowd of pages must not become as many gRPC calls."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from server.match_reads import MatchReadCalls
from web.app import STATE
from web.showcase import Showcase, start_showcase

pytestmark = pytest.mark.e2e


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Showcase, Counter[str]]]:
    """A game server (and the viewer in front of it) whose read calls are
    counted by name: wrapped before it starts, as gRPC takes its handlers then."""
    calls: Counter[str] = Counter()
    for name in ("ListGames", "GetMatch", "ListMatches"):
        real = getattr(MatchReadCalls, name)

        def counting(
            self: Any, request: Any, context: Any, real: Any = real, name: str = name
        ) -> Any:
            calls[name] += 1
            return real(self, request, context)

        monkeypatch.setattr(MatchReadCalls, name, counting)
    viewer = start_showcase(games=("sheep-showdown",))
    try:
        yield viewer, calls
    finally:
        viewer.stop()


async def _load(url: str, times: int, at_once: bool) -> list[int]:
    async with aiohttp.ClientSession() as session:

        async def one() -> int:
            async with session.get(url) as answer:
                await answer.read()
                return answer.status

        if at_once:
            return list(await asyncio.gather(*(one() for _ in range(times))))
        return [await one() for _ in range(times)]


def test_a_flood_of_matches_pages_asks_the_game_server_its_games_once(
    counted: tuple[Showcase, Counter[str]],
) -> None:
    """Each load of `/` asked the game server ListGames, whose answer does not
    change while the server runs: 40 page loads were 40 calls. The viewer
    keeps the answer a few seconds, and the pages asking meanwhile share it."""
    viewer, calls = counted
    before = calls["ListGames"]
    assert asyncio.run(_load(viewer.url + "/", 30, at_once=True)) == [200] * 30
    assert asyncio.run(_load(viewer.url + "/", 10, at_once=False)) == [200] * 10
    assert calls["ListGames"] - before == 1


def test_the_matches_page_asks_the_games_again_once_its_answer_is_old(
    counted: tuple[Showcase, Counter[str]],
) -> None:
    """Kept a while, not for ever: a game server restarted with other games
    is seen once the kept answer is older than `games_seconds`."""
    viewer, calls = counted
    assert viewer.web is not None
    viewer.web.runner.app[STATE].gateway.games_seconds = 0.05
    before = calls["ListGames"]
    assert asyncio.run(_load(viewer.url + "/", 1, at_once=False)) == [200]
    time.sleep(0.1)
    assert asyncio.run(_load(viewer.url + "/", 1, at_once=False)) == [200]
    assert calls["ListGames"] - before == 2
