"""A link naming a move of a match still being played, in headless Chromium:
the live page cannot show that move, and says so."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tests.web.test_browser_pages import _moves
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

NOTICE = """() => { const box = document.getElementById('notice');
  return box.hidden ? '' : box.textContent; }"""


@pytest.fixture(scope="module")
def showcase() -> Iterator[Showcase]:
    """Its own, so that its live matches are in no other test's lists."""
    show = start_showcase(games=())
    try:
        yield show
    finally:
        show.stop()


@pytest.mark.parametrize("link", ["#move=2", "?move=2", "?move=9999"])
def test_a_live_page_says_it_cannot_open_at_a_linked_move(
    showcase: Showcase, page: Any, link: str
) -> None:
    """The page opened at the latest move and said nothing, as if the link had
    named no move: whoever followed a link to "move 2" saw move 30 unexplained."""
    match_id = showcase.start_live("sheep-showdown", 2, 8383 + len(link), delay=0.3)
    page.goto(f"{showcase.url}/match/{match_id}{link}")
    page.wait_for_function("() => window.sheepfold.frames.length >= 1")
    assert page.evaluate("() => window.sheepfold.live") is True
    asked = link.split("=")[1]
    assert page.evaluate(NOTICE) == (
        f'Move "{asked}" is not shown: this match is not over yet, and its page follows it '
        "live from its latest move; every move is in its replay once the match is over."
    )
    save_screenshot(page, "live-linked-move")
    # It follows the match all the same.
    page.wait_for_function("() => window.sheepfold.frames.length >= 2", timeout=20_000)
    assert page.evaluate("() => document.getElementById('follow').checked") is True


def test_a_move_typed_into_a_live_pages_address_is_said_alike(
    showcase: Showcase, page: Any
) -> None:
    """A #move= typed on a live page, for a move from before the page opened,
    was told "There is no move "1" in this match: its moves are 17 to 26", the
    moves the page held given as the match's."""
    match_id = showcase.start_live("sheep-showdown", 2, 8484, delay=0.3)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 3:
        assert time.monotonic() < deadline, "the match did not reach move 3"
        time.sleep(0.05)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => window.sheepfold.frames.length >= 1")
    first = page.evaluate("() => window.sheepfold.frames[0].move")
    assert first > 1, "the page opened before move 2: no move before it to ask for"
    page.evaluate("() => { location.hash = '#move=1'; }")
    page.wait_for_function("() => !document.getElementById('notice').hidden")
    assert page.evaluate(NOTICE) == (
        'Move "1" is not shown: this match is not over yet, and its page follows it '
        "live from its latest move; every move is in its replay once the match is over."
    )
    assert page.evaluate("() => window.sheepfold.live") is True
