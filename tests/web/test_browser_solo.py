"""A finished solo match's rulebook title (Stubborn Sheep's rating of the
scored sheep, "Woolly disaster"; Sheep & Garden's praise) and the counts of
the matches list, in headless Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tests.web.test_browser import wait_for_move
from tests.web.test_http import _replay
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Where each game's result details hold the solo title.
SOLO_TITLES = {
    "stubborn-sheep": lambda details: details["players"][0]["rating"],
    # Under the praise table's lowest row (20) the engine records "none".
    "sheep-and-garden": lambda details: details["praise"].replace("none", "no praise"),
}


def test_a_finished_solo_match_shows_its_rulebook_title(showcase: Showcase, page: Any) -> None:
    """The title was in the result's details alone: no page showed it."""
    # The session's showcase: its own matches, the newest, head its list.
    solo = {game: showcase.play_finished(game, 1, 31) for game in SOLO_TITLES}
    pair = showcase.play_finished("stubborn-sheep", 2, 32)
    for game, match_id in solo.items():
        replay = showcase.server.run(_replay(showcase, match_id))
        title = SOLO_TITLES[game](json.loads(replay.result.details_json))
        assert title
        last = len(replay.actions)
        page.goto(f"{showcase.url}/match/{match_id}#move={last}")
        wait_for_move(page, last)
        assert page.inner_text("#turn [data-solo-title]") == f"Solo rating: {title}"
        save_screenshot(page, f"solo-title-{game}")
        # Before the last move the result is not shown, nor is its title.
        page.keyboard.press("ArrowLeft")
        wait_for_move(page, replay.actions[-2].move if len(replay.actions) > 1 else 0)
        assert page.locator("[data-solo-title]").count() == 0
    moves = len(showcase.server.run(_replay(showcase, pair)).actions)
    page.goto(f"{showcase.url}/match/{pair}#move={moves}")
    wait_for_move(page, moves)
    assert page.locator("#scores td.final").count() == 2
    assert page.locator("[data-solo-title]").count() == 0
    # The matches list shows the title beside the solo matches' scores.
    page.goto(showcase.url + "/")
    for game, match_id in solo.items():
        row = f'#finished tr[data-match-id="{match_id}"]'
        page.wait_for_selector(row)
        replay = showcase.server.run(_replay(showcase, match_id))
        title = SOLO_TITLES[game](json.loads(replay.result.details_json))
        assert page.inner_text(f"{row} [data-solo-title]") == title
    assert page.locator(f'tr[data-match-id="{pair}"] [data-solo-title]').count() == 0
    save_screenshot(page, "solo-titles-in-the-list")
