"""Whose turn it is, or that the game is over, on a 360x740 phone: in sight as
the match page opens, above the controls held at the window's foot, and still
in the side panel on a laptop."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web.showcase import GAMES, Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

PHONE = {"width": 360, "height": 740}

# The turn line's box, the controls' top, the page's scroll and where the
# turn line stands (in the side panel or not).
TURN_BOX = """() => {
  const turn = document.getElementById('turn').getBoundingClientRect();
  return {
    top: turn.top, bottom: turn.bottom, height: turn.height,
    controls: document.getElementById('controls').getBoundingClientRect().top,
    window: window.innerHeight, scrolled: window.scrollY,
    text: document.getElementById('turn').textContent.trim(),
    inSide: document.getElementById('turn').closest('aside.side') !== null,
  };
}"""


def turn_seen(showcase: Showcase, browser: Any, match_id: str, name: str, **context: Any) -> Any:
    opened = browser.new_context(**context)
    try:
        page = opened.new_page()
        page.goto(f"{showcase.url}/match/{match_id}")
        page.wait_for_selector("#board[data-move]")
        page.wait_for_function("() => document.getElementById('turn').textContent.trim() !== ''")
        page.wait_for_timeout(300)  # the board drawn again to its room
        seen = page.evaluate(TURN_BOX)
        save_screenshot(page, name)
    finally:
        opened.close()
    return seen


@pytest.mark.parametrize("game", list(GAMES))
def test_the_game_over_line_is_in_sight_above_the_controls_on_a_phone(
    showcase: Showcase, browser: Any, game: str
) -> None:
    """On a phone the turn line stood under the board, in the side panel:
    behind the controls held at the window's foot (Sheep & Garden's "Game
    over" 80 px under their top), read only by scrolling down."""
    seen = turn_seen(
        showcase, browser, showcase.finished[game], f"phone-turn-{game}",
        viewport=PHONE, is_mobile=True,
    )  # fmt: skip
    assert seen["text"]
    assert seen["scrolled"] == 0
    assert seen["height"] > 0
    assert seen["top"] >= 0, seen
    assert seen["bottom"] <= seen["controls"] + 0.5, seen


def test_a_live_matchs_seat_to_move_is_in_sight_on_a_phone(
    showcase: Showcase, browser: Any
) -> None:
    """A live Sheep & Garden match, its board the tallest: "Seat N to move"
    in sight above the controls as the page opens."""
    players, seed = GAMES["sheep-and-garden"]
    match_id = showcase.start_live("sheep-and-garden", players, seed + 300, 0.5)
    seen = turn_seen(showcase, browser, match_id, "phone-turn-live", viewport=PHONE, is_mobile=True)
    assert "to move" in seen["text"] or "over" in seen["text"].lower(), seen
    assert seen["scrolled"] == 0
    assert seen["top"] >= 0 and seen["bottom"] <= seen["controls"] + 0.5, seen


def test_the_turn_line_stays_in_the_side_panel_on_a_laptop(
    showcase: Showcase, browser: Any
) -> None:
    seen = turn_seen(
        showcase, browser, showcase.finished["sheep-and-garden"], "laptop-turn",
        viewport={"width": 1280, "height": 800},
    )  # fmt: skip
    assert seen["inSide"], seen
    assert seen["bottom"] <= seen["window"], seen


# Steps the page through every move it holds, as its slider does, and gives
# each height the turn line and the board's top took.
STEADY = """async () => {
  const m = window.sheepfold, slider = document.getElementById('slider');
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const tops = new Set(), heights = new Set();
  for (let i = 0; i < m.frames.length; i++) {
    slider.value = String(i);
    slider.dispatchEvent(new Event('input'));
    await frame();
    tops.add(Math.round(document.getElementById('board').getBoundingClientRect().top));
    heights.add(Math.round(document.getElementById('turn').getBoundingClientRect().height));
  }
  return { tops: [...tops], heights: [...heights], moves: m.frames.length };
}"""


@pytest.mark.parametrize("game", ["sheep-showdown", "stubborn-sheep"])
def test_the_board_stays_put_as_the_turn_line_changes_on_a_phone(
    showcase: Showcase, browser: Any, game: str
) -> None:
    """Above the board the turn line took one line of the move played or two
    as the move's words were short or long, and the board jumped up and down
    and changed size as a match played: the line keeps the room of two."""
    opened = browser.new_context(viewport=PHONE, is_mobile=True)
    try:
        page = opened.new_page()
        page.goto(f"{showcase.url}/match/{showcase.finished[game]}")
        page.wait_for_selector("#board[data-move]")
        seen = page.evaluate(STEADY)
    finally:
        opened.close()
    assert seen["moves"] > 1
    assert len(seen["tops"]) == 1, seen
