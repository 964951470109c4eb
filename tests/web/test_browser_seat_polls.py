"""What a live match's page asks the viewer besides its stream, read from
headless Chromium's own log of the requests the page makes."""

from __future__ import annotations

import time
from typing import Any

import pytest

from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

SEAT_SECONDS = 0.5  # the page's wait between two asks of its seats, for the test


def _asks(page: Any, match_id: str) -> list[float]:
    """When (seconds after the page opened) it asked /api/match/ID, its
    match's JSON: its seats' bots, and where the match is before following
    it again."""
    asked: list[float] = []
    start = time.monotonic()
    page.on(
        "request",
        lambda request: (
            asked.append(time.monotonic() - start)
            if request.url.endswith(f"/api/match/{match_id}")
            else None
        ),
    )
    return asked


def test_a_live_page_asks_its_seats_while_its_stream_is_open(showcase: Showcase, page: Any) -> None:
    """Every few seconds: the stream does not say that a bot left."""
    match_id = showcase.start_live("sheep-showdown", 2, 8181, delay=2)
    page.add_init_script(f"window.sheepfoldSeatSeconds = {SEAT_SECONDS}")
    asked = _asks(page, match_id)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => document.body.dataset.stream === 'open'")
    page.wait_for_timeout(2600)
    assert len(asked) >= 4, asked


def test_a_live_page_whose_stream_is_down_asks_only_before_each_try_to_follow_again(
    showcase: Showcase, page: Any
) -> None:
    """A page whose live stream failed asks the viewer where the match is
    before each try to follow it again, after 1, 2, 4 ... s: its seats' poll
    went on every 5 s besides, one more ask of a viewer it was giving time
    to come back (the two at once, at times). Its seats come with that ask."""
    match_id = showcase.start_live("sheep-showdown", 2, 8282, delay=2)
    page.add_init_script(f"window.sheepfoldSeatSeconds = {SEAT_SECONDS}")
    page.route(f"**/api/match/{match_id}/live", lambda route: route.fulfill(status=502))
    asked = _asks(page, match_id)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => document.body.dataset.stream === 'retrying'")
    page.wait_for_timeout(3600)
    # Tries after 1 s and 2 s more, each asking first: two asks, at about 1 and 3 s.
    assert 1 <= len(asked) <= 2, f"asked {len(asked)} times in 3.6 s: {asked}"
    seats = page.evaluate("() => window.sheepfold.seats")
    assert [seat["connected"] for seat in seats] == [True, True], seats
