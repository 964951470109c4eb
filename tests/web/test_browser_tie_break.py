"""A finished match whose equal scores its result ranks apart, in headless
Chromium: the page names the game's tie-break that did it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import drawn_move, save_screenshot
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

NOTE = """() => [...document.querySelectorAll('#final [data-tie-break]')]
  .map((p) => p.textContent)"""
FINALS = """() => [...document.querySelectorAll('#scores td.final')]
  .map((td) => +td.dataset.finalScore)"""
RANKS = "() => [...document.querySelectorAll('#scores td.rank')].map((td) => +td.dataset.rank)"


@pytest.fixture(scope="module")
def ties() -> Iterator[Showcase]:
    show = start_showcase(games=())
    try:
        yield show
    finally:
        show.stop()


# (game, players, seed, final scores, ranks, the game's tie-break): seeds whose
# random bots end on equal scores (tests.web showcase bots, seed * 10 + seat).
APART = [
    ("sheep-showdown", 2, 2, [38, 38], [2, 1],
     "later out in the final round ranks higher; still in at the end is best"),
    ("sheep-n-sheep", 2, 22, [12, 12], [2, 1],
     "highest total, then largest connected bell group, then shared"),
]  # fmt: skip


@pytest.mark.parametrize(("game", "players", "seed", "scores", "ranks", "rule"), APART)
def test_equal_scores_ranked_apart_name_the_tie_break(
    ties: Showcase,
    page: Any,
    game: str,
    players: int,
    seed: int,
    scores: list[int],
    ranks: list[int],
    rule: str,
) -> None:
    """The scores read "29 2nd" over "29 ★ 1st", and nothing said of why one of two equal
    scores won."""
    match_id = ties.play_finished(game, players, seed)
    page.goto(f"{ties.url}/match/{match_id}")
    page.wait_for_selector("#scores td.rank")
    last = drawn_move(page)
    assert page.evaluate(FINALS) == scores
    assert page.evaluate(RANKS) == ranks
    assert page.evaluate(NOTE) == [f"Equal scores ranked apart by the tie-break: {rule}."]
    save_screenshot(page, f"tie-break-{game}")
    # Before the end there is no result, so no tie-break either.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => +document.getElementById('board').dataset.move === {last - 1}")
    assert page.evaluate(NOTE) == []


def test_equal_scores_sharing_a_rank_say_nothing_of_a_tie_break(ties: Showcase, page: Any) -> None:
    match_id = ties.play_finished("stubborn-sheep", 3, 26)
    page.goto(f"{ties.url}/match/{match_id}")
    page.wait_for_selector("#scores td.rank")
    drawn_move(page)
    assert page.evaluate(RANKS) == [1, 1, 3]
    assert page.evaluate(NOTE) == []
