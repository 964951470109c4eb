"""A finished match's page whose seats the game server disqualified says the
match's verdict at the head of its log: the log ended on the game's own
verdict by points ("the game is over; winner: seat 1"), while the server
ranks a disqualified seat last and, every seat disqualified, names no
winner: the page read as if the disqualified seat had won."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from tests.web.conftest import drawn_move, save_screenshot
from tests.web.late_bots import LateBot, play_late_match
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

LOG = "() => [...document.querySelectorAll('#log li')].map((item) => item.textContent)"
VERDICT = "() => [...document.querySelectorAll('#log li[data-verdict]')].map((i) => i.textContent)"


@pytest.fixture(scope="module")
def show() -> Iterator[Showcase]:
    showcase = start_showcase(games=())
    try:
        yield showcase
    finally:
        showcase.stop()


def test_every_seat_disqualified_the_log_says_no_one_won(show: Showcase, page: Any) -> None:
    match_id = play_late_match(show, [LateBot(seconds=1.0), LateBot(seconds=1.0)], max_strikes=1)
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
    match_id = play_late_match(show, [RandomBot(7), LateBot(seconds=1.0)], max_strikes=1)
    page.goto(f"{show.url}/match/{match_id}")
    page.wait_for_selector("#scores td.rank")
    drawn_move(page)
    assert page.evaluate("() => window.sheepfold.result.winners") == [0]
    assert page.evaluate(VERDICT) == [
        "result: seat 1 disqualified, ranked last whatever its score: winner seat 0 "
        "(the game's last line is its own verdict by points)"
    ]
