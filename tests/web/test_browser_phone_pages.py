"""The viewer's pages on a small phone (360x640), measured as Chromium lays
them out: what a reader needs of each is inside the window, not cut at its
edge or hidden in a box that scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match, play_match
from server.app import ServerConfig
from tests.web.conftest import OwnServerTournament, save_screenshot
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

SMALL_PHONE = {"width": 360, "height": 640}
LEAST_TEXT_PX = 10.5  # web/static/svg.js
SHEEP_LEAST_PX = 7.5  # web/static/games/stubborn-sheep.js

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


# Each game at two seats and at the most it takes.
LINEUPS = [
    (game, players)
    for game, most in (
        ("sheep-showdown", 6), ("sheep-n-sheep", 4), ("stubborn-sheep", 5), ("sheep-and-garden", 4)
    )
    for players in (2, most)
]  # fmt: skip

# Steps the page through every third move it holds, as its slider does, and
# gives each board text drawn under the least size (its computed font size
# times its scale on screen), the smallest each text was drawn, and each Sheep
# Showdown card value that reaches out of its card.
SMALL_TEXT = """async (least) => {
  const m = window.sheepfold, slider = document.getElementById('slider');
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const small = {}, out = [];
  for (let i = 0; i < m.frames.length; i += 3) {
    slider.value = String(i);
    slider.dispatchEvent(new Event('input'));
    await frame();
    for (const t of document.querySelectorAll('#board text')) {
      const k = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(k.a, k.b);
      const what = `${t.getAttribute('class') || 'text'} "${t.textContent.slice(0, 20)}"`;
      if (px < least) small[what] = Math.min(small[what] ?? px, px);
    }
    for (const value of document.querySelectorAll('#board g.card .card-value')) {
      const a = value.getBoundingClientRect();
      const b = value.closest('g.card').querySelector(':scope > rect').getBoundingClientRect();
      if (a.left < b.left || a.right > b.right || a.top < b.top || a.bottom > b.bottom) {
        out.push(`${value.textContent} at move ${m.frames[i].move}`);
      }
    }
  }
  return { small, out, moves: m.frames.length };
}"""


def on_a_small_phone(
    showcase: Showcase,
    browser: Any,
    game: str,
    bots: list[RandomBot],
    seed: int,
    script: str,
    arg: object = None,
) -> Any:
    """Plays a match of `game` and gives what `script` sees of its page at
    360x640; the page as it ends is saved for a person to look at."""
    outcome = showcase.server.run(play_match(showcase.server.address, game, bots, seed=seed))
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/match/{outcome.match_id}")
        page.wait_for_selector("#board[data-move]")
        seen = page.evaluate(script, arg)
        save_screenshot(page, f"small-phone-{game}-{len(bots)}p")
    finally:
        context.close()
    return seen


@pytest.mark.parametrize(("game", "players"), LINEUPS)
def test_every_boards_text_reads_on_a_small_phone(
    showcase: Showcase, browser: Any, game: str, players: int
) -> None:
    """A 360x640 phone drew Sheep Showdown's dog numbers and sheep cards'
    values 8.1 px high with six seats (10.2 with two): they were set at a
    fixed size, not held to the least text size as the board's other labels
    are."""
    seen = on_a_small_phone(
        showcase, browser, game, [RandomBot(640 + seat) for seat in range(players)], 64,
        SMALL_TEXT, LEAST_TEXT_PX - 0.01,
    )  # fmt: skip
    assert seen["moves"] > 1
    assert not seen["small"], {what: round(px, 2) for what, px in seen["small"].items()}
    assert not seen["out"], f"card values out of their card: {seen['out'][:5]}"


# The narrowest sheep on the Stubborn Sheep board at every move, in CSS px.
NARROWEST_SHEEP = """async () => {
  const m = window.sheepfold, slider = document.getElementById('slider');
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  let narrowest = Infinity, at = null;
  for (let i = 0; i < m.frames.length; i++) {
    slider.value = String(i);
    slider.dispatchEvent(new Event('input'));
    await frame();
    for (const sheep of document.querySelectorAll('#board circle.sheep')) {
      const width = sheep.getBoundingClientRect().width;
      if (width < narrowest) [narrowest, at] = [width, m.frames[i].move];
    }
  }
  return { narrowest, at };
}"""


def test_stubborn_sheep_crowded_areas_keep_their_sheep_apart_on_a_small_phone(
    showcase: Showcase, browser: Any
) -> None:
    """With two seats a 360x640 phone drew the board to the room above the
    controls and a crowded meadow's sheep 7 px across, colours hard to tell:
    there the board is drawn to the column's width, and the page scrolls."""
    bots = [RandomBot(60 + seat) for seat in range(2)]
    seen = on_a_small_phone(showcase, browser, "stubborn-sheep", bots, 32, NARROWEST_SHEEP)
    assert seen["narrowest"] >= SHEEP_LEAST_PX, seen


# How far the controls' box reaches below the lowest of its shown children,
# less its own padding and border (0: no blank band), and whether the slider
# is marked as holding a single move.
CONTROLS_BAND = """() => {
  const box = document.getElementById('controls'), style = getComputedStyle(box);
  const shown = [...box.children].filter((child) => {
    const rect = child.getBoundingClientRect();
    return rect.height > 0 && getComputedStyle(child).visibility !== 'hidden';
  });
  const lowest = Math.max(...shown.map((child) => child.getBoundingClientRect().bottom));
  return {
    band: box.getBoundingClientRect().bottom - lowest
      - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth),
    lone: document.getElementById('slider').classList.contains('lone'),
  };
}"""


def test_a_page_of_one_move_has_no_blank_band_in_its_controls_on_a_phone(browser: Any) -> None:
    """A waiting match holds a single move: its slider is hidden, and on a
    phone it still took a row of its own in the controls pinned at the bottom
    of the screen, a blank band under the buttons."""
    show = start_showcase(games=(), config=ServerConfig(start_timeout=60.0))
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True)
    try:
        created = show.server.run(create_match(show.server.address, "sheep-showdown", 2, seed=5))
        page = context.new_page()
        page.goto(f"{show.url}/match/{created.match_id}")
        page.wait_for_selector('#status[data-status="waiting"]')
        page.wait_for_selector("#slider.lone", state="attached")
        seen = page.evaluate(CONTROLS_BAND)
        save_screenshot(page, "small-phone-waiting-controls")
    finally:
        context.close()
        show.stop()
    assert seen["lone"]
    assert seen["band"] < 1, f"a blank band of {seen['band']:.0f} px under the controls"


# Each row of a tournament's games table: its link's and seats' right edges,
# and the window's width.
GAMES_ROWS = """() => [...document.querySelectorAll('#report table.games tr[data-match-id]')]
  .map((row) => ({
    link: row.querySelector('a').getBoundingClientRect().right,
    seats: row.querySelector('a').closest('td').nextElementSibling.getBoundingClientRect().left,
    width: document.documentElement.clientWidth,
    title: row.querySelector('a').title,
  }))"""


def test_a_tournaments_games_show_their_link_and_seats_on_a_phone(
    own_server_tournament: OwnServerTournament, browser: Any
) -> None:
    """The games table's first column, the long game key, pushed each game's
    link and seats past a phone's screen, reached only by scrolling sideways:
    on a narrow screen the key is left out, the link and seats first."""
    viewer, name = own_server_tournament.viewer, own_server_tournament.name
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{viewer.url}/tournaments/0/{name}")
        page.wait_for_selector("#report table.games tr[data-match-id]")
        rows = page.evaluate(GAMES_ROWS)
        page.locator("#report table.games").scroll_into_view_if_needed()
        save_screenshot(page, "small-phone-tournament-games")
    finally:
        context.close()
    assert rows
    assert all(row["link"] <= row["width"] for row in rows), rows[0]
    assert all(row["seats"] < row["width"] - 60 for row in rows), rows[0]
    assert all(row["title"].startswith("game ") for row in rows), rows[0]  # the key kept
