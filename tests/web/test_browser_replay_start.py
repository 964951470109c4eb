"""Where a finished match's page opens, in headless Chromium: at its last
move, its result shown, as a spectator opening it from the list expects; the
start one key or one click away; a link naming a move still opens there."""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from tests.web.conftest import drawn_move, save_screenshot
from tests.web.test_browser_pages import _moves
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_finished_match_opened_from_the_list_shows_how_it_ended(
    showcase: Showcase, page: Any
) -> None:
    """It opened at move 0: the empty starting position, no score, no rank,
    nothing saying who won, a spectator left to find the end himself."""
    match_id = showcase.finished["stubborn-sheep"]
    last = _moves(showcase, match_id)
    page.goto(showcase.url + "/")
    page.click(f'#finished tr[data-match-id="{match_id}"] a')
    page.wait_for_selector("#board[data-move]")
    assert drawn_move(page) == last
    assert page.inner_text("#move-label") == f"move {last} of {last}"
    assert page.locator("#scores td.final").count() > 0, "no final score shown"
    assert page.locator("#scores td.rank").count() > 0, "no rank shown"
    assert page.evaluate("() => location.hash") == f"#move={last}"
    save_screenshot(page, "finished-opens-at-end")
    # The start: one key away, and one click.
    page.keyboard.press("Home")
    assert drawn_move(page) == 0
    page.keyboard.press("End")
    assert drawn_move(page) == last
    page.get_by_role("button", name="first move", exact=True).click()
    assert drawn_move(page) == 0
    # Play from the end starts again from the start.
    page.keyboard.press("End")
    assert drawn_move(page) == last
    page.get_by_role("button", name="play", exact=True).click()
    page.wait_for_function("() => window.sheepfold.index > 0 && window.sheepfold.playing")
    page.get_by_role("button", name="pause", exact=True).click()
    assert drawn_move(page) < last


@pytest.mark.parametrize("link", ["#move=0", "#move=3", "?move=0", "?move=3"])
def test_a_link_naming_a_move_opens_at_that_move(showcase: Showcase, page: Any, link: str) -> None:
    match_id = showcase.finished["sheep-showdown"]
    page.goto(f"{showcase.url}/match/{match_id}{link}")
    page.wait_for_selector("#board[data-move]")
    assert drawn_move(page) == int(link.rsplit("=", 1)[1])


def test_a_tournament_game_opens_at_its_end(showcase: Showcase, page: Any) -> None:
    page.goto(f"{showcase.url}/tournaments/0/showcase")
    link = page.locator("#report a[href*='/match/']").first
    href = link.get_attribute("href")
    assert href is not None
    link.click()
    page.wait_for_selector("#board[data-move]")
    last = page.evaluate("() => window.sheepfold.frames.at(-1).move")
    assert last > 0
    assert drawn_move(page) == last
    assert page.locator("#scores td.final").count() > 0


def test_a_match_over_before_its_live_page_saw_a_move_opens_at_its_end(
    showcase: Showcase, page: Any
) -> None:
    """A page that loaded while the match ran and whose stream found it over
    shows the replay: at its end, as a finished match's page opens (it showed
    move 0). Simulated: the page is told the finished match is running."""
    match_id = showcase.finished["sheep-n-sheep"]
    last = _moves(showcase, match_id)

    with urllib.request.urlopen(f"{showcase.url}/match/{match_id}", timeout=30) as answer:
        html = answer.read().decode()
    assert '"status": "finished"' in html
    html = html.replace('"status": "finished"', '"status": "running"', 1)

    def running(route: Any) -> None:
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)

    page.route(f"{showcase.url}/match/{match_id}", running)  # the page alone, not its API
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => !window.sheepfold.live && window.sheepfold.frames.length > 0")
    assert drawn_move(page) == last
    assert page.locator("#scores td.final").count() > 0
