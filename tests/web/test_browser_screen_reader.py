"""The viewer for a screen reader and a keyboard alone, in headless Chromium:
what a match page says politely as its moves arrive or are stepped to, and
each page's title, headings and landmarks."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from tests.web.conftest import drawn_move
from tests.web.test_browser import wait_for_move
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Every text the polite region is given, as it is given (the region watched
# from the moment the page holds a frame).
WATCH_ANNOUNCE = """() => {
  const region = document.getElementById('announce');
  window.announced = [region.textContent];
  new MutationObserver(() => window.announced.push(region.textContent))
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


# The page's headings in order, as levels, and its landmarks.
OUTLINE = """() => ({
  levels: [...document.querySelectorAll('h1, h2, h3, h4')].map((h) => +h.tagName[1]),
  h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
  lang: document.documentElement.lang,
  main: document.querySelectorAll('main').length,
  nav: document.querySelectorAll('header nav').length,
})"""


def assert_outline(page: Any) -> dict[str, Any]:
    outline: dict[str, Any] = page.evaluate(OUTLINE)
    assert outline["lang"] == "en" and outline["main"] == 1 and outline["nav"] == 1, outline
    levels = outline["levels"]
    assert levels.count(1) == 1 and levels[0] == 1, outline
    # No level skipped on the way down (an h3 straight under the h1 was).
    assert all(b <= a + 1 for a, b in pairwise(levels)), outline
    return outline


def turn_words(page: Any) -> str:
    lines = page.inner_text("#turn").split("\n")
    return ". ".join(" ".join(line.split()) for line in lines if line.strip())


def test_a_live_match_is_read_out_move_by_move_and_only_when_it_changes(browser: Any) -> None:
    """A live match's moves arrived in silence for a screen reader: nothing on
    the page was a live region, and the turn line ("Seat 2 to move", "move 7:
    seat 1 turn fence 4") was read only by going to look for it."""
    viewer = start_showcase(games=(), live=("stubborn-sheep",), live_delay=0.3)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{viewer.url}/match/{viewer.live['stubborn-sheep']}")
        page.wait_for_function("() => window.sheepfold.frames.length >= 1", timeout=20_000)
        region = page.locator("#announce")
        assert region.get_attribute("role") == "status"
        assert region.get_attribute("aria-live") == "polite"
        page.evaluate(WATCH_ANNOUNCE)
        held = page.evaluate("() => window.sheepfold.frames.length")
        page.wait_for_function(
            f"() => window.sheepfold.frames.length >= {held + 3}", timeout=20_000
        )
        drawn_move(page)
        page.set_viewport_size({"width": 1200, "height": 800})  # drawn again, the same move
        page.wait_for_timeout(300)
        said: list[str] = page.evaluate("() => window.announced")
        arrived = page.evaluate("() => window.sheepfold.frames.length") - held
        move = drawn_move(page)
        now = turn_words(page)
        assert "to move" in now and f"move {move}: " in now, now
        assert said[-1] == now, (said, now)
        # One text a move at most, each new: not once a clock tick (200 ms),
        # nor again when a redraw changed nothing.
        assert 3 <= len(said) - 1 <= arrived + 1, (said, arrived)
        assert all(a != b for a, b in pairwise(said)), said
        title = page.title()
        assert title.startswith("Stubborn Sheep · "), title
        assert_outline(page)

    finally:
        context.close()
        viewer.stop()


def test_a_replay_reads_the_move_stepped_to_and_the_end_and_its_pages_say_what_they_are(
    showcase: Showcase, page: Any
) -> None:
    """A step said nothing but the slider's number: the move stepped to, and
    the final scores at the end, are read out; a replay played is quiet until
    paused (a move every tick would queue up), then reads where it stopped.
    The match page went from its h1 to an h3, the tournament page had no h1,
    and an error page's tab read "404" alone."""
    match_id = showcase.finished["sheep-and-garden"]
    page.goto(f"{showcase.url}/match/{match_id}#move=3")
    wait_for_move(page, 3)
    page.keyboard.press("ArrowRight")
    assert drawn_move(page) == 4
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('move 4: ')"
    )
    assert page.text_content("#announce") == turn_words(page)
    page.keyboard.press("End")
    last = drawn_move(page)
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('final')"
    )
    ending = page.text_content("#announce") or ""
    assert ending.startswith("Game over. ") and f"move {last}: " in ending, ending
    assert "final scores: seat 0 " in ending and "(1st)" in ending, ending
    # Played, it says nothing until paused, then the move it stopped at.
    page.keyboard.press("Home")
    drawn_move(page)
    page.evaluate(WATCH_ANNOUNCE)
    page.keyboard.press(" ")
    page.wait_for_function("() => +document.getElementById('board').dataset.move >= 2")
    page.keyboard.press(" ")
    stopped = drawn_move(page)
    page.wait_for_function(
        f"() => document.getElementById('announce').textContent.includes('move {stopped}: ')"
    )
    said = page.evaluate("() => window.announced")
    # The start (Home), then the pause alone: none of the moves played between.
    assert stopped >= 2 and len(said) == 2 and said[0].startswith("Seat "), (stopped, said)
    assert_outline(page)

    page.goto(f"{showcase.url}/tournaments/0/showcase")
    outline = assert_outline(page)
    assert outline["h1"] == ["Tournament showcase"], outline

    page.goto(f"{showcase.url}/match/no-such-match")
    assert page.title() == "404 · Not found · Sheepfold"
    assert_outline(page)
