"""A tournament game's bot names in its scores, in headless Chromium, on a
laptop and a phone: each broken only between its words, as the report does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import drawn_move, laptop_and_phone, save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Each bot name in the scores: its text, the lines it is drawn on, its words
# (a name may break after a space or a hyphen).
NAME_LINES = """() => [...document.querySelectorAll('#scores bdi.bot')].map((name) => {
  const range = document.createRange();
  range.selectNodeContents(name);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  return { name: name.textContent, lines, words: name.textContent.split(/[-\\s]+/).length };
})"""


@laptop_and_phone
def test_the_scores_break_a_bot_name_only_between_its_words(
    showcase: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    """The scores broke every bot name anywhere, so the narrow name column drew
    "gree" over "dy" and "rand" over "om-too", on a 1280 px laptop too."""
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.locator("#report a[href*='/match/']").first.click()
        page.wait_for_selector("#scores bdi.bot")
        drawn_move(page)
        names = page.evaluate(NAME_LINES)
        save_screenshot(page, f"tournament-game-score-names-{viewport['width']}")
        wide = page.evaluate(
            "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )
    finally:
        context.close()
    assert len(names) == 2, names
    broken = [name for name in names if name["lines"] > name["words"]]
    assert not broken, f"bot names broken inside a word: {broken}"
    assert not wide, "the page is wider than the window"
