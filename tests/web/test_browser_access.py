"""The match page for a keyboard and a screen reader, in headless Chromium:
its controls found and used by their accessible names, as assistive
technology finds them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import drawn_move
from tests.web.test_browser import wait_for_move
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_replay_controls_are_named_for_a_screen_reader(showcase: Showcase, page: Any) -> None:
    """The step buttons were named by their glyphs ("|◀", "◀", "▶", "▶|": a
    title is no name where the button has text), the slider had no name at
    all and read its frame's index, and the board was a picture with none."""
    match_id = showcase.finished["sheep-showdown"]
    page.goto(f"{showcase.url}/match/{match_id}#move=3")
    wait_for_move(page, 3)
    last = int(page.evaluate("() => window.sheepfold.frames.at(-1).move"))
    for name, move in (
        ("first move", 0),
        ("next move", 1),
        ("last move", last),
        ("previous move", last - 1),
    ):
        page.get_by_role("button", name=name, exact=True).click()
        assert drawn_move(page) == move, name
    slider = page.get_by_role("slider", name="move", exact=True)
    assert slider.get_attribute("aria-valuetext") == f"move {last - 1} of {last}"
    board = page.get_by_role("img", name=f"Sheep Showdown board, move {last - 1} of {last}")
    assert board.count() == 1
    slider.focus()
    page.keyboard.press("Home")
    assert drawn_move(page) == 0
    assert slider.get_attribute("aria-valuetext") == f"move 0 of {last}"


@pytest.mark.parametrize("focus", ["play", "next", "slider"])
def test_space_plays_once_wherever_the_focus_is(showcase: Showcase, page: Any, focus: str) -> None:
    """Space plays and pauses: once, whether a button has the focus or not."""
    match_id = showcase.finished["sheep-showdown"]
    page.goto(f"{showcase.url}/match/{match_id}#move=0")
    wait_for_move(page, 0)
    page.focus(f"#{focus}")
    page.keyboard.press(" ")
    page.wait_for_timeout(400)
    assert page.inner_text("#play") == "pause"
    assert page.evaluate("() => window.sheepfold.playing") is not None
    page.keyboard.press(" ")
    page.wait_for_timeout(100)
    assert page.inner_text("#play") == "play"
    moved = drawn_move(page)
    assert moved > 0
    page.wait_for_timeout(600)
    assert drawn_move(page) == moved


# Ticks "follow live" and reads, two frames later, the move drawn and the last
# one the page holds, and whether a move arrived meanwhile.
TICK_FOLLOW = """async () => {
  const m = window.sheepfold, held = m.frames.length;
  document.getElementById('follow').click();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return { arrived: m.frames.length !== held, checked: document.getElementById('follow').checked,
    drawn: +document.getElementById('board').dataset.move, last: m.frames.at(-1).move };
}"""


def test_ticking_follow_live_shows_the_latest_move_at_once(browser: Any) -> None:
    """Stepping back on a live page unticks "follow live"; ticking it again
    did nothing until the next move arrived (a bot may decide for seconds):
    the box had no handler, and only a new move read it."""
    viewer = start_showcase(games=(), live=("sheep-showdown",), live_delay=3.0)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{viewer.url}/match/{viewer.live['sheep-showdown']}")
        page.wait_for_function("() => window.sheepfold.frames.length >= 2", timeout=20_000)
        for _ in range(3):  # again should a move arrive just as the box is ticked
            page.keyboard.press("Home")
            assert drawn_move(page) == page.evaluate("() => window.sheepfold.frames[0].move")
            assert not page.is_checked("#follow")
            seen = page.evaluate(TICK_FOLLOW)
            if not seen["arrived"]:
                break
        assert not seen["arrived"], "a move arrived each time the box was ticked"
        assert seen["checked"] and seen["drawn"] == seen["last"], seen
    finally:
        context.close()
        viewer.stop()
