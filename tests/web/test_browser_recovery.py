"""Pages that recover by themselves, in headless Chromium: a tournament page
that asks nothing while its tab is hidden, and asks at once when shown."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.test_browser_pages import _visibility
from tests.web.test_browser_streams_away import _running
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_hidden_tournament_page_asks_for_nothing_and_asks_at_once_when_shown(
    showcase: Showcase, page: Any
) -> None:
    """The page asks for its report every 3 s while its tournament runs. A
    tab left open in the background went on asking every 3 s for as long as
    it was open (the live match page lets go of its stream while hidden)."""
    url = f"{showcase.url}/tournaments/0/showcase"
    asked: list[float] = []
    page.route(url, _running)
    page.route(f"{url}/fragment", lambda route: _running_fragment(route, asked))
    page.goto(url)
    polled = "() => document.getElementById('report').dataset.polled"
    page.wait_for_function(f"{polled} === '1'", timeout=15_000)
    page.evaluate(_visibility(True))
    before = len(asked)
    page.wait_for_timeout(7_000)  # two asks' time
    assert len(asked) == before, "a hidden tab asked for its report"
    shown = time.monotonic()
    page.evaluate(_visibility(False))
    page.wait_for_function(f"{polled} === '2'", timeout=15_000)
    assert len(asked) == before + 1
    assert asked[-1] - shown < 1.5, "shown again, the page waited to ask"
    # And goes on asking every few seconds, as before.
    page.wait_for_function(f"{polled} === '3'", timeout=15_000)


def _running_fragment(route: Any, asked: list[float]) -> None:
    """The report as a running tournament's: the page goes on asking."""
    asked.append(time.monotonic())
    answer = route.fetch()
    headers = {**answer.headers, "x-tournament-state": "running"}
    route.fulfill(response=answer, headers=headers)
