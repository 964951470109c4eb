"""Sheep Showdown's dogs and the cards they stand on, in headless Chromium:
every card's words in sight beside its dog, and every dog's number 4.5:1 or
more on the dog, on a laptop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import laptop_and_phone, save_screenshot
from tests.web.test_browser import wait_for_move
from tests.web.test_browser_screen_reader import BOARD_TEXT_UNDER
from tests.web.test_http import _replay
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# For each dog on a card with words (a sheep's value, a card's name): whether
# their boxes on screen meet, whether the words are the topmost thing at
# their centre and at both ends of their line, and whether the card's picture
# is under the dog at its centre.
COVERED = """() => {
  const board = document.getElementById('board');
  const found = [];
  for (const dog of board.querySelectorAll('g.dog')) {
    const cell = board.querySelector(
      `g.cell[data-row="${dog.dataset.row}"][data-col="${dog.dataset.col}"]`);
    const label = cell && cell.querySelector('.card-name, .card-value');
    if (!label || !label.textContent) continue;
    const l = label.getBoundingClientRect(), d = dog.getBoundingClientRect();
    const meet = l.left < d.right && d.left < l.right && l.top < d.bottom && d.top < l.bottom;
    const y = l.top + l.height / 2;
    const hidden = [l.left + 1, l.left + l.width / 2, l.right - 1]
      .filter((x) => document.elementFromPoint(x, y) !== label).length;
    const shown = l.width > 0 && l.height > 0 && getComputedStyle(label).visibility === 'visible';
    // A card's picture (a shepherd's flag, a rocket's arrow), beside the dog.
    const glyph = cell.querySelector('g.card text:not(.card-name):not(.card-value)');
    const g = glyph && glyph.getBoundingClientRect();
    const glyphHidden = !!glyph
      && document.elementFromPoint(g.left + g.width / 2, g.top + g.height / 2) !== glyph;
    found.push({ dog: dog.dataset.dog, card: cell.dataset.card, label: label.textContent,
      meet, hidden, shown, glyphHidden });
  }
  return found;
}"""


# Steps the page through moves 0 to `last` as the address does (#move=N), and
# at each, once the board draws it, reads COVERED and the dogs' numbers under
# 4.5:1 (BOARD_TEXT_UNDER). In the page, in one call:
# three calls from here a move (set the address, wait, read) made the
# six-seat test 14 s on two busy cores.
EVERY_MOVE = (
    """async (last) => {
  const covered = """
    + COVERED
    + """;
  const under = """
    + BOARD_TEXT_UNDER
    + """;
  const board = () => document.getElementById('board');
  const moves = [];
  for (let move = 0; move <= last; move++) {
    location.hash = `move=${move}`;
    const until = performance.now() + 15000;
    while (!(board() && board().dataset.move === String(move))) {
      if (performance.now() > until) throw new Error(`move ${move} was not drawn in 15 s`);
      await new Promise((done) => requestAnimationFrame(done));
    }
    moves.push({ covered: covered(), low: under('#board text.dog-number') });
  }
  return moves;
}"""
)


def _check_every_move(page: Any, url: str, moves: int) -> int:
    """Every move's dogs against their cards' words; how many were seen."""
    page.goto(f"{url}#move=0")
    wait_for_move(page, 0)
    seen = 0
    for move, at_move in enumerate(page.evaluate(EVERY_MOVE, moves)):
        assert at_move["low"] == [], f"move {move}: {at_move['low']}"
        for found in at_move["covered"]:
            assert found["shown"], f"move {move}: {found}"
            assert not found["meet"] and not found["hidden"], f"move {move}: {found}"
            assert not found["glyphHidden"], f"move {move}: {found}"
            seen += 1
    assert move == moves, f"stepped to move {move} of {moves}"
    return seen


@laptop_and_phone
def test_a_dog_leaves_its_cards_words_in_sight(
    showcase: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    """A dog was drawn over the middle of its card, as large as the card's
    middle: it hid most of the card's name ("shepherd", "rocket") along its
    foot. It stands in the card's top right corner now, clear of the name and
    of a sheep's value, top left, at every move of a match."""
    match_id = showcase.finished["sheep-showdown"]
    moves = len(showcase.server.run(_replay(showcase, match_id)).actions)
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    try:
        page = context.new_page()
        seen = _check_every_move(page, f"{showcase.url}/match/{match_id}", moves)
        assert seen >= 20, f"only {seen} dogs stood on cards with words: too few to tell"
        save_screenshot(page, f"sheep-showdown-dogs-{viewport['width']}")
    finally:
        context.close()


def test_six_seats_dogs_leave_their_cards_words_in_sight_on_a_phone(
    showcase: Showcase, browser: Any
) -> None:
    """Six seats draw the most dogs, and a phone draws them smallest with the
    largest type for its size."""
    bots = [RandomBot(90 + seat) for seat in range(6)]
    match_id = showcase.server.run(
        play_match(showcase.server.address, "sheep-showdown", bots, seed=9)
    ).match_id
    moves = len(showcase.server.run(_replay(showcase, match_id)).actions)
    context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True)
    try:
        page = context.new_page()
        assert _check_every_move(page, f"{showcase.url}/match/{match_id}", moves) >= 20
        page.evaluate("(move) => { location.hash = `move=${move}`; }", moves // 2)
        wait_for_move(page, moves // 2)
        save_screenshot(page, "sheep-showdown-dogs-six-seats-360")
    finally:
        context.close()
