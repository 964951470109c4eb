"""Every board's labels on a phone (390 px wide), measured as Chromium draws
them: at least 10 CSS px of type, and clear of the pieces. A phone draws a
board at a third to a half of its size, and its labels of 10 or 11 units came
out 4 to 6 px high (Stubborn Sheep's area and fence numbers 5.4 px, Sheep &
Garden's column and row numbers 7.4, Sheep 'n' Sheep's card values 5.7, and
the letters on Sheep & Garden's animals and things 5.3)."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from tests.web.test_browser import wait_for_move
from tests.web.test_http import _replay
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

PHONE = {"width": 390, "height": 844}
LEAST_PX = 10

# Per game: [labels, pieces] selector pairs whose boxes must not meet, and
# [labels, container] pairs where each label must lie inside its container.
APART: dict[str, list[tuple[str, str]]] = {
    "stubborn-sheep": [
        (".area-kind, .area-label", "circle.sheep, .wolf path"),
        (".fence-label", "g.fence rect, circle.sheep, .area-kind, .area-label"),
        (".turn-line, .deciding, .piles, [data-seat-points]", "g.area circle, g.fence rect"),
        # The sheep, grown on a phone, clear of each other, the wolf and the fences.
        ("circle.sheep", "circle.sheep, .wolf path, g.fence rect"),
    ],
    "sheep-showdown": [(".axis, .board-title", ".cell rect")],
    "sheep-n-sheep": [
        (".card-number", ".card-icon, .card-value"),
        ("g.pasture > text", ".snscard rect"),
        ("#board > text", ".market-set rect, g.pasture > rect"),
    ],
    "sheep-and-garden": [
        (".axis", "g.tile[data-x] > rect:last-child"),
        (".objective-name", ".objective-holders, .objective-text"),
        # The letters on two pieces of a tile: grown to be read, they must not
        # run into each other.
        (".object text", ".object text"),
        # The headings over the display and the objectives: the cards once
        # covered "objectives" on a phone.
        ("#board > text:not(.axis)", "g.tile.shown > rect, g.objective > rect"),
    ],
}
# Per game: (labels, holder, container): each label lies inside the container
# found in the nearest holder round it.
INSIDE: dict[str, list[tuple[str, str, str]]] = {
    "stubborn-sheep": [("circle.sheep", "g.area", ":scope > circle")],
    "sheep-showdown": [(".card-name", "g.card", ":scope > rect")],
    "sheep-n-sheep": [(".card-number, .card-value, .card-icon", "g.snscard", ":scope > rect")],
    "sheep-and-garden": [
        (".objective-name, .objective-text, .objective-holders", "g.objective", ":scope > rect"),
        # A piece's letter in its disc, and the disc in its tile.
        (".object text", "g.object", ":scope > circle"),
        (".object circle", "g.tile", ":scope > rect:last-child"),
    ],
}

# Sizes in CSS px; a label that meets a piece: a piece's own shape (a rotated
# fence, a circle) is asked whether it holds points spread over the label's
# box, a text's box is compared with the label's.
MEASURE = """([apart, inside]) => {
  const sizes = [...document.querySelectorAll('#board text')].map((t) => {
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    return { text: t.textContent, px };
  });
  const box = (el) => el.getBoundingClientRect();
  const boxesMeet = (a, b) => a.left + 0.5 < b.right && b.left + 0.5 < a.right &&
    a.top + 0.5 < b.bottom && b.top + 0.5 < a.bottom;
  const holds = (shape, a) => {
    const back = shape.getScreenCTM().inverse();
    for (let i = 0; i <= 6; i++) {
      for (let j = 0; j <= 4; j++) {
        const x = a.left + 0.5 + (a.width - 1) * i / 6, y = a.top + 0.5 + (a.height - 1) * j / 4;
        if (shape.isPointInFill(new DOMPoint(x, y).matrixTransform(back))) return true;
      }
    }
    return false;
  };
  const clashes = [];
  const all = (selector) => [...document.querySelectorAll('#board :is(' + selector + ')')];
  for (const [labels, pieces] of apart) {
    const others = all(pieces);
    for (const label of all(labels)) {
      for (const other of others) {
        if (other === label) continue;
        const met = other.tagName === 'text' ? boxesMeet(box(label), box(other))
          : boxesMeet(box(label), box(other)) && holds(other, box(label));
        const what = `${other.tagName}.${other.getAttribute('class') || ''} ${other.textContent}`;
        if (met) clashes.push(`${label.textContent || label.getAttribute('class')} meets ${what}`);
      }
    }
  }
  let checked = 0;
  for (const [labels, holder, container] of inside) {
    for (const label of all(labels)) {
      const card = label.closest(holder);
      const a = box(label), b = box(card.querySelector(container));
      checked += 1;
      const out = a.left < b.left - 0.5 || a.right > b.right + 0.5 ||
        a.top < b.top - 0.5 || a.bottom > b.bottom + 0.5;
      const by = [a.left - b.left, b.right - a.right, a.top - b.top, b.bottom - a.bottom]
        .map(Math.round);
      const what = label.textContent || label.getAttribute('class');
      if (out) clashes.push(`${what} sticks out of its ${holder} ${container} by ${by}`);
    }
  }
  const wide = document.documentElement.scrollWidth > document.documentElement.clientWidth;
  return { sizes, clashes, checked, wide };
}"""


def _phone_board(
    browser: Any, url: str, move: int, name: str, viewport: dict[str, int] = PHONE
) -> dict[str, Any]:
    context = browser.new_context(viewport=viewport, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{url}#move={move}")
        wait_for_move(page, move)
        game = name.split("@")[0]
        seen = page.evaluate(MEASURE, [APART[game], INSIDE.get(game, [])])
        page.locator("#board").screenshot(path=str(save_screenshot(page, f"phone-labels-{name}")))
        return seen
    finally:
        context.close()


def _check(seen: dict[str, Any]) -> None:
    small = [(s["text"], round(s["px"], 1)) for s in seen["sizes"] if s["px"] < LEAST_PX]
    assert seen["sizes"] and not small, f"labels under {LEAST_PX} px on a phone: {small}"
    assert not seen["clashes"], seen["clashes"]
    assert not seen["wide"], "the page is wider than the phone"


@pytest.mark.parametrize("game", list(APART))
def test_every_label_on_every_board_reads_on_a_phone(
    showcase: Showcase, browser: Any, game: str
) -> None:
    match_id = showcase.finished[game]
    moves = len(showcase.server.run(_replay(showcase, match_id)).actions)
    for move in (moves // 2, moves):
        seen = _phone_board(browser, f"{showcase.url}/match/{match_id}", move, f"{game}@{move}")
        _check(seen)
        if game in INSIDE:
            assert seen["checked"] > 0


@pytest.mark.parametrize(("game", "players"), [("stubborn-sheep", 5), ("sheep-and-garden", 4)])
def test_the_most_seats_a_board_holds_still_read_on_a_phone(
    showcase: Showcase, browser: Any, game: str, players: int
) -> None:
    """Five seats' Stubborn Sheep has ten areas round the ring (the least room
    between them); four seats' Sheep & Garden the widest landscape."""
    # Not showcase.play_finished, which would make it the game's match for the
    # tests after this one.
    bots = [RandomBot(170 + seat) for seat in range(players)]
    match_id = showcase.server.run(
        play_match(showcase.server.address, game, bots, seed=17)
    ).match_id
    moves = len(showcase.server.run(_replay(showcase, match_id)).actions)
    for move in (moves // 2, moves):
        url = f"{showcase.url}/match/{match_id}"
        _check(_phone_board(browser, url, move, f"{game}@{players}p-{move}"))


SHORT_PHONE = {"width": 375, "height": 667}
LEAST_TEXT_PX = 10.5  # web/static/svg.js

# On a page that may scroll: the parts of the board (its texts, tiles and
# cards) that no scroll position the page can reach shows whole in the window
# and clear of the controls, which stay at the window's foot; the texts drawn
# past the board's drawing (its viewBox, on screen); and how far the page
# scrolls.
REACHABLE = """() => {
  const board = document.getElementById('board');
  const controls = document.getElementById('controls');
  const what = (el) => el.textContent || el.getAttribute('class');
  const parts = [...board.querySelectorAll('text, g.tile, g.objective')];
  const seen = new Set();
  const last = document.documentElement.scrollHeight - window.innerHeight;
  for (let y = 0; ; y = Math.min(last, y + 20)) {
    window.scrollTo(0, y);
    const foot = Math.min(window.innerHeight, controls.getBoundingClientRect().top);
    parts.forEach((part, i) => {
      const r = part.getBoundingClientRect();
      if (r.top >= -0.5 && r.bottom <= foot + 0.5) seen.add(i);
    });
    if (y >= last) break;
  }
  window.scrollTo(0, 0);
  const [w, h] = board.getAttribute('viewBox').split(' ').slice(2).map(Number);
  const m = board.getScreenCTM();
  const a = new DOMPoint(0, 0).matrixTransform(m), b = new DOMPoint(w, h).matrixTransform(m);
  const clipped = [...board.querySelectorAll('text')].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < a.x - 0.5 || r.right > b.x + 0.5 || r.top < a.y - 0.5 || r.bottom > b.y + 0.5;
  }).map(what);
  return { hidden: parts.filter((_, i) => !seen.has(i)).map(what), clipped, scrolls: last };
}"""


# Scrolls the board's foot to just above the controls.
BOARD_FOOT_ABOVE_CONTROLS = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const controls = document.getElementById('controls').getBoundingClientRect();
  window.scrollBy(0, board.bottom - controls.top + 4);
}"""


def _short_phone_board(browser: Any, url: str, move: int, name: str) -> None:
    context = browser.new_context(viewport=SHORT_PHONE, is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}#move={move}")
        wait_for_move(page, move)
        seen = page.evaluate(MEASURE, [APART["sheep-and-garden"], INSIDE["sheep-and-garden"]])
        reach = page.evaluate(REACHABLE)
        save_screenshot(page, f"short-phone-{name}")
        page.evaluate(BOARD_FOOT_ABOVE_CONTROLS)
        save_screenshot(page, f"short-phone-{name}-foot")
        # Every label at the least size, less a hundredth of a pixel of
        # rounding.
        small = [
            (s["text"], round(s["px"], 3)) for s in seen["sizes"] if s["px"] < LEAST_TEXT_PX - 0.01
        ]
        wrong = {
            "small": small,
            "clashes": seen["clashes"],
            "wide": seen["wide"],
            "cut off at the board's edge": reach["clipped"],
            "shown clear of the controls at no scroll": reach["hidden"],
        }
        assert seen["sizes"] and not any(wrong.values()), (name, wrong)
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("players", [2, 4])
def test_sheep_and_garden_reads_whole_on_a_short_phone_by_scrolling(
    showcase: Showcase, browser: Any, players: int
) -> None:
    """On a 375x667 phone the room above the controls is about 400 px high: a
    finished match's landscape fitted into it drew tiles under 27 px, whose
    letters stay under 10.5 px so four pieces fit a tile, and its heading
    ('display · deck 0 · over: all tiles placed') ran past the board's edge.
    There the board runs taller than the window and the page scrolls."""
    if players == 2:
        match_id = showcase.finished["sheep-and-garden"]
    else:
        bots = [RandomBot(170 + seat) for seat in range(players)]
        match_id = showcase.server.run(
            play_match(showcase.server.address, "sheep-and-garden", bots, seed=17)
        ).match_id
    moves = len(showcase.server.run(_replay(showcase, match_id)).actions)
    for move in (moves, moves // 2):
        url = f"{showcase.url}/match/{match_id}"
        _short_phone_board(browser, url, move, f"sheep-and-garden@{players}p-{move}")


# On screen, in CSS px: each heading over the display and the objectives, and
# the display's tiles (top and bottom edges).
HEADINGS = """() => {
  const edges = (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; };
  return {
    headings: [...document.querySelectorAll('#board > text:not(.axis)')]
      .map((t) => ({ text: t.textContent, edges: edges(t) })),
    tiles: [...document.querySelectorAll('#board g.tile.shown')].map(edges),
  };
}"""


def test_sheep_and_garden_leaves_no_empty_band_under_an_empty_display(
    showcase: Showcase, browser: Any
) -> None:
    """Once the deck is spent the display shows no tile, yet kept a row a tile
    high for them: on a 375x667 phone a band of 30 px stood empty between
    'display ... over: all tiles placed' and 'objectives'."""
    game = "sheep-and-garden"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    last = len(replay.actions)
    url = f"{showcase.url}/match/{match_id}"
    context = browser.new_context(viewport=SHORT_PHONE, is_mobile=True)
    try:
        page = context.new_page()
        drawn = {}
        for move in (last // 2, last):
            page.goto(f"{url}#move={move}")
            wait_for_move(page, move)
            drawn[move] = page.evaluate(HEADINGS)
            page.evaluate(BOARD_FOOT_ABOVE_CONTROLS)
            save_screenshot(page, f"short-phone-sheep-and-garden-display@{move}")
    finally:
        context.close()
    for move, seen in drawn.items():
        display, objectives = seen["headings"]
        assert display["text"].startswith("display") and objectives["text"] == "objectives"
        high = display["edges"][1] - display["edges"][0]
        # What the display shows: its tiles mid-match, none at the end.
        assert bool(seen["tiles"]) is (move < last), (move, seen["tiles"])
        above = max([display["edges"][1]] + [bottom for _, bottom in seen["tiles"]])
        gap = objectives["edges"][0] - above
        assert 0 <= gap <= high, f"at move {move} {gap:.0f} px empty over 'objectives'"


def test_sheep_and_garden_objective_cards_hold_their_text_in_every_view(
    showcase: Showcase, browser: Any
) -> None:
    """A card's text was broken into lines by a guess at its width of half its
    size a letter: 'between lakes and open edges)' ran 8 px past its card on
    a 375x667 phone, and a line of a three-player match's card past it on a
    laptop. The 'all cards' view shows the hidden cards' text too."""
    match_id = showcase.finished["sheep-and-garden"]
    last = len(showcase.server.run(_replay(showcase, match_id)).actions)
    context = browser.new_context(viewport=SHORT_PHONE, is_mobile=True)
    clashes = {}
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{showcase.url}/match/{match_id}#move=0")
        wait_for_move(page, 0)
        page.select_option("#view", "all")
        for move in range(0, last + 1, 2):
            page.goto(f"{showcase.url}/match/{match_id}#move={move}")
            wait_for_move(page, move)
            assert not errors, errors
            seen = page.evaluate(MEASURE, [[], INSIDE["sheep-and-garden"]])
            assert seen["checked"] > 0
            if seen["clashes"]:
                clashes[move] = seen["clashes"]
                save_screenshot(page, f"short-phone-sheep-and-garden-all-cards@{move}")
    finally:
        context.close()
    assert not clashes, clashes


@pytest.mark.parametrize("players", [4, 5])
def test_stubborn_sheep_with_most_seats_reads_on_a_short_phone(
    showcase: Showcase, browser: Any, players: int
) -> None:
    """A 375x667 phone draws the ring smaller than a 390x844 one, its labels
    and sheep as large: three rows of sheep ran out of an area onto the
    fences beside it, and 'fence 4' ran into the 'meadow' of the area beside
    it, whose word is wider than its circle there."""
    bots = [RandomBot(170 + seat) for seat in range(players)]
    match_id = showcase.server.run(
        play_match(showcase.server.address, "stubborn-sheep", bots, seed=17)
    ).match_id
    moves = len(showcase.server.run(_replay(showcase, match_id)).actions)
    assert moves > 80
    url = f"{showcase.url}/match/{match_id}"
    for move in (40, 80):
        name = f"stubborn-sheep@{players}p-{move}-short"
        _check(_phone_board(browser, url, move, name, SHORT_PHONE))
