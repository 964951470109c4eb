"""Finished matches with a disqualified seat, and with every seat disqualified,
in headless Chromium: their scores say so at the end, and no disqualified
seat is starred as a winner."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.sdk import Bot
from tests.web.conftest import drawn_move, save_screenshot
from tests.web.late_bots import LateBot, play_late_match
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

BADGES = """() => [...document.querySelectorAll('#scores tbody tr')]
  .map((row) => row.querySelector('[data-disqualified]')?.textContent ?? '')"""


@contextmanager
def _played_late(bots: list[Bot], max_strikes: int) -> Iterator[tuple[Showcase, str]]:
    """A viewer of one finished one-round Sheep Showdown match of `bots` on a
    0.5 s decision clock, and the match's id."""
    show = start_showcase(games=())
    try:
        match_id = play_late_match(show, bots, max_strikes)
        yield show, match_id
    finally:
        show.stop()


@pytest.fixture(scope="module")
def late() -> Iterator[tuple[Showcase, str]]:
    # Room for the random bot, which must not be disqualified: 0.1 s left a
    # loaded machine little (the late bot sleeps past 0.5 s whatever the load).
    with _played_late([RandomBot(7), LateBot(seconds=1.0)], max_strikes=2) as played:
        yield played


@pytest.fixture(scope="module")
def all_late() -> Iterator[tuple[Showcase, str]]:
    with _played_late([LateBot(seconds=1.0), LateBot(seconds=1.0)], max_strikes=1) as played:
        yield played


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


FINALS = """() => [...document.querySelectorAll('#scores td.final')]
  .map((cell) => cell.textContent)"""
LIST_SCORES = """(id) => [...document.querySelectorAll(
  `tr[data-match-id="${id}"] td.result .score`)].map((score) => score.textContent)"""


def test_no_seat_is_starred_when_every_seat_was_disqualified(
    all_late: tuple[Showcase, str], page: Any
) -> None:
    """With every seat disqualified the game server ranks them all first and
    names no winner, and the page and the list starred each one ("33 ★ 1st"
    six times over), as if every seat had won."""
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
