"""A tournament page's address naming a bot the tournament does not have, in
headless Chromium: the line over its games says so."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _note(page: Any, showcase: Showcase, hash_: str) -> str:
    page.goto(f"{showcase.url}/tournaments/0/showcase{hash_}")
    page.wait_for_selector("#pair-games")
    return str(page.inner_text("#pair-games"))


def test_a_bot_the_tournament_does_not_have_is_said_to_be_none_of_its_own(
    showcase: Showcase, page: Any
) -> None:
    """A link with a typo, or a bot renamed since, read "Games of randm: 0
    games", as if a bot of that name had played no game yet."""
    said = _note(page, showcase, "#bot=randm")
    save_screenshot(page, "tournament-unknown-bot")
    assert said == "Games of randm: 0 games (randm is not a bot of this tournament) · every game"
    said = _note(page, showcase, "#bot=random&bot=nobody&bot=greedy&bot=ghost")
    assert said.startswith("Games of random, nobody, greedy and ghost: 0 games"), said
    assert "(nobody and ghost are not bots of this tournament)" in said, said
    # A bot of its own is named as before.
    said = _note(page, showcase, "#bot=greedy")
    assert said.startswith("Games of greedy: ") and "not a bot" not in said, said
