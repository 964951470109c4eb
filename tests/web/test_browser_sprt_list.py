"""An SPRT in the list of tournaments, in headless Chromium: its games played
are counted against its limit in the words its own page uses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.web.conftest import save_screenshot
from tournament.config import parse_config
from tournament.sprt_run import run_sprt_async
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

MAX_GAMES = 60


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Showcase, int]]:
    """A viewer showing an SPRT that accepted H1 well before its limit."""
    database = tmp_path_factory.mktemp("sprt") / "sprt.db"
    server = InProcessServer(ServerConfig())
    server.start()
    viewer = Showcase(server, tournament_dbs=(database,))
    try:
        config = parse_config(
            {
                "name": "decided",
                "game": "sheep-showdown",
                "players": 2,
                "schedule": "sprt",
                "seed": 1,
                "concurrency": 2,
                "options": {"rounds": 1},
                "sprt": {
                    "candidate": "greedy",
                    "baseline": "random",
                    "elo0": 0,
                    "elo1": 100,
                    "alpha": 0.1,
                    "beta": 0.1,
                    "max_games": MAX_GAMES,
                },
                "bots": [
                    {"name": "greedy", "builtin": "greedy"},
                    {"name": "random", "builtin": "random"},
                ],
            }
        )
        outcome = server.run(run_sprt_async(config, server.address, str(database)), 300)
        viewer.web = server.run(start_web(WebConfig(server.address, (database,)), "127.0.0.1", 0))
        yield viewer, outcome.played
    finally:
        viewer.stop()


def test_a_decided_sprt_is_listed_as_played_of_its_limit(
    decided: tuple[Showcase, int], page: Any
) -> None:
    """The list said "20 of 60 games played" beside "finished", as if the run
    had stopped a third of the way: an SPRT's 60 is a limit it seldom reaches,
    and its page says "20 games played of an SPRT (at most 60)"."""
    viewer, played = decided
    assert 0 < played < MAX_GAMES
    page.goto(f"{viewer.url}/tournaments")
    save_screenshot(page, "tournaments-list-sprt")
    listed = page.locator('li[data-tournament="decided"]')
    words = f"{played} games played of an SPRT (at most {MAX_GAMES})"
    assert listed.locator(".played").inner_text() == words
    assert listed.locator(".badge").inner_text() == "finished"
    # Its own page counts them in the same words.
    listed.get_by_role("link", name="decided").click()
    page.wait_for_selector("#report table.games")
    assert words in page.inner_text("#report")
