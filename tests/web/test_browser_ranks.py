"""A finished match's ranks on its page, in headless Chromium, as the engine's
result gives them: every seat's, not the winner's alone."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.test_browser import wait_for_move
from tests.web.test_http import _replay
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th"}


@pytest.mark.parametrize("game", ["sheep-n-sheep", "stubborn-sheep"])
def test_final_scores_give_every_seats_rank(showcase: Showcase, page: Any, game: str) -> None:
    """The final column starred the winners and ranked no one else: with
    three seats or more the others' places were left to work out from the
    scores, which a tie-break (Stubborn Sheep's complete sets) overrules."""
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    assert replay.players >= 3
    last = len(replay.actions)
    page.goto(f"{showcase.url}/match/{match_id}#move={last}")
    wait_for_move(page, last)
    shown = page.eval_on_selector_all(
        "#scores tbody td.rank", "cells => cells.map(c => [+c.dataset.rank, c.textContent])"
    )
    assert shown == [[rank, ORDINALS[rank]] for rank in replay.result.ranks]
    assert page.locator("#scores thead th").last.inner_text() == "rank"
    # Before the last move there is no result, nor rank.
    page.keyboard.press("ArrowLeft")
    wait_for_move(page, last - 1)
    assert page.locator("#scores td.rank").count() == 0


def test_a_solo_match_is_starred_nowhere(showcase: Showcase, page: Any) -> None:
    """A solo match's one seat is always ranked first, and its score was
    starred as a win on its page and in the list ("-2 ★ no praise", "1 ★
    Woolly disaster"): its rulebook's title is what says how it went."""
    bots = [RandomBot(71)]
    match_id = showcase.server.run(
        play_match(showcase.server.address, "stubborn-sheep", bots, seed=71)
    ).match_id
    replay = showcase.server.run(_replay(showcase, match_id))
    assert list(replay.result.ranks) == [1]
    last = len(replay.actions)
    page.goto(f"{showcase.url}/match/{match_id}#move={last}")
    wait_for_move(page, last)
    assert page.inner_text("#scores td.final") == f"{replay.result.scores[0]:g}"
    assert page.locator("#scores td.rank").count() == 0
    page.goto(showcase.url + "/")
    row = page.locator(f'#finished tr[data-match-id="{match_id}"]')
    row.wait_for()
    assert "★" not in row.inner_text()
    assert row.locator("[data-solo-title]").count() == 1
