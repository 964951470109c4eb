"""What a live match's page says of what it has not seen yet, in headless
Chromium: an event log with no event in it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

LOG_LINES = """() => [...document.querySelectorAll('#log li')]
  .map((li) => [li.className, li.textContent])"""


def test_a_live_page_says_its_event_log_is_empty_until_the_first_event(
    showcase: Showcase, page: Any
) -> None:
    """Opened before the first move, a live page's Events panel was an empty
    box under its heading, as if it had not loaded. It says there is no event
    yet, as the matches list says "no live match", and the line goes with the
    first event."""
    match_id = showcase.start_live("sheep-n-sheep", 2, 6161, delay=5)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => window.sheepfold.frames.length >= 1")
    page.wait_for_function("() => document.querySelector('#log li') !== null")
    # Its seats wait 5 s before each move: the page holds the start alone.
    assert page.evaluate("() => window.sheepfold.frames.map((f) => f.move)") == [0]
    assert page.evaluate(LOG_LINES) == [["empty muted", "no events yet"]]
    assert page.locator("#log li.empty").is_visible()
    save_screenshot(page, "live-no-events-yet")
    page.wait_for_function(
        "() => window.sheepfold.frames.some((f) => f.events.length > 0)", timeout=20_000
    )
    page.wait_for_function("() => document.querySelector('#log li.empty') === null")
    lines = page.evaluate(LOG_LINES)
    assert lines and all("empty" not in kind for kind, _ in lines), lines
