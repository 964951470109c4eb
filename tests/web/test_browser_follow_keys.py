"""A live page's keys with its "follow live" box focused, in headless
Chromium: the arrows step the match, the space ticks the box."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import drawn_move
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


@pytest.fixture(scope="module")
def showcase() -> Iterator[Showcase]:
    """Its own, so that its live match is in no other test's lists."""
    show = start_showcase(games=())
    try:
        yield show
    finally:
        show.stop()


def test_the_arrows_step_a_live_match_with_follow_live_just_unticked(
    showcase: Showcase, page: Any
) -> None:
    """A spectator unticked "follow live" with a click, to look back, and
    pressed ←: nothing moved, the page taking every key on a tick box for the
    box's own."""
    match_id = showcase.start_live("sheep-showdown", 2, 5151, delay=0.4)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => window.sheepfold.frames.length >= 3", timeout=20_000)
    page.click("#follow")
    assert page.evaluate("() => document.getElementById('follow').checked") is False
    assert page.evaluate("() => document.activeElement.id") == "follow"
    shown = drawn_move(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => +document.getElementById('board').dataset.move < {shown}")
    back = drawn_move(page)
    page.keyboard.press("Home")
    page.wait_for_function(f"() => +document.getElementById('board').dataset.move < {back}")
    assert page.evaluate("() => window.sheepfold.index") == 0
    # The space is still the box's: ticked again, the page follows the match
    # (and does not start playing its moves).
    page.keyboard.press(" ")
    assert page.evaluate("() => document.getElementById('follow').checked") is True
    assert page.evaluate("() => window.sheepfold.playing") is None
    page.wait_for_function(
        "() => window.sheepfold.index === window.sheepfold.frames.length - 1"
        " && window.sheepfold.index > 0"
    )
