"""The viewer in headless Chromium on a phone: the board shown and no page
wider than the screen, a long tournament name included, a bot's name broken
only between its words, and the controls covering no part of the board."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tests.web.test_browser_phone_labels import REACHABLE
from tests.web.test_http import _replay
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


NO_OVERFLOW = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    return context


def test_a_phone_sees_the_board_and_no_page_wider_than_the_screen(
    showcase: Showcase, browser: Any
) -> None:
    context = phone(browser)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        for game in ("sheep-showdown", "stubborn-sheep"):
            page.goto(f"{showcase.url}/match/{showcase.finished[game]}#move=3")
            page.wait_for_selector('#board[data-move="3"]')
            box = page.evaluate(
                "() => { const r = document.getElementById('board').getBoundingClientRect();"
                " return [r.width, r.height]; }"
            )
            assert box[0] > 300 and box[1] > 100, box
            assert page.evaluate(NO_OVERFLOW), "the match page is wider than the phone"
            save_screenshot(page, f"phone-{game}")
        page.goto(showcase.url + "/")
        page.wait_for_selector("#finished tr[data-match-id]")
        assert page.evaluate(NO_OVERFLOW), "the matches list is wider than the phone"
        save_screenshot(page, "phone-matches")
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("table.standings")
        assert page.evaluate(NO_OVERFLOW), "the tournament page is wider than the phone"
        save_screenshot(page, "phone-tournament")
        assert not errors, errors
    finally:
        context.close()


def test_a_long_tournament_name_keeps_the_list_within_a_phone(
    showcase: Showcase, browser: Any, tmp_path: Path
) -> None:
    """A tournament's name may be as long as its organiser likes, with no space
    to break it at: the list of tournaments ran off the side of a phone's screen
    (the page scrolled sideways), and so did an error page quoting a long URL."""
    copy = tmp_path / "long.db"
    shutil.copy(showcase.tournament_dbs[0], copy)
    long_name = "spring-cup-" + "qualifier" * 20
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE tournaments SET name = ?", (long_name,))
    connection.close()
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (copy,)), "127.0.0.1", 0)
    )
    context = phone(browser)
    try:
        page = context.new_page()
        for path in ("/tournaments", f"/tournaments/0/{long_name}", "/match/" + "x" * 300):
            page.goto(f"http://127.0.0.1:{viewer.port}{path}")
            page.wait_for_selector("main h1, main h2")
            assert page.evaluate(NO_OVERFLOW), f"{path} is wider than the phone"
        page.goto(f"http://127.0.0.1:{viewer.port}/tournaments")
        link = page.locator("ul.tournaments a")
        assert link.inner_text() == long_name
        save_screenshot(page, "phone-tournaments-long-name")
    finally:
        context.close()
        showcase.server.run(viewer.stop())


# How many lines each bot's name takes in the report's tables, and how many
# words (parts between hyphens or spaces) it has.
NAME_LINES = """() => [...document.querySelectorAll(
    '#report table.standings td.bot, #report table.heat tbody th.bot')].map((cell) => {
  const range = document.createRange();
  // The name's own text (its box, one that can cut it with "...", is no line).
  range.selectNodeContents(cell.querySelector('.name') || cell);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  return { name: cell.textContent, lines, words: cell.textContent.split(/[-\\s]+/).length };
})"""


def test_a_phone_reads_each_bot_name_of_a_tournament_whole(
    showcase: Showcase, browser: Any
) -> None:
    """The match page's rule that breaks a long bot name anywhere (class "bot")
    also held the report's bot columns, so the standings drew each name one
    letter a line on a phone ("g" over "r" over "e" ...): a name breaks only
    between its words."""
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("table.standings")
        names = page.evaluate(NAME_LINES)
        save_screenshot(page, "phone-tournament-names")
    finally:
        context.close()
    assert len(names) == 6, names  # three in the standings, three in the crosstable
    broken = [name for name in names if name["lines"] > name["words"]]
    assert not broken, f"bot names broken inside a word: {broken}"


# The board's foot and the top of the controls, which stay at the window's
# foot, in CSS pixels from the window's top, and the board's size.
BOARD_AND_CONTROLS = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const controls = document.getElementById('controls').getBoundingClientRect();
  return { board: board.bottom, controls: controls.top, width: board.width, height: board.height };
}"""


@pytest.mark.parametrize(
    "viewport", [{"width": 375, "height": 667}, {"width": 390, "height": 844}], ids=str
)
def test_the_controls_cover_no_part_of_the_board_on_a_phone(
    showcase: Showcase, browser: Any, viewport: dict[str, int]
) -> None:
    """The controls stay at the foot of the window; on a 375x667 phone they
    covered the foot of the board as the page opened (Stubborn Sheep's seats'
    points, 45 px of it): the board is drawn in the room above them."""
    context = browser.new_context(viewport=viewport, is_mobile=True)
    try:
        page = context.new_page()
        for game, match_id in showcase.finished.items():
            last = len(showcase.server.run(_replay(showcase, match_id)).actions)
            page.goto(f"{showcase.url}/match/{match_id}#move={last}")
            page.wait_for_selector(f'#board[data-move="{last}"]')
            seen = page.evaluate(BOARD_AND_CONTROLS)
            save_screenshot(page, f"phone-{viewport['height']}-controls-{game}")
            # A board too small to read above the controls (Sheep & Garden's
            # at its end on 375x667) runs taller than the window: every part
            # of it shows clear of them at some scroll.
            if page.get_attribute("#board", "data-tall") != "true":
                assert seen["board"] <= seen["controls"] + 0.5, (game, seen)
            assert not page.evaluate(REACHABLE)["hidden"], game
            assert seen["width"] > 300 and seen["height"] > 200, (game, seen)
            assert page.evaluate(NO_OVERFLOW), f"{game}'s page is wider than the phone"
    finally:
        context.close()
