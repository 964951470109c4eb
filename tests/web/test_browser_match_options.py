"""A match page names the game options its match was played with, under its
title and above the board, legible at 1280 and 360 px in headless Chromium:
the board drew nothing of Stubborn Sheep's bonus actions, nor of its wolf
before the wolf first moved."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import laptop_and_phone, save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


@pytest.fixture(scope="module")
def wolf_match(showcase: Showcase) -> str:
    bots = [RandomBot(70 + seat) for seat in range(3)]
    options = {"wolf": "true", "bonus_actions": "yes"}
    outcome = showcase.server.run(
        play_match(showcase.server.address, "stubborn-sheep", bots, seed=7, options=options)
    )
    return outcome.match_id


@laptop_and_phone
def test_the_options_are_shown_under_the_title_above_the_board(
    showcase: Showcase,
    wolf_match: str,
    browser: Any,
    viewport: dict[str, int],
    mobile: bool,
) -> None:
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    page = context.new_page()
    try:
        page.goto(f"{showcase.url}/match/{wolf_match}")
        page.wait_for_function("() => window.sheepfold.frames.length > 1")
        options = page.locator("#options")
        assert options.is_visible()
        # The server's own spelling of each value, sorted by name.
        assert options.inner_text() == "options: bonus_actions=true, wolf=true"
        line = _box(page, "#options")
        head = _box(page, ".match-head")
        board = _box(page, "#board")
        assert head["y"] + head["height"] <= line["y"] + 1, (head, line)
        assert line["y"] + line["height"] <= board["y"] + 1, (line, board)
        assert line["x"] >= 0 and line["x"] + line["width"] <= viewport["width"], line
        save_screenshot(page, f"match-options-{viewport['width']}")
        page.goto(f"{showcase.url}/match/{showcase.finished['sheep-n-sheep']}")
        page.wait_for_function("() => window.sheepfold.frames.length > 1")
        assert page.locator("#options").count() == 0  # a game without options
    finally:
        context.close()
