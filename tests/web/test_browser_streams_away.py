"""Pages whose source of news fails over and over, in headless Chromium: a
live match's stream refused at once each time, and a tournament page whose
viewer goes away and comes back."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tests.web.test_browser_pages import _moves
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_live_stream_refused_at_once_each_time_is_tried_less_and_less_often(
    showcase: Showcase, page: Any
) -> None:
    """Every stream the page opens brings only the game server's refusal (a
    watch limit, a match that failed) and ends. The page waits longer after
    each, as it does when the viewer does not answer: the refusal, a batch
    like any other, once counted as news and put the wait back to the first,
    so each page asked the viewer (and it the game server) again every second
    for as long as it was open."""
    match_id = showcase.start_live("sheep-showdown", 2, 4242, delay=5)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 1:
        assert time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    opened: list[float] = []

    def refused(route: Any) -> None:
        opened.append(time.monotonic())
        route.fulfill(
            status=200,
            headers={"Content-Type": "text/event-stream"},
            body='data: [{"kind":"error","code":"RESOURCE_EXHAUSTED",'
            '"message":"this match has as many watchers as it takes"}]\n\n'
            "event: end\ndata: {}\n\n",
        )

    page.route(f"**/api/match/{match_id}/live", refused)
    page.add_init_script("window.sheepfoldRetrySeconds = [0.1, 0.2, 0.4, 0.8, 30]")
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('Reconnecting in 30 s')",
        timeout=15_000,
    )
    page.wait_for_timeout(1500)  # a page stuck at the first wait would try 15 times more
    assert "as many watchers as it takes" in page.inner_text("#notice")
    assert len(opened) == 5, [round(at - opened[0], 2) for at in opened]
    save_screenshot(page, "live-refused-backing-off")
