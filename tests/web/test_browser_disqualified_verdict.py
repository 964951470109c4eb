"""A finished match's page whose seats the game server disqualified says the
match's verdict at the head of its log: the log ended on the game's own
verdict by points ("the game is over; winner: seat 1"), while the server
ranks a disqualified seat last and, every seat disqualified, names no
winner: the page read as if the disqualified seat had won."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from clients.sdk import Bot, DecisionView
from tests.web.conftest import drawn_move, save_screenshot
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

LOG = "() => [...document.querySelectorAll('#log li')].map((item) => item.textContent)"
VERDICT = "() => [...document.querySelectorAll('#log li[data-verdict]')].map((i) => i.textContent)"


class LateBot:
    """Answers each decision after its deadline has passed."""

    def __init__(self) -> None:
        self.rng = random.Random(3)

    async def decide(self, decision: DecisionView) -> int:
        await asyncio.sleep(1.0)
        return self.rng.randrange(len(decision.actions))


@pytest.fixture(scope="module")
def show() -> Iterator[Showcase]:
    showcase = start_showcase(games=())
    try:
        yield showcase
    finally:
        showcase.stop()


def _played(show: Showcase, bots: list[Bot]) -> str:
    """One finished one-round Sheep Showdown of `bots` on a 0.5 s clock and
    one strike: its match id."""
    clock = arena_pb2.ClockSettings(decision_seconds=0.5, max_strikes=1)
    outcome = show.server.run(
        play_match(
            show.server.address,
            "sheep-showdown",
            bots,
            seed=17,
            options={"rounds": "1"},
            clock=clock,
        ),
        120,
    )
    return outcome.match_id


def test_every_seat_disqualified_the_log_says_no_one_won(show: Showcase, page: Any) -> None:
    match_id = _played(show, [LateBot(), LateBot()])
    page.goto(f"{show.url}/match/{match_id}")
    page.wait_for_selector("#scores td.rank")
    drawn_move(page)
    assert page.evaluate("() => window.sheepfold.result.winners") == []
    log = page.evaluate(LOG)
    assert log[0] == (
        "result: seats 0 and 1 disqualified, ranked last whatever their scores: no winner "
        "(the game's last line is its own verdict by points)"
    )
    assert "the game is over; winner" in log[1]  # the game's own line, kept below it
    save_screenshot(page, "all-disqualified-verdict")
    # Before the end nothing is said: the page holds no result there.
    page.keyboard.press("Home")
    page.wait_for_function("() => +document.getElementById('board').dataset.move === 0")
    assert page.evaluate(VERDICT) == []


def test_a_disqualified_seat_the_log_names_the_matchs_winner(show: Showcase, page: Any) -> None:
    match_id = _played(show, [RandomBot(7), LateBot()])
    page.goto(f"{show.url}/match/{match_id}")
    page.wait_for_selector("#scores td.rank")
    drawn_move(page)
    assert page.evaluate("() => window.sheepfold.result.winners") == [0]
    assert page.evaluate(VERDICT) == [
        "result: seat 1 disqualified, ranked last whatever its score: winner seat 0 "
        "(the game's last line is its own verdict by points)"
    ]
