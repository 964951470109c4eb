"""The replay's keys and its address, in headless Chromium: the browser's own
shortcuts left to the browser, and the address naming the move shown however
fast the moves are stepped."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, drawn_move
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Whether each keydown was kept from the browser, as a listener after the page's sees it.
RECORD_KEYS = """() => {
  window.keysPrevented = [];
  window.addEventListener("keydown", (e) => window.keysPrevented.push(e.defaultPrevented));
}"""


@pytest.mark.parametrize(
    "key", ["Alt+ArrowLeft", "Alt+ArrowRight", "Control+Home", "Control+End", "Meta+ArrowLeft"]
)
def test_the_browsers_own_shortcuts_are_left_to_it(showcase: Showcase, page: Any, key: str) -> None:
    """Alt+Left is the browser's Back (and Alt+Right its Forward, Cmd+Left on a
    Mac), Ctrl+Home and Ctrl+End scroll to the page's ends: the replay took
    them as its own Left, Right, Home and End, stepped the match and kept the
    browser from doing what the keys are for, so a keyboard user could not
    leave the page by them."""
    page.goto(f"{showcase.url}/match/{showcase.finished['sheep-showdown']}#move=5")
    page.wait_for_selector('#board[data-move="5"]')
    page.evaluate(RECORD_KEYS)
    page.keyboard.press(key)
    page.wait_for_timeout(200)  # a step is drawn on the next animation frame
    assert drawn_move(page) == 5
    prevented = page.evaluate("() => window.keysPrevented")  # the modifier's, then the key's
    assert prevented and not any(prevented), prevented
    # The keys alone still step.
    page.keyboard.press("ArrowRight")
    assert drawn_move(page) == 6


def test_the_address_names_the_move_shown_however_fast_the_moves_are_stepped(
    showcase: Showcase, browser: Any
) -> None:
    """A browser lets a page change its address only so often (Chromium 200
    times in 10 s, then it ignores the rest and says "Throttling navigation"
    in the console): a replay played at 30 moves a second, stepped with a key
    held or swept along with the slider, changed it at every move, and the
    address stopped following, still naming a move long left behind when it
    was shared. (Playwright turns that limit off; this browser has it, as
    every user's does.)"""
    limited = browser.browser_type.launch(
        executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
        args=["--no-sandbox", "--disable-gpu"],
        ignore_default_args=["--disable-ipc-flooding-protection"],
    )
    try:
        page = limited.new_page()
        throttled: list[str] = []
        page.on("console", lambda m: throttled.append(m.text) if "Throttling" in m.text else 0)
        page.goto(f"{showcase.url}/match/{showcase.finished['sheep-showdown']}#move=10")
        page.wait_for_selector('#board[data-move="10"]', state="attached")
        for _ in range(130):
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert drawn_move(page) == 12
        page.wait_for_function("() => location.hash === '#move=12'", timeout=5_000)
        assert not throttled, throttled
    finally:
        limited.close()


def test_space_held_down_plays_once(showcase: Showcase, page: Any) -> None:
    """A key held down sends its keydown again and again: space held a moment
    too long played, paused, played and paused, and the replay ended up
    playing or not by chance."""
    page.goto(f"{showcase.url}/match/{showcase.finished['sheep-showdown']}#move=5")
    page.wait_for_selector('#board[data-move="5"]')
    for _ in range(4):  # the first keydown, then three of the key held
        page.keyboard.down(" ")
    page.keyboard.up(" ")
    assert page.evaluate("() => window.sheepfold.playing !== null")
    assert page.inner_text("#play") == "pause"
    page.keyboard.press(" ")
    assert page.evaluate("() => window.sheepfold.playing === null")


def test_a_link_s_move_wins_over_the_page_s_own_late_address_write(
    showcase: Showcase, page: Any
) -> None:
    """Stepped fast, the page writes the move shown into its address late (a
    browser takes only so many writes). A write landing between a new `#move=`
    and the page's handler of it made the handler read the move already shown,
    and the page stayed where it was: a test stepping a six-seat match move by
    move waited for its 126th move in vain. The write is made here in the same
    task as the link's change, so it always lands between them."""
    page.goto(f"{showcase.url}/match/{showcase.finished['sheep-showdown']}#move=3")
    page.wait_for_selector('#board[data-move="3"]')
    page.evaluate(
        """() => {
          location.hash = "move=5";
          history.replaceState(null, "", "#move=3");  // the page's late write of move 3
        }"""
    )
    page.wait_for_selector('#board[data-move="5"]', timeout=5_000)
    assert drawn_move(page) == 5
