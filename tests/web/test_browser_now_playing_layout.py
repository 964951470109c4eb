"""A running tournament's "Now playing" laid out. On a 360x740 phone each
game's live link and its seats come first, as in the report's games table:
the game key (its first column, "3:random|r6|r5|r3|r2|greedy-...") took the
phone's width, and a six-seat game's link and seats were past the screen's
edge, reached only by scrolling the table sideways. On a laptop its columns
stand apart, as the games table's do."""

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
LAPTOP = {"width": 1280, "height": 800}
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


def _measured(
    showcase: Showcase,
    browser: Any,
    playing: list[InPlay],
    script: str,
    viewport: dict[str, int],
    shot: str,
) -> Any:
    """`script`'s answer on the showcase tournament's page at `viewport`, given
    the "Now playing" section of `playing`; the page kept as `shot`."""
    section = now_playing_html(playing, {game.match_id: "here" for game in playing})
    context = browser.new_context(viewport=viewport, is_mobile=viewport == PHONE)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("#report table.standings")
        seen = page.evaluate(script, section)
        save_screenshot(page, shot)
    finally:
        context.close()
    return seen


def test_now_playing_shows_each_games_link_and_seats_on_a_phone(
    showcase: Showcase, browser: Any
) -> None:
    playing = [InPlay(KEY, f"{n:016x}", BOTS, "", 0.0) for n in range(1, 4)]
    rows = _measured(showcase, browser, playing, ROWS, PHONE, "phone-now-playing")
    assert len(rows) == 3, json.dumps(rows)
    assert all(row["link"] <= row["width"] for row in rows), rows[0]
    assert all(row["seats"] < row["width"] - 60 for row in rows), rows[0]
    assert all(row["title"] == f"game {KEY}" for row in rows), rows[0]  # the key kept


# On a laptop: each cell's text against the next one's, and the header's
# alignment against its column's.
APART = """(section) => {
  document.querySelector('#report').insertAdjacentHTML('beforebegin', section);
  const row = document.querySelector('#now-playing tr[data-match-id]');
  const key = row.cells[0].querySelector('.name').getBoundingClientRect();
  const link = row.querySelector('a.live-link').getBoundingClientRect();
  const seats = row.cells[2].getBoundingClientRect();
  const head = document.querySelector('#now-playing th');
  return {
    keyToLink: link.left - key.right,
    linkToSeats: seats.left + parseFloat(getComputedStyle(row.cells[2]).paddingLeft) - link.right,
    headAlign: getComputedStyle(head).textAlign,
  };
}"""


def test_now_playing_keeps_its_columns_apart_on_a_laptop(showcase: Showcase, browser: Any) -> None:
    """The table had none of the report's cell padding: a cut key's "..." ran
    into the match id ("...-long-n…9dcf24c296ced172"), and the headings stood
    centred over columns read from the left."""
    playing = [InPlay(KEY, "00000000000000a1", BOTS, "", 0.0)]
    seen = _measured(showcase, browser, playing, APART, LAPTOP, "laptop-now-playing")
    assert seen["keyToLink"] >= 12, seen
    assert seen["linkToSeats"] >= 12, seen
    assert seen["headAlign"] in ("left", "start"), seen
