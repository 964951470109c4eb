"""What the viewer asks the game server, counted as a real game server
receives it (its own handlers, wrapped to count the calls and answer as
before): a crowd of pages must not become as many gRPC calls."""

from __future__ import annotations

import asyncio
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from server.match_reads import MatchReadCalls
from tournament.schedule import make_schedule
from tournament.store import InPlay, Store
from web.app import STATE
from web.showcase import Showcase, start_showcase

pytestmark = pytest.mark.e2e


def _count_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The game server's read calls, counted by name: its handlers wrapped
    before it starts, as gRPC takes its handlers then."""
    calls: Counter[str] = Counter()
    for name in ("ListGames", "GetMatch", "ListMatches"):
        real = getattr(MatchReadCalls, name)

        def counting(
            self: Any, request: Any, context: Any, real: Any = real, name: str = name
        ) -> Any:
            calls[name] += 1
            return real(self, request, context)

        monkeypatch.setattr(MatchReadCalls, name, counting)
    return calls


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Showcase, Counter[str]]]:
    """A game server whose read calls are counted, and the viewer in front of it."""
    calls = _count_calls(monkeypatch)
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


def test_a_running_tournaments_polls_ask_the_game_server_of_each_game_in_play_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A running tournament's page asks for its report every 3 s, and each ask
    asked the game server GetMatch of every game in play (whether it hosts
    it, for its link), the answer kept half a second and a match it does not
    host not kept at all: a crowd watching a 50-game tournament multiplied
    50 calls. Whether the server hosts a match is asked once every 10 s at
    most (a match it knows it may forget, restarted without a database), so
    4 polls within 3 s ask it once a match."""
    calls = _count_calls(monkeypatch)
    database = tmp_path / "cup.db"
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    with Store(database) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.start_run(tid, "run", time.time())
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        here = [viewer.start_live("sheep-showdown", 2, 900 + n, delay=5) for n in range(3)]
        away = ["elsewhere-1", "elsewhere-2"]
        with Store(database) as store:
            for n, match_id in enumerate(here + away):
                seats = tuple(schedule[0].seats)
                store.game_in_play(tid, InPlay(f"game-{n}", match_id, seats, "", time.time()))
        url = f"{viewer.url}/tournaments/0/cup/fragment"
        before = calls["GetMatch"]
        for _ in range(4):
            with urllib.request.urlopen(url, timeout=30) as answer:
                section = answer.read().decode()
            time.sleep(0.6)  # past the half second a GetMatch answer is kept
        asked = calls["GetMatch"] - before
    finally:
        viewer.stop()
    assert section.count('class="live-link"') == len(here), section[:2000]
    assert section.count("not on this viewer") == len(away)
    assert asked == len(here) + len(away), f"{asked} GetMatch calls for 4 polls"
