"""The matches list's "updated" time on the narrowest phone, in headless
Chromium: a time of day is read whole, on one line."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# The lines the time after "updated " is drawn on, and the whole status.
TIME_LINES = """() => {
  const status = document.getElementById('list-status');
  const text = status.firstChild;
  const range = document.createRange();
  range.setStart(text, 'updated '.length);
  range.setEnd(text, text.data.length);
  const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  return { text: status.textContent, lines: tops.size };
}"""


def test_the_update_time_keeps_to_one_line_on_a_small_phone(
    showcase: Showcase, browser: Any
) -> None:
    """On a 320 px phone the status beside the game filter read "updated
    8:18:46" on one line and "AM" alone on the next."""
    context = browser.new_context(
        viewport={"width": 320, "height": 640}, is_mobile=True, locale="en-US", timezone_id="UTC"
    )
    try:
        page = context.new_page()
        page.clock.set_fixed_time("2026-12-07T08:18:46Z")
        page.goto(showcase.url)
        page.wait_for_function(
            "() => document.getElementById('list-status').textContent.startsWith('updated ')"
        )
        seen = page.evaluate(TIME_LINES)
        save_screenshot(page, "list-time-small-phone")
    finally:
        context.close()
    assert "8:18:46" in seen["text"] and "AM" in seen["text"], seen
    assert seen["lines"] == 1, f"the time is broken over lines: {seen}"
