"""The games of one pair of bots on a tournament's page, in headless
Chromium: each crosstable cell links to them, on a laptop and a phone."""

from __future__ import annotations

import html
from typing import Any

import pytest

from tests.web.conftest import laptop_and_phone, save_screenshot
from tournament.store import Store
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

SHOWN_GAMES = """() => [...document.querySelectorAll('#report table.games tr[data-match-id]')]
  .filter((row) => row.getClientRects().length > 0).map((row) => row.dataset.matchId)"""


@laptop_and_phone
def test_a_crosstable_cell_lists_the_games_of_its_pair(
    showcase: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    """A cell gave a pair's score and nothing else: to see the games behind
    "75.0" a spectator had to read every line of a list of hundreds."""
    with Store(showcase.tournament_dbs[0]) as store:
        stored = store.games(store.tournament("showcase").id)
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("table.heat")
        cells = page.eval_on_selector_all(
            "table.heat td[data-row]", "cells => cells.map(c => [c.dataset.row, c.dataset.col])"
        )
        assert len(cells) == 6, cells
        for row, col in cells:
            page.locator(f'table.heat td[data-row="{row}"][data-col="{col}"] a').click()
            page.wait_for_function(
                "(pair) => document.getElementById('pair-games')?.dataset.pair === pair",
                arg=f"{row}\n{col}",
            )
            theirs = [g for g in stored if {row, col} <= set(g.bots)]
            assert theirs, (row, col)
            assert sorted(page.evaluate(SHOWN_GAMES)) == sorted(g.match_id for g in theirs)
            said = page.inner_text("#pair-games")
            assert f"{row} and {col}: {len(theirs)} games" in said, said
            # The cell's score is the row's share of those games, a draw half.
            won = sum(
                1.0 if g.ranks[g.bots.index(row)] < g.ranks[g.bots.index(col)]
                else 0.5 if g.ranks[g.bots.index(row)] == g.ranks[g.bots.index(col)]
                else 0.0
                for g in theirs
            )  # fmt: skip
            cell = page.locator(f'table.heat td[data-row="{row}"][data-col="{col}"]')
            assert float(cell.inner_text()) == round(100 * won / len(theirs), 1)
            assert page.locator("#pair-games").is_visible()
        save_screenshot(page, f"tournament-pair-{viewport['width']}")
        page.get_by_role("link", name="every game").click()
        page.wait_for_function("() => !document.getElementById('pair-games')")
        assert len(page.evaluate(SHOWN_GAMES)) == len(stored)
        # A pair's link is an address of its own: opened, it lists that pair.
        row, col = cells[0]
        page.locator(f'table.heat td[data-row="{row}"][data-col="{col}"] a').click()
        page.wait_for_selector("#pair-games")
        link = page.url
        page.goto("about:blank")
        page.goto(link)
        page.wait_for_selector("#pair-games")
        theirs = [g for g in stored if {row, col} <= set(g.bots)]
        assert len(page.evaluate(SHOWN_GAMES)) == len(theirs)
        assert not page.evaluate(
            "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
        ), "the page is wider than the window"
    finally:
        context.close()


def test_a_bot_in_the_standings_lists_its_games(showcase: Showcase, page: Any) -> None:
    """A bot's name in the standings led nowhere either: its games, as many as
    its "games" column says, were found only by reading the whole list."""
    with Store(showcase.tournament_dbs[0]) as store:
        stored = store.games(store.tournament("showcase").id)
    page.goto(f"{showcase.url}/tournaments/0/showcase")
    page.wait_for_selector("table.standings")
    bots = page.eval_on_selector_all(
        "table.standings tr[data-bot]", "rows => rows.map(r => r.dataset.bot)"
    )
    assert len(bots) == 3, bots
    for bot in bots:
        row = page.locator(f'table.standings tr[data-bot="{bot}"]')
        row.locator("td.bot a").click()
        page.wait_for_function(
            "(bot) => document.getElementById('pair-games')?.dataset.pair === bot", arg=bot
        )
        theirs = [g.match_id for g in stored if bot in g.bots]
        assert sorted(page.evaluate(SHOWN_GAMES)) == sorted(theirs)
        assert int(row.locator("td.games").inner_text()) == len(theirs)
        said = page.inner_text("#pair-games")
        assert f"Games of {bot}: {len(theirs)} games" in said, said


def _three_seats(route: Any) -> None:
    """The showcase's tournament page with its newest game seating all three
    of its bots, as a game of a three-seat tournament does."""
    answer = route.fetch()
    body, rows = answer.text(), 0
    for bots in ('"random", "random-too"', '"random-too", "random"'):
        was = f'data-bots="{html.escape(f"[{bots}]")}"'
        if was in body:
            seated = '["random", "random-too", "greedy"]'
            body = body.replace(was, f'data-bots="{html.escape(seated)}"', 1)
            rows += 1
            break
    assert rows == 1, "no game of random and random-too in the report"
    route.fulfill(response=answer, body=body)


def test_three_bots_in_the_address_list_the_games_all_three_sat_in(
    showcase: Showcase, page: Any
) -> None:
    """#bot=A&bot=B&bot=C (an address written by hand, or a game of three
    seats) showed every game under no line, as if it named no bot: one bot
    lists its games, two the games they both sat in, and three or more, as
    two do, the games every one of them sat in."""
    url = f"{showcase.url}/tournaments/0/showcase"
    page.route(url, _three_seats)
    page.goto(f"{url}#bot=random&bot=random-too&bot=greedy")
    page.wait_for_function(
        "(bots) => document.getElementById('pair-games')?.dataset.pair === bots",
        arg="random\nrandom-too\ngreedy",
    )
    shown = page.evaluate(SHOWN_GAMES)
    seated = page.eval_on_selector(
        f'tr[data-match-id="{shown[0]}"]', "row => JSON.parse(row.dataset.bots)"
    ) if len(shown) == 1 else None  # fmt: skip
    assert seated == ["random", "random-too", "greedy"], shown
    said = page.inner_text("#pair-games")
    assert said.startswith("Games of random, random-too and greedy: 1 game · "), said
    save_screenshot(page, "tournament-three-bots")
    # A bot named twice is named once: its own games.
    with Store(showcase.tournament_dbs[0]) as store:
        stored = store.games(store.tournament("showcase").id)
    page.goto(f"{url}#bot=greedy&bot=greedy")
    page.wait_for_function("() => document.getElementById('pair-games')?.dataset.pair === 'greedy'")
    theirs = {g.match_id for g in stored if "greedy" in g.bots} | set(shown)
    assert sorted(page.evaluate(SHOWN_GAMES)) == sorted(theirs)
