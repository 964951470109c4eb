"""The viewer's pages on a small phone (360x640), measured as Chromium lays
them out: what a reader needs of each is inside the window, not cut at its
edge or hidden in a box that scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

SMALL_PHONE = {"width": 360, "height": 640}

# Each shown cell of the matches list that reaches past the window's right
# edge, and whether a list's box scrolls sideways.
LIST_CELLS = """() => {
  const width = document.documentElement.clientWidth;
  const cells = [...document.querySelectorAll('table.matches td')]
    .filter((td) => td.getBoundingClientRect().width > 0);
  return {
    cells: cells.length,
    past: cells.filter((td) => td.getBoundingClientRect().right > width + 0.5)
      .map((td) => td.textContent.trim()),
    scrolls: [...document.querySelectorAll('.table-scroll')]
      .some((box) => box.scrollWidth > box.clientWidth),
  };
}"""


def test_the_matches_list_shows_each_rows_status_and_scores_on_a_phone(
    showcase: Showcase, browser: Any
) -> None:
    """At 360 px a row (its id, game, status, moves and scores on one line)
    was 430 px wide and more: its status badge was cut at the window's edge
    and its scores, what a reader came for, were out of sight in a box that
    scrolled sideways. A row wraps onto a second line there."""
    bots = [RandomBot(600 + seat) for seat in range(6)]
    showcase.server.run(play_match(showcase.server.address, "sheep-showdown", bots, seed=60))
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(showcase.url)
        page.wait_for_selector("#finished tr[data-match-id]")
        seen = page.evaluate(LIST_CELLS)
        save_screenshot(page, "small-phone-matches")
    finally:
        context.close()
    assert seen["cells"] > 0
    assert not seen["past"], f"cells cut at the window's edge: {seen['past'][:6]}"
    assert not seen["scrolls"], "the list scrolls sideways"
