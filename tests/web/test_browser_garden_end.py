"""A finished Sheep & Garden match's objective cards, named with what each
counted and scored, at its last move in the public view: the rulebook has
every card's score written on the shared scoring board at the end, and the
public view kept them "face down", its final scores explained by nothing on
the page. In headless Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tests.web.test_browser import wait_for_move
from tests.web.test_http import _replay
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

GAME = "sheep-and-garden"
# Each seat's table: its caption, then per card its name, count and points.
READ = """() => [...document.querySelectorAll('#final table')].map((t) => ({
  seat: 'finalEnemy' in t.dataset ? 'enemy' : +t.dataset.finalSeat,
  caption: t.querySelector('caption').textContent,
  cards: [...t.querySelectorAll('tbody tr')].map((r) => ({
    card: r.dataset.finalCard,
    name: r.querySelector('.card-name').textContent,
    count: r.cells[1].textContent,
    points: r.cells[2].textContent,
  })),
}))"""
# How far a final table reaches past the page's width (0 when it fits).
OVERFLOW = """() => Math.max(0, ...[...document.querySelectorAll('#final table')].map(
  (t) => t.getBoundingClientRect().right - document.documentElement.clientWidth))"""


def points(total: int) -> str:
    return f"{total} point{'' if total == 1 else 's'}"


@pytest.mark.parametrize(("players", "seed"), [(2, 41), (3, 42), (1, 43)])
def test_the_last_move_names_every_seats_scored_cards(
    showcase: Showcase, page: Any, players: int, seed: int
) -> None:
    # The session's showcase: the match is read by its id alone, and
    # play_finished leaves the showcase's own matches as they were.
    match_id = showcase.play_finished(GAME, players, seed)
    replay = showcase.server.run(_replay(showcase, match_id))
    details = json.loads(replay.result.details_json)
    last = len(replay.actions)
    page.goto(f"{showcase.url}/match/{match_id}#move={last}")
    wait_for_move(page, last)
    assert page.evaluate("() => window.sheepfold.view") == "public"
    # A solo match's enemy has its cards scored too, under the seat's.
    holders = [(seat, f" seat {seat}") for seat in range(players)]
    held_by = {seat: held for seat, held in enumerate(details["seats"])}
    if players == 1:
        holders.append(("enemy", "the enemy"))
        held_by["enemy"] = details["enemy"]
    expected = [
        {
            "seat": seat,
            "caption": f"{who}: {points(held_by[seat]['total'])}",
            "cards": [
                {"card": o["card"], "name": o["name"], "count": str(o["count"]),
                 "points": str(o["points"])}
                for o in held_by[seat]["objectives"]
            ],
        }
        for seat, who in holders
    ]  # fmt: skip
    assert len(details["seats"]) == players
    assert all(seat["cards"] for seat in expected)
    assert page.evaluate(READ) == expected
    finals = page.locator("#scores td.final")
    totals = [
        float(finals.nth(seat).get_attribute("data-final-score") or "") for seat in range(players)
    ]
    # A solo match scores its seat's total less the enemy's.
    scored = (
        [details["difference"]] if players == 1 else [held["total"] for held in details["seats"]]
    )
    assert totals == scored == list(replay.result.scores)
    save_screenshot(page, f"garden-end-{players}-desktop")
    for width, height in ((1280, 800), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        wait_for_move(page, last)
        page.locator("#final").scroll_into_view_if_needed()
        assert page.evaluate(OVERFLOW) <= 1, f"a final table is wider than a {width} px page"
        save_screenshot(page, f"garden-end-{players}-{width}")
    # Before the end no card is named from the result: not at move 0, nor
    # a move before the last.
    for move in (max(0, last - 1), 0):
        page.goto(f"{showcase.url}/match/{match_id}#move={move}")
        wait_for_move(page, move)
        assert page.locator("#final *").count() == 0
        assert page.inner_text("#final") == ""


def test_a_live_page_names_the_cards_only_once_the_match_is_over(
    showcase: Showcase, page: Any
) -> None:
    """While the match runs the page holds no result, so no card; the result
    the stream sends at the end is public, and the page shows it then."""
    match_id = showcase.start_live(GAME, 2, 44, delay=0.1)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function(
        "() => +document.getElementById('board').dataset.move > 1", timeout=15_000
    )
    running = page.evaluate(
        "() => [window.sheepfold.status, window.sheepfold.result,"
        " document.getElementById('final').innerHTML]"
    )
    assert running == ["running", None, ""]
    page.wait_for_selector("#final [data-final-seat]", timeout=30_000)
    assert page.evaluate("() => window.sheepfold.status") == "finished"
    replay = showcase.server.run(_replay(showcase, match_id))
    details = json.loads(replay.result.details_json)
    shown = [[row["card"] for row in seat["cards"]] for seat in page.evaluate(READ)]
    assert shown == [[o["card"] for o in held["objectives"]] for held in details["seats"]]
