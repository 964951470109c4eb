"""A tournament game's scores on a phone, in headless Chromium, when its bots'
names hold words of ten letters or more: the table stays within the page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.web.conftest import drawn_move, laptop_and_phone, save_screenshot
from tournament.config import parse_config
from tournament.runner import run_tournament_async
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Words of 10 to 12 letters: short enough to break only between words, each
# one wider than a phone's name column beside Stubborn Sheep's five figures.
BOTS = ("thoughtfully", "methodically-patient", "greedy-with-a-really-very-long-descriptive-name")


@pytest.fixture(scope="module")
def wordy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Showcase]:
    database = tmp_path_factory.mktemp("wordy") / "wordy.db"
    server = InProcessServer(ServerConfig())
    server.start()
    viewer = Showcase(server, tournament_dbs=(database,))
    try:
        config = parse_config(
            {
                "name": "wordy",
                "game": "stubborn-sheep",
                "players": 3,
                "games_per_pairing": 1,
                "seed": 5,
                "concurrency": 2,
                "bots": [
                    {"name": name, "builtin": "greedy" if i else "random"}
                    for i, name in enumerate(BOTS)
                ],
            }
        )
        server.run(run_tournament_async(config, server.address, str(database)), 300)
        viewer.web = server.run(start_web(WebConfig(server.address, (database,)), "127.0.0.1", 0))
        yield viewer
    finally:
        viewer.stop()


@laptop_and_phone
def test_the_scores_of_wordy_bot_names_stay_within_the_page(
    wordy: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    """On a 360 px phone the scores' name column could not be narrower than
    the longest word of a bot's name, and the table reached 10 px past the
    screen: the page scrolled sideways and the ranks were cut off."""
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    try:
        page = context.new_page()
        page.goto(f"{wordy.url}/tournaments/0/wordy")
        page.locator("#report a[href*='/match/']").first.click()
        page.wait_for_selector("#scores td.rank")
        drawn_move(page)
        save_screenshot(page, f"tournament-game-wordy-scores-{viewport['width']}")
        sizes = page.evaluate(
            """() => ({
              page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
              table: document.getElementById('scores').getBoundingClientRect().right
                - document.querySelector('aside.side').getBoundingClientRect().right,
              names: [...document.querySelectorAll('#scores bdi.bot')].map((b) => b.textContent),
            })"""
        )
    finally:
        context.close()
    shown = sorted(name[:40] + ("…" if len(name) > 40 else "") for name in BOTS)
    assert sorted(sizes["names"]) == shown
    assert sizes["page"] <= 0, f"the page is {sizes['page']} px wider than the window"
    assert sizes["table"] <= 0, f"the scores reach {sizes['table']} px past their panel"
