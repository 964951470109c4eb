"""The matches list on narrow phones, in headless Chromium, with a six-seat
match whose every seat was disqualified: each seat's score and its badge are
inside the window, together, and the list does not scroll sideways."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from tests.web.late_bots import LateBot
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

SEATS = 6


@pytest.fixture(scope="module")
def all_disqualified() -> Iterator[tuple[Showcase, str]]:
    """A viewer of one finished six-seat Sheep Showdown, every seat's bot
    disqualified at its first missed deadline; and the match's id."""
    show = start_showcase(games=())
    try:
        outcome = show.server.run(
            play_match(
                show.server.address,
                "sheep-showdown",
                [LateBot(seat) for seat in range(SEATS)],
                seed=29,
                options={"rounds": "1"},
                clock=arena_pb2.ClockSettings(decision_seconds=0.3, max_strikes=1),
            ),
            120,
        )
        yield show, outcome.match_id
    finally:
        show.stop()


# Each score of the match's row (its dot, figure and badge) that reaches past
# the window's right edge, each score whose badge is not on its figure's line,
# and whether the list's box scrolls sideways.
ROW_SCORES = """(id) => {
  const width = document.documentElement.clientWidth;
  const scores = [...document.querySelectorAll(`tr[data-match-id="${id}"] td.result .score`)];
  const box = document.querySelector('.table-scroll');
  return {
    scores: scores.length,
    badges: scores.filter((score) => score.querySelector('[data-disqualified]')).length,
    past: scores.filter((score) => score.getBoundingClientRect().right > width + 0.5)
      .map((score) => score.textContent),
    apart: scores.filter((score) => {
      const dot = score.querySelector('.dot').getBoundingClientRect();
      const badge = score.querySelector('[data-disqualified]').getBoundingClientRect();
      return badge.top > dot.bottom;
    }).map((score) => score.textContent),
    scrolls: box.scrollWidth > box.clientWidth,
  };
}"""


@pytest.mark.parametrize("width", [320, 360, 390])
def test_every_disqualified_score_is_in_sight_on_a_phone(
    all_disqualified: tuple[Showcase, str], browser: Any, width: int
) -> None:
    """The row's scores stayed on one line: six "disqualified" badges made it
    some 600 px long, and on a phone every score past the third was out of
    sight in a box that scrolled sideways (a badge cut at the screen's edge)."""
    show, match_id = all_disqualified
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(show.url)
        page.wait_for_selector(f'#finished tr[data-match-id="{match_id}"]')
        seen = page.evaluate(ROW_SCORES, match_id)
        save_screenshot(page, f"list-disqualified-phone-{width}")
    finally:
        context.close()
    assert not errors, errors
    assert seen["scores"] == SEATS and seen["badges"] == SEATS, seen
    assert not seen["past"], f"scores past the window's edge: {seen['past']}"
    assert not seen["apart"], f"badges on a line below their score: {seen['apart']}"
    assert not seen["scrolls"], "the list scrolls sideways"


def test_a_disqualified_score_keeps_its_badge_on_its_line_on_a_laptop(
    all_disqualified: tuple[Showcase, str], browser: Any
) -> None:
    """At 1280x800 the six scores wrap in their cell, and a badge fell to the
    next line alone, apart from its seat's score ("● 17" ending one line,
    "disqualified" opening the next, beside another seat's score)."""
    show, match_id = all_disqualified
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(show.url)
        page.wait_for_selector(f'#finished tr[data-match-id="{match_id}"]')
        seen = page.evaluate(ROW_SCORES, match_id)
        save_screenshot(page, "list-disqualified-laptop")
    finally:
        context.close()
    assert seen["scores"] == SEATS and seen["badges"] == SEATS, seen
    assert not seen["apart"], f"badges on a line below their score: {seen['apart']}"
    assert not seen["past"] and not seen["scrolls"], seen
