"""The replay's keys and its address, in headless Chromium: the browser's own
shortcuts left to the browser, and the address naming the move shown however
fast the moves are stepped."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import drawn_move
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
