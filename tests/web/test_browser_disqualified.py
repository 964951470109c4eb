"""A finished match with a disqualified seat, in headless Chromium: its
scores say so at the end."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from clients.sdk import DecisionView
from tests.web.conftest import drawn_move, save_screenshot
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

BADGES = """() => [...document.querySelectorAll('#scores tbody tr')]
  .map((row) => row.querySelector('[data-disqualified]')?.textContent ?? '')"""


class LateBot:
    """Answers each decision after its deadline has passed."""

    def __init__(self) -> None:
        self.rng = random.Random(3)

    async def decide(self, decision: DecisionView) -> int:
        await asyncio.sleep(1.0)
        return self.rng.randrange(len(decision.actions))


@pytest.fixture(scope="module")
def late() -> Iterator[tuple[Showcase, str]]:
    show = start_showcase(games=())
    try:
        # Room for the random bot, which must not be disqualified: 0.1 s left a
        # loaded machine little (the late bot sleeps past 0.5 s whatever the load).
        clock = arena_pb2.ClockSettings(decision_seconds=0.5, max_strikes=2)
        outcome = show.server.run(
            play_match(
                show.server.address,
                "sheep-showdown",
                [RandomBot(7), LateBot()],
                seed=17,
                options={"rounds": "1"},
                clock=clock,
            ),
            120,
        )
        yield show, outcome.match_id
    finally:
        show.stop()


def test_a_disqualified_seat_says_so_in_the_scores_at_the_end(
    late: tuple[Showcase, str], page: Any
) -> None:
    """Seat 1's bot missed its deadlines and was disqualified, its moves then
    played for it: the end showed its score and rank alone, as if it had
    played its match out."""
    show, match_id = late
    page.goto(f"{show.url}/match/{match_id}")
    page.wait_for_selector("#scores td.rank")
    last = drawn_move(page)
    assert page.evaluate("() => window.sheepfold.result.seats.map((s) => s.disqualified)") == [
        False,
        True,
    ]
    assert page.evaluate(BADGES) == ["", "disqualified"]
    save_screenshot(page, "disqualified-at-the-end")
    # Before the end the page holds no result: nothing said (the seat may not
    # have been disqualified yet at that move).
    page.keyboard.press("Home")
    page.wait_for_function("() => +document.getElementById('board').dataset.move === 0")
    assert page.evaluate(BADGES) == ["", ""]
    assert last > 0


LIST_BADGES = """(id) => [...document.querySelectorAll(
  `tr[data-match-id="${id}"] td.result .score`)]
  .map((score) => score.querySelector('[data-disqualified]')?.textContent ?? '')"""


def test_the_matches_list_badges_a_disqualified_seat(late: tuple[Showcase, str], page: Any) -> None:
    """The list read a finished match whose seat was disqualified like any
    match played out: its score now carries the match page's badge."""
    show, match_id = late
    page.goto(show.url)
    page.wait_for_selector(f'#finished tr[data-match-id="{match_id}"]')
    assert page.evaluate(LIST_BADGES, match_id) == ["", "disqualified"]
    save_screenshot(page, "list-disqualified")
