"""A running tournament's "Now playing" on a 360x740 phone: each game's live
link and its seats come first, as in the report's games table. The game key
(its first column, "3:random|r6|r5|r3|r2|greedy-...") took the phone's width,
and a six-seat game's link and seats were past the screen's edge, reached
only by scrolling the table sideways."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tournament.store_records import InPlay
from web.now_playing import now_playing_html
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

PHONE = {"width": 360, "height": 740}
BOTS = ("random", "greedy-with-a-rather-long-name", "r2", "r3", "r5", "r6")
KEY = "3:" + "|".join(BOTS)

# The section as the viewer sends it, put where the tournament page puts it
# (above the report), then each row's link, seats and the window's width.
ROWS = """(section) => {
  document.querySelector('#report').insertAdjacentHTML('beforebegin', section);
  return [...document.querySelectorAll('#now-playing tr[data-match-id]')].map((row) => {
    const link = row.querySelector('a.live-link');
    return {
      link: link.getBoundingClientRect().right,
      seats: row.lastElementChild.getBoundingClientRect().left,
      width: document.documentElement.clientWidth,
      title: link.closest('td').title,
    };
  });
}"""


def test_now_playing_shows_each_games_link_and_seats_on_a_phone(
    showcase: Showcase, browser: Any
) -> None:
    playing = [InPlay(KEY, f"{n:016x}", BOTS, "", 0.0) for n in range(1, 4)]
    section = now_playing_html(playing, {game.match_id: "here" for game in playing})
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("#report table.standings")
        rows = page.evaluate(ROWS, section)
        save_screenshot(page, "phone-now-playing")
    finally:
        context.close()
    assert len(rows) == 3, json.dumps(rows)
    assert all(row["link"] <= row["width"] for row in rows), rows[0]
    assert all(row["seats"] < row["width"] - 60 for row in rows), rows[0]
    assert all(row["title"] == f"game {KEY}" for row in rows), rows[0]  # the key kept
