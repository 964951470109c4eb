"""Finished matches whose every seat was disqualified, on the narrowest phones,
in headless Chromium: the scores, each seat badged "disqualified", stay
inside their panel and the screen, the rank column in sight."""

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


# The widest scores tables: Sheep Showdown at six seats, Stubborn Sheep (five
# figures a seat) at five.
LINEUPS = {"sheep-showdown": (6, {"rounds": "1"}), "stubborn-sheep": (5, {})}


@pytest.fixture(scope="module")
def all_disqualified() -> Iterator[tuple[Showcase, dict[str, str]]]:
    """A viewer of one finished match of each game in LINEUPS, every seat's
    bot disqualified at its first missed deadline; and the matches' ids."""
    show = start_showcase(games=())
    try:
        clock = arena_pb2.ClockSettings(decision_seconds=0.3, max_strikes=1)
        matches: dict[str, str] = {}
        for game, (players, options) in LINEUPS.items():
            outcome = show.server.run(
                play_match(
                    show.server.address,
                    game,
                    [LateBot(seat) for seat in range(players)],
                    seed=23,
                    options=options,
                    clock=clock,
                ),
                120,
            )
            matches[game] = outcome.match_id
        yield show, matches
    finally:
        show.stop()


# How far the scores table, and the furthest of its rank cells, reach past
# the side panel's content box, and how far the page reaches past the window.
OVERRUN = """() => {
  const table = document.getElementById('scores');
  const side = table.parentElement;
  const style = getComputedStyle(side);
  const inner = side.getBoundingClientRect().right - parseFloat(style.borderRightWidth)
    - parseFloat(style.paddingRight);
  const ranks = [...table.querySelectorAll('td.rank')]
    .map((cell) => cell.getBoundingClientRect().right);
  return {
    table: table.getBoundingClientRect().right - inner,
    rank: Math.max(...ranks) - document.documentElement.clientWidth,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    badges: table.querySelectorAll('[data-disqualified]').length,
  };
}"""


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("game", list(LINEUPS))
def test_every_seat_disqualified_fits_a_narrow_phone(
    all_disqualified: tuple[Showcase, dict[str, str]], browser: Any, game: str, width: int
) -> None:
    """Six "disqualified" badges in the seat column made a 320 px phone's
    scores 53 px wider than their panel: the page scrolled sideways and the
    ranks sat past the screen's edge (Stubborn Sheep's five seats overran a
    360 px phone too)."""
    show, matches = all_disqualified
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{show.url}/match/{matches[game]}")
        page.wait_for_selector("#scores td.rank")
        page.locator("#scores").scroll_into_view_if_needed()
        overrun = page.evaluate(OVERRUN)
        save_screenshot(page, f"disqualified-phone-{game}-{width}")
    finally:
        context.close()
    assert not errors, errors
    assert overrun["badges"] == LINEUPS[game][0], overrun
    assert overrun["table"] <= 0.5, overrun
    assert overrun["rank"] <= 0.5, overrun
    assert overrun["page"] <= 0, overrun
