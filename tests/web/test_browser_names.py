"""What a spectator reads beside the board can be found on it, in headless
Chromium: the event log and the move labels name places ("area 7", "fence 8"),
and the board must carry the same names."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clients.matchplay import create_match
from server.app import ServerConfig
from tests.web.conftest import save_screenshot
from tests.web.expected import observation
from tests.web.test_browser import replay_state, wait_for_move
from tests.web.test_http import _replay
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Every board text, as (its class, the area or fence it belongs to, the text).
BOARD_TEXTS = """() => [...document.querySelectorAll('#board text')].map((t) => [
  t.getAttribute('class') || '',
  (t.closest('g.area') || t).dataset.area ?? t.dataset.fence ?? '',
  t.textContent])"""


def test_stubborn_sheep_names_every_area_and_fence_as_the_log_does(
    showcase: Showcase, page: Any
) -> None:
    """The log says "red sheep 27 jumps from area 7 to area 8" and "fence 8
    activates", but the board labelled pens by their seat ("pen 4") and
    meadows alone by their area, and fences not at all: area 8 was pen 4, and
    which fence was fence 8 a spectator had to count out."""
    match_id = showcase.finished["stubborn-sheep"]
    replay = showcase.server.run(_replay(showcase, match_id))
    move = len(replay.actions) // 2
    obs = observation("stubborn-sheep", replay_state("stubborn-sheep", replay, move), None)
    page.goto(f"{showcase.url}/match/{match_id}#move={move}")
    wait_for_move(page, move)
    texts = page.evaluate(BOARD_TEXTS)
    area_labels = {(where, said) for kind, where, said in texts if kind == "area-label"}
    fence_labels = {(where, said) for kind, where, said in texts if kind == "fence-label"}
    assert area_labels == {(str(a.index), f"area {a.index}") for a in obs.areas}
    assert fence_labels == {(str(f.index), f"fence {f.index}") for f in obs.fences}
    # Every place the log names up to this move is written on the board.
    log = page.inner_text("#log")
    named = set(re.findall(r"\b(area|fence) (\d+)", log))
    assert named, "the log names no area or fence"
    shown = {tuple(said.split(" ")) for _, _, said in texts}
    assert named <= shown, f"named in the log but not on the board: {named - shown}"
    # A fence's number stays clear of every fence card, whatever its angle.
    overlaps = page.evaluate(
        """() => [...document.querySelectorAll('#board text.fence-label')].filter((label) => {
          const r = label.getBoundingClientRect();
          const points = [[r.left + 1, r.top + 1], [r.right - 1, r.top + 1],
            [r.left + 1, r.bottom - 1], [r.right - 1, r.bottom - 1],
            [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
          return points.some(([x, y]) =>
            document.elementsFromPoint(x, y).some((e) => e.closest('g.fence')));
        }).map((label) => label.textContent)"""
    )
    assert not overlaps, f"on a fence card: {overlaps}"
    save_screenshot(page, "stubborn-sheep-names")


# Each objective card's slot, its text as drawn line by line, and whether a
# line runs out of the card.
OBJECTIVE_TEXTS = """() => [...document.querySelectorAll('#board g.objective')].map((g) => {
  const card = g.querySelector('rect').getBBox();
  const lines = [...g.querySelectorAll('text.objective-text')];
  return [g.dataset.objectiveSlot, lines.map((t) => t.textContent),
    lines.some((t) => t.getBBox().x + t.getBBox().width > card.x + card.width)];
})"""


def test_sheep_and_garden_objective_cards_read_whole_words(showcase: Showcase, page: Any) -> None:
    """A card's text was cut at its 52nd character, mid-word: "+1 per tree in
    complet" over "e gardens"."""
    game = "sheep-and-garden"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    state = replay_state(game, replay, 0)
    texts = {
        str(o.slot): o.text
        for seat in range(replay.players)
        for o in observation(game, state, seat).objectives
        if o.card
    }
    page.goto(f"{showcase.url}/match/{match_id}#move=0")
    wait_for_move(page, 0)
    page.select_option("#view", "all")  # every card face up
    page.wait_for_selector('#board[data-view="all"]')
    drawn = page.evaluate(OBJECTIVE_TEXTS)
    assert {slot for slot, _, _ in drawn} == set(texts)
    for slot, lines, overflows in drawn:
        assert " ".join(lines) == texts[slot], (lines, texts[slot])
        assert 1 <= len(lines) <= 2 and not overflows, (slot, lines)
    save_screenshot(page, "sheep-and-garden-objectives")


def test_the_matches_list_dates_a_match_of_another_day(showcase: Showcase, browser: Any) -> None:
    """The list gave a match's start as a time of day alone: a match of three
    days ago read as one of today's."""
    # A context of its own: a page's clock is its whole context's.
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        _dates_a_match_of_another_day(showcase, page)
    finally:
        context.close()
    assert not errors, f"the page raised JavaScript errors: {errors}"


def _dates_a_match_of_another_day(showcase: Showcase, page: Any) -> None:
    match_id = showcase.finished["sheep-showdown"]
    when = f'#finished tr[data-match-id="{match_id}"] td.when'
    page.goto(f"{showcase.url}/")
    page.wait_for_selector(when)
    created_at, date = page.evaluate(
        "(id) => fetch('/api/matches').then((r) => r.json()).then((list) => {"
        " const t = list.find((m) => m.match_id === id).created_at;"
        " return [t, new Date(t * 1000).toLocaleDateString()]; })",
        match_id,
    )
    # The page's clock is pinned to the match's own start, not the wall
    # clock, so a run across midnight still sees "today" as the match's day.
    page.clock.set_fixed_time(created_at)
    page.goto(f"{showcase.url}/")
    page.wait_for_selector(when)
    today = page.inner_text(when)
    assert date not in today, (today, date)  # today's: its time says enough
    page.clock.set_fixed_time(created_at + 3 * 86400)
    page.goto(f"{showcase.url}/")
    page.wait_for_selector(when)
    later = page.inner_text(when)
    assert date in later and today in later, (later, date, today)
    save_screenshot(page, "matches-of-another-day")


# Each placed tile's cell and centre on screen, and each axis number's centre.
GARDEN_AXES = """() => {
  const centre = (e) => { const r = e.getBoundingClientRect();
    return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
  return {
    tiles: [...document.querySelectorAll('#board g.tile[data-x]')].map((g) =>
      [+g.dataset.x, +g.dataset.y, centre(g.querySelector(':scope > rect:last-child'))]),
    xs: Object.fromEntries([...document.querySelectorAll('#board text[data-axis-x]')]
      .map((t) => [t.textContent, centre(t)])),
    ys: Object.fromEntries([...document.querySelectorAll('#board text[data-axis-y]')]
      .map((t) => [t.textContent, centre(t)])),
  };
}"""


def test_sheep_and_garden_numbers_the_cells_as_the_moves_do(showcase: Showcase, page: Any) -> None:
    """A move reads "place tile 23 at (4,3)", and so does the event log, but
    the landscape had no numbers: which cell was (4,3) a spectator could not
    tell. Each column has its x above it and each row its y beside it."""
    game = "sheep-and-garden"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    move = len(replay.actions) // 2
    obs = observation(game, replay_state(game, replay, move), None)
    page.goto(f"{showcase.url}/match/{match_id}#move={move}")
    wait_for_move(page, move)
    seen = page.evaluate(GARDEN_AXES)
    assert sorted((x, y) for x, y, _ in seen["tiles"]) == sorted((p.x, p.y) for p in obs.placed)
    for x, y, (tx, ty) in seen["tiles"]:
        # The number of its column right above it, of its row level with it.
        assert abs(seen["xs"][str(x)][0] - tx) < 1 and seen["xs"][str(x)][1] < ty, (x, seen["xs"])
        assert abs(seen["ys"][str(y)][1] - ty) < 1 and seen["ys"][str(y)][0] < tx, (y, seen["ys"])
    last = obs.placed[-1]
    assert f"at ({last.x},{last.y})" in page.inner_text("#log")
    save_screenshot(page, "sheep-and-garden-cell-numbers")


def _pasture_cards(obs: Any) -> dict[int, tuple[int, int]]:
    return {
        placed.card.id: (placed.cell.x, placed.cell.y) for p in obs.pastures for placed in p.cards
    }


def test_sheep_n_sheep_outlines_the_cards_a_move_laid(showcase: Showcase, page: Any) -> None:
    """The log says "seat 3 placed grey 1 (#82) at (4,-2)", but nothing marked
    the new card among a pasture's twenty: the cards a move laid are outlined,
    and only those, move after move."""
    game = "sheep-n-sheep"
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    start = len(replay.actions) // 2
    moves = list(range(start, start + 12))
    cards = {
        move: _pasture_cards(observation(game, replay_state(game, replay, move), None))
        for move in [start - 1, *moves]
    }
    page.goto(f"{showcase.url}/match/{match_id}#move={start}")
    laid_somewhere = False
    for move in moves:
        if move > start:
            page.keyboard.press("ArrowRight")
        wait_for_move(page, move)
        laid = {card: cell for card, cell in cards[move].items() if card not in cards[move - 1]}
        marked = page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('#board [data-new]')]"
            ".map((g) => [g.dataset.cardId, [+g.dataset.x, +g.dataset.y]]))"
        )
        assert {int(card): tuple(cell) for card, cell in marked.items()} == laid, move
        assert page.locator("#board rect.new-card").count() == len(laid)
        if laid:
            laid_somewhere = True
            save_screenshot(page, "sheep-n-sheep-new-card")
    assert laid_somewhere, "no card was laid in these moves"


def test_a_match_waiting_for_its_seats_says_so(page: Any) -> None:
    """Before any seat had joined, the match page said "Seat 1 to move" and the
    list "seat 1 to move", as if a bot were deciding."""
    show = start_showcase(games=(), config=ServerConfig(start_timeout=60.0))
    try:
        created = show.server.run(create_match(show.server.address, "sheep-and-garden", 2, seed=5))
        page.goto(f"{show.url}/match/{created.match_id}")
        page.wait_for_selector('#status[data-status="waiting"]')
        page.wait_for_selector("#turn [data-waiting]")
        said = page.inner_text("#turn")
        assert said.startswith("Waiting for its seats to join"), said
        assert "to move" not in said, said
        save_screenshot(page, "waiting-for-seats")
        page.goto(f"{show.url}/")
        row = f'#live tr[data-match-id="{created.match_id}"]'
        page.wait_for_selector(row)
        listed = page.inner_text(row)
        assert "waiting for its seats to join" in listed and "to move" not in listed, listed
    finally:
        show.stop()
