"""The small pieces of two boards, measured as Chromium draws them: Sheep &
Garden's animals, people and things on their tiles and Stubborn Sheep's fence
arrows must stay big enough to read on a 1280x800 laptop screen (in CSS pixels)
and in proportion to their tile or board at a phone's width too."""

from __future__ import annotations

import math
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from tests.web.expected import observation
from tests.web.test_browser import replay_state, wait_for_move
from tests.web.test_http import _replay
from web.showcase import GAMES, Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHORT_PHONE = {"width": 375, "height": 667}

# An element's size on screen in CSS pixels, along its own axes: getBBox in its
# user units times the scale its transforms and the viewBox give (a fence is
# rotated, so its screen bounding box would be the rotated box's).
ON_SCREEN = """
  const scale = (el) => { const m = el.getScreenCTM(); return Math.hypot(m.a, m.b); };
  const size = (el) => {
    const b = el.getBBox(), k = scale(el);
    return [b.width * k, b.height * k];
  };
  const centre = (el) => {
    const b = el.getBBox(), m = el.getScreenCTM();
    const p = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(m);
    return [p.x, p.y];
  };
"""

GARDEN_PIECES = (
    """() => {"""
    + ON_SCREEN
    + """
  return [...document.querySelectorAll('#board g.tile[data-x]')].map((tile) => ({
    tile: size(tile)[0],
    pieces: [...tile.querySelectorAll('.object')].map((piece) => ({
      disc: size(piece.querySelector('circle')),
      glyph: size(piece.querySelector('text')),
      at: centre(piece.querySelector('circle')),
    })),
  }));
}"""
)

FENCE_ARROWS = (
    """() => {"""
    + ON_SCREEN
    + """
  const board = document.getElementById('board').getBoundingClientRect();
  const areas = Object.fromEntries([...document.querySelectorAll('#board g.area')]
    .map((g) => [g.dataset.area, centre(g.querySelector('circle'))]));
  return {
    board: Math.min(board.width, board.height),
    arrows: [...document.querySelectorAll('#board g.fence .jump-arrow')].map((arrow) => {
      const m = arrow.getScreenCTM();
      const at = (i) => {
        if (!arrow.points) return null;  // not a polygon: measured, but no corners
        const p = arrow.points.getItem(i).matrixTransform(m);
        return [p.x, p.y];
      };
      // The block arrow's tip is its fourth corner and its tail the first.
      // The icon the arrow is drawn on: the sheep's colour, drawn before it.
      return { size: size(arrow), icon: size(arrow.previousElementSibling), tip: at(3),
               tail: at(0), toArea: +arrow.dataset.toArea, to: areas[arrow.dataset.toArea] };
    }),
  };
}"""
)


def open_page(browser: Any, viewport: dict[str, int], url: str, move: int) -> tuple[Any, Any]:
    context = browser.new_context(viewport=viewport, is_mobile=viewport is not LAPTOP)
    page = context.new_page()
    page.goto(f"{url}#move={move}")
    wait_for_move(page, move)
    return context, page


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_sheep_and_garden_pieces_are_legible(
    showcase: Showcase, browser: Any, viewport: dict[str, int]
) -> None:
    game = "sheep-and-garden"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    last = len(replay.actions)  # the most tiles: the smallest they are drawn
    obs = observation(game, replay_state(game, replay, last), None)
    faces = {face.tile: face for face in obs.faces}
    objects = sum(
        area.sheep + area.cows + area.humans + area.trees + area.houses + area.fish
        for placed in obs.placed
        for area in faces[placed.tile].areas
    )
    context, page = open_page(browser, viewport, f"{showcase.url}/match/{match_id}", last)
    try:
        tiles = page.evaluate(GARDEN_PIECES)
    finally:
        context.close()
    assert len(tiles) == len(obs.placed)
    assert sum(len(tile["pieces"]) for tile in tiles) == objects > 0
    smallest = min(tile["tile"] for tile in tiles)
    for tile in tiles:
        for piece in tile["pieces"]:
            assert min(piece["disc"]) >= 0.2 * tile["tile"], (piece, tile["tile"])
            assert piece["glyph"][1] >= 0.14 * tile["tile"], (piece, tile["tile"])
            if viewport is LAPTOP:
                assert min(piece["disc"]) >= 12 and piece["glyph"][1] >= 8, (piece, smallest)
        # Pieces of one tile (of different areas too) do not cover each other.
        for i, one in enumerate(tile["pieces"]):
            for other in tile["pieces"][i + 1 :]:
                apart = math.dist(one["at"], other["at"])
                assert apart >= 0.9 * max(one["disc"]), (one, other)


@pytest.mark.parametrize(
    "viewport", [LAPTOP, PHONE, SHORT_PHONE], ids=["laptop", "phone", "short-phone"]
)
def test_stubborn_sheep_fence_arrows_are_legible_and_point_where_sheep_jump(
    showcase: Showcase, browser: Any, viewport: dict[str, int]
) -> None:
    """A phone drew each icon on a fence 8 px high (its arrow 6 px high and 13
    long): there the fences grow longer, so that an icon is as high as the
    least text (10.5 px) and its arrow is as a laptop draws it, nearly."""
    game = "stubborn-sheep"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    move = len(replay.actions) // 2
    obs = observation(game, replay_state(game, replay, move), None)
    jumps = sorted(jump.to_area for fence in obs.fences for jump in fence.jumps)
    context, page = open_page(browser, viewport, f"{showcase.url}/match/{match_id}", move)
    try:
        drawn = page.evaluate(FENCE_ARROWS)
        save_screenshot(page, f"stubborn-sheep-fences-{viewport['width']}x{viewport['height']}")
    finally:
        context.close()
    assert jumps, "the board at this move has no fence with icons"
    arrows = drawn["arrows"]
    assert sorted(arrow["toArea"] for arrow in arrows) == jumps
    board = drawn["board"]
    for arrow in arrows:
        length, height = arrow["size"]
        assert length >= 0.025 * board and height >= 0.012 * board, (arrow, board)
        if viewport is LAPTOP:
            assert length >= 14 and height >= 8, arrow
        else:
            assert arrow["icon"][1] >= 10.5 and length >= 11 and height >= 8, arrow
        # The tip is nearer the area the sheep jumps to than the tail is.
        assert arrow["tip"] is not None, "a jump arrow is drawn as a polygon"
        assert math.dist(arrow["tip"], arrow["to"]) < math.dist(arrow["tail"], arrow["to"]), arrow


# Every Stubborn Sheep sheep's width on screen, in CSS pixels, with its colour.
SHEEP_SIZES = """() => [...document.querySelectorAll('#board circle.sheep')]
  .map((c) => ({ colour: c.dataset.colour, width: c.getBoundingClientRect().width }))"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_stubborn_sheep_sheep_are_large_enough_to_tell_their_colours(
    showcase: Showcase, browser: Any, viewport: dict[str, int]
) -> None:
    """Which sheep jumps is told by its colour alone: a phone drew each sheep
    7 px across (12 on a laptop), and white and yellow were hard to tell."""
    game = "stubborn-sheep"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    move = len(replay.actions) // 2
    obs = observation(game, replay_state(game, replay, move), None)
    context, page = open_page(browser, viewport, f"{showcase.url}/match/{match_id}", move)
    try:
        sheep = page.evaluate(SHEEP_SIZES)
    finally:
        context.close()
    assert len(sheep) == sum(len(area.sheep) for area in obs.areas) > 0
    narrowest = min(one["width"] for one in sheep)
    assert narrowest >= 10.5, f"a sheep {narrowest:.1f} px across"


# Bot names as a tournament config allows them (ASCII letters, digits, '.',
# '_', '+', '-', any length): long ones, wide letters, digits.
LONG_BOT_NAMES = (
    "alice-monte-carlo-tree-search-v2-tuned",
    "mcts-v1-with-a-long-descriptive-suffix",
    "mcts-v2-with-a-long-descriptive-suffix",
    "WWWMMMmmmwww" * 3,
    "g" + "0123456789" * 6,
    "r",
)


def test_every_bot_name_in_the_interval_plot_is_drawn_whole(page: Any) -> None:
    """The plot's names ended at a fixed margin of 150 px: a name longer than
    about 20 characters was cut at the plot's left edge, so bots whose names
    differ only at their start ("mcts-v1-..." and "mcts-v2-...") could not be
    told apart. Each name is drawn whole, over its interval."""
    from tests.web.test_report_html import game, record
    from tournament.report import report_data
    from tournament.report_html import report_page

    bots = list(LONG_BOT_NAMES)
    games = [
        game(f"{a}|{b}|{seed}", seed, [(a, 10.0 + seed, 1), (b, 5.0, 2)])
        for seed in (1, 2)
        for a in bots
        for b in bots
        if a != b
    ]
    data = report_data(record(2, bots), games, samples=20)
    page.set_content(report_page(data, games))
    labels = page.evaluate(PLOT)["rows"]
    assert sorted(label["bot"] for label in labels) == sorted(bots)
    for label in labels:
        name, plot = label["name"], label["plot"]
        assert plot["left"] <= name["left"] and name["right"] <= plot["right"], label
        assert name["bottom"] <= label["dot"]["top"], f"{label['bot']!r} meets its interval"


# The interval plot on screen, in CSS px: its box, each row's name, estimate
# and dot, every text's size, and whether the report scrolls sideways.
PLOT = """() => {
  const box = (el) => el.getBoundingClientRect().toJSON();
  const plot = document.querySelector('svg.plot');
  const report = document.querySelector('.report').parentElement;
  return {
    plot: box(plot),
    rows: [...plot.querySelectorAll('g.interval')].map((g) => ({
      bot: g.dataset.bot, name: box(g.querySelector('tspan.bot') || g.querySelector('text')),
      line: box(g.querySelector('text')),
      dot: box(g.querySelector('circle')), plot: box(plot),
    })),
    texts: [...plot.querySelectorAll('text, tspan')].map((t) => ({
      text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize), at: box(t),
    })),
    window: document.documentElement.clientWidth,
    // The tables' cells of more than one line.
    wrapped: [...document.querySelectorAll('.report td')].filter((td) =>
      td.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(td).lineHeight) + 9)
      .map((td) => td.textContent),
    wide: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    scrolls: report.scrollWidth > report.clientWidth,
  };
}"""


def test_the_interval_plot_fits_a_phone_without_scrolling_sideways(
    showcase: Showcase, browser: Any
) -> None:
    """The plot was 760 px wide at least (names left of a 460 px axis, the
    figures right of it): on a 375 px phone the report scrolled sideways to
    show it. It is drawn to the page's width, its type as large as on a laptop,
    and only the wide tables scroll, each on its own, their cells on one line
    (the list of games broke its seats and scores a word a line)."""
    context = browser.new_context(viewport=SHORT_PHONE, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("svg.plot g.interval")
        seen = page.evaluate(PLOT)
        page.locator("svg.plot").scroll_into_view_if_needed()
        save_screenshot(page, "short-phone-tournament-plot")
    finally:
        context.close()
    assert seen["rows"] and not seen["wide"]
    assert not seen["scrolls"], "the report scrolls sideways"
    # A table scrolls rather than break its cells ("random-" over "too|greedy").
    assert not seen["wrapped"], seen["wrapped"]
    assert seen["plot"]["left"] >= 0 and seen["plot"]["right"] <= seen["window"], seen["plot"]
    for text in seen["texts"]:
        assert text["px"] >= 11, text
        assert text["at"]["left"] >= 0 and text["at"]["right"] <= seen["window"], text
    for row in seen["rows"]:
        assert row["line"]["bottom"] <= row["dot"]["top"], row


# Every pasture card's width on screen, and each pasture's box, in CSS pixels.
PASTURES = """() => ({
  cards: [...document.querySelectorAll('#board g.pasture .snscard > rect')]
    .map((r) => r.getBoundingClientRect().width),
  boxes: [...document.querySelectorAll('#board g.pasture > rect')]
    .map((r) => r.getBoundingClientRect().toJSON()),
  wide: document.documentElement.scrollWidth > document.documentElement.clientWidth,
})"""


def test_sheep_n_sheep_pastures_are_legible_on_a_phone(showcase: Showcase, browser: Any) -> None:
    """Four pastures side by side, late in a match, drew each card 11 px wide
    (its number 5 px high) on a phone: they go two to a row there, and back
    side by side when the window is wide again."""
    bots = [RandomBot(80 + seat) for seat in range(4)]
    outcome = showcase.server.run(
        play_match(showcase.server.address, "sheep-n-sheep", bots, seed=12)
    )
    replay = showcase.server.run(_replay(showcase, outcome.match_id))
    last = len(replay.actions)  # the widest pastures
    obs = observation("sheep-n-sheep", replay_state("sheep-n-sheep", replay, last), None)
    cards = sum(len(pasture.cards) for pasture in obs.pastures)
    context, page = open_page(browser, PHONE, f"{showcase.url}/match/{outcome.match_id}", last)
    try:
        on_phone = page.evaluate(PASTURES)
        save_screenshot(page, "phone-sheep-n-sheep-four-pastures")
        page.set_viewport_size(LAPTOP)
        page.wait_for_function(
            "() => new Set([...document.querySelectorAll('#board g.pasture > rect')]"
            ".map((r) => r.getBoundingClientRect().top)).size === 1"
        )
        on_laptop = page.evaluate(PASTURES)
    finally:
        context.close()
    for seen, smallest in ((on_phone, 18), (on_laptop, 24)):
        assert len(seen["cards"]) == cards > 0
        assert min(seen["cards"]) >= smallest, (min(seen["cards"]), smallest)
        assert not seen["wide"], "the page is wider than the window"
        boxes = seen["boxes"]
        for i, one in enumerate(boxes):
            for other in boxes[i + 1 :]:
                apart = (
                    one["right"] <= other["left"]
                    or other["right"] <= one["left"]
                    or one["bottom"] <= other["top"]
                    or other["bottom"] <= one["top"]
                )
                assert apart, f"two pastures overlap: {one} {other}"
    assert len({round(box["top"]) for box in on_phone["boxes"]}) == 2, "not two rows on a phone"


# Every landscape tile's and objective card's box on screen, in CSS pixels.
GARDEN_LAYOUT = """() => ({
  tiles: [...document.querySelectorAll('#board g.tile[data-x] > rect:last-child')]
    .map((r) => r.getBoundingClientRect().toJSON()),
  cards: [...document.querySelectorAll('#board g.objective > rect')]
    .map((r) => r.getBoundingClientRect().toJSON()),
  wide: document.documentElement.scrollWidth > document.documentElement.clientWidth,
})"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_sheep_and_garden_puts_its_cards_under_the_landscape_on_a_phone(
    showcase: Showcase, browser: Any, viewport: dict[str, int]
) -> None:
    """The display and the objectives stood beside the landscape on a phone
    too, and took a third of its narrow column: a four-player match's tiles
    were 28 px across at move 20 and 22 at the end. There they go under it;
    on a laptop they stay beside it."""
    game = "sheep-and-garden"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    last = len(replay.actions)
    context, page = open_page(browser, viewport, f"{showcase.url}/match/{match_id}", last)
    try:
        seen = page.evaluate(GARDEN_LAYOUT)
        if viewport is PHONE:
            save_screenshot(page, "phone-sheep-and-garden")
    finally:
        context.close()
    tiles, cards = seen["tiles"], seen["cards"]
    assert tiles and cards and not seen["wide"]
    if viewport is PHONE:
        assert all(card["top"] >= tile["bottom"] for card in cards for tile in tiles)
        assert min(tile["width"] for tile in tiles) >= 30, tiles
    else:
        assert all(card["left"] >= tile["right"] for card in cards for tile in tiles)
        assert min(tile["width"] for tile in tiles) >= 45, tiles


FIRST_SHEEP, LAST_SHEEP = 1, 4  # card codes 1 to 4 are the sheep cards; the rest have names


def test_sheep_showdown_draws_a_seats_flock_that_holds_a_named_card(
    showcase: Showcase, page: Any
) -> None:
    """A seat's flock below the board drew every card with the board's font
    sizes, which the flock never got: a named card (shepherd, wolf, ...) in
    it stopped the drawing with "f is not a function"."""
    game = "sheep-showdown"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    named = [
        (move, seat)
        for move in range(len(replay.actions) + 1)
        for seat in range(replay.players)
        if any(
            not FIRST_SHEEP <= code <= LAST_SHEEP
            for code in observation(game, replay_state(game, replay, move), seat).own_flock
        )
    ]
    assert named, "the showcase match gives no seat a named card"
    move, seat = named[0]
    page.goto(f"{showcase.url}/match/{match_id}#move={move}")
    wait_for_move(page, move)
    page.select_option("#view", f"seat-{seat}")
    page.wait_for_function(f"() => window.sheepfold.view === 'seat-{seat}'")
    # The view is chosen before the seat's frames arrive and are drawn.
    named_card = f'.hand-card[data-seat="{seat}"] .card-name'
    page.wait_for_selector(named_card, timeout=15_000)
    names = page.eval_on_selector_all(named_card, "ns => ns.map(n => n.textContent)")
    assert all(names), "the named card's name is drawn in the flock"
    # The page fixture fails the test on any JavaScript error the page raised.


# Under the board, each seat's private part: its texts' sizes, and the icons
# and arrows on Stubborn Sheep's fence cards, in CSS px.
PRIVATE = (
    """() => {"""
    + ON_SCREEN
    + """
  const part = document.getElementById('private');
  return {
    texts: [...part.querySelectorAll('*')]
      .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      .map((el) => {
        const m = el.getScreenCTM ? el.getScreenCTM() : null;
        const px = parseFloat(getComputedStyle(el).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
        return { text: el.textContent.slice(0, 40), px };
      }),
    icons: [...part.querySelectorAll('.fence-card polygon')].map((arrow) => ({
      icon: size(arrow.previousElementSibling), arrow: size(arrow),
    })),
  };
}"""
)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_seats_private_part_is_legible(showcase: Showcase, browser: Any, game: str) -> None:
    """'All cards' shows each seat's hand under the board at a fixed size: a
    Sheep 'n' Sheep card's values and icons were 10 px, and a Stubborn Sheep
    fence card's icons 9 px high with arrows 7 px high."""
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    move = len(replay.actions) // 2
    context, page = open_page(browser, SHORT_PHONE, f"{showcase.url}/match/{match_id}", move)
    try:
        page.select_option("#view", "all")
        page.wait_for_selector("#private .private-seat")
        seen = page.evaluate(PRIVATE)
        page.locator("#private").screenshot(
            path=str(save_screenshot(page, f"short-phone-{game}-private"))
        )
    finally:
        context.close()
    assert seen["texts"], "no seat's private part is drawn"
    small = [(t["text"], round(t["px"], 2)) for t in seen["texts"] if t["px"] < 10.5]
    assert not small, f"text under 10.5 px: {small}"
    if game == "stubborn-sheep":
        assert seen["icons"], "no fence card in a hand at this move"
        for icon in seen["icons"]:
            assert icon["icon"][1] >= 10.5 and icon["arrow"][1] >= 8, icon
