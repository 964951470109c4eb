"""A finished match whose every seat was disqualified, in headless Chromium:
no seat is starred as a winner. The game server ranks them all first and
names no winner (docs/writing-a-bot.md), and the page and the list starred
each one ("33 ★ 1st" six times over), as if every seat had won."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from tests.web.test_browser_disqualified import LateBot
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

FINALS = """() => [...document.querySelectorAll('#scores td.final')]
  .map((cell) => cell.textContent)"""
LIST_SCORES = """(id) => [...document.querySelectorAll(
  `tr[data-match-id="${id}"] td.result .score`)].map((score) => score.textContent)"""


@pytest.fixture(scope="module")
def all_late() -> Iterator[tuple[Showcase, str]]:
    show = start_showcase(games=())
    try:
        clock = arena_pb2.ClockSettings(decision_seconds=0.5, max_strikes=1)
        outcome = show.server.run(
            play_match(
                show.server.address,
                "sheep-showdown",
                [LateBot(), LateBot()],
                seed=17,
                options={"rounds": "1"},
                clock=clock,
            ),
            120,
        )
        yield show, outcome.match_id
    finally:
        show.stop()


def test_no_seat_is_starred_when_every_seat_was_disqualified(
    all_late: tuple[Showcase, str], page: Any
) -> None:
    show, match_id = all_late
    page.goto(f"{show.url}/match/{match_id}")
    page.wait_for_selector("#scores td.rank")
    result = page.evaluate("() => window.sheepfold.result")
    assert [seat["disqualified"] for seat in result["seats"]] == [True, True]
    assert result["winners"] == [] and result["ranks"] == [1, 1]
    finals = page.evaluate(FINALS)
    save_screenshot(page, "all-disqualified-at-the-end")
    assert len(finals) == 2 and not any("★" in final for final in finals), finals

    page.goto(show.url)
    page.wait_for_selector(f'#finished tr[data-match-id="{match_id}"]')
    scores = page.evaluate(LIST_SCORES, match_id)
    assert len(scores) == 2 and not any("★" in score for score in scores), scores
