"""The matches list in headless Chromium: it follows its gzipped stream, says
when the stream fails and comes back, and counts a solo match's and
tournament's seats as "1 player"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web import pages
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_the_matches_list_follows_its_gzipped_stream(showcase: Showcase, page: Any) -> None:
    """Chromium asks for gzip, so the list's stream comes gzipped; its
    EventSource shows each update as it comes: a match started after the page
    opened appears, then its moves go up."""
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))
    page.goto(showcase.url + "/")
    page.wait_for_selector("#finished tr[data-match-id]")
    match_id = showcase.start_live("sheep-n-sheep", 2, 606, delay=0.2)
    moves = (
        '(id) => { const row = document.querySelector(`#live tr[data-match-id="${id}"]`);'
        " return row ? parseInt(row.children[4].textContent) : -1; }"
    )
    page.wait_for_function(f"(id) => ({moves})(id) >= 0", arg=match_id, timeout=15_000)
    seen = page.evaluate(moves, match_id)
    page.wait_for_function(f"([id, seen]) => ({moves})(id) > seen", arg=[match_id, seen])
    streams = [r for r in responses if "/api/matches/events" in r.url]
    assert streams, "the page opened no matches stream"
    assert "gzip" in streams[0].request.all_headers().get("accept-encoding", "")
    assert streams[0].all_headers().get("content-encoding") == "gzip"
    save_screenshot(page, "matches-gzipped-stream")


def test_the_matches_list_says_when_its_stream_fails_and_comes_back(
    showcase: Showcase, page: Any
) -> None:
    """The list's stream ends (the viewer stopping), then the next one is
    refused (a proxy's 502 while the viewer is away): the page says the list is
    not current, and keeps trying until the viewer answers again. (It once said
    nothing, and a refused stream, which the browser gives up on for good,
    left the list as it was for ever.)"""
    opened: list[str] = []

    def events(route: Any) -> None:
        opened.append(route.request.url)
        if len(opened) == 1:  # an empty list, then the stream ends
            route.fulfill(
                status=200, headers={"Content-Type": "text/event-stream"}, body="data: []\n\n"
            )
        elif len(opened) == 2:
            route.fulfill(status=502, content_type="text/plain", body="bad gateway")
        else:
            route.continue_()

    page.route("**/api/matches/events*", events)
    page.add_init_script("window.sheepfoldRetrySeconds = [1, 2]")
    page.goto(showcase.url + "/")
    page.wait_for_function("() => document.body.dataset.stream === 'retrying'")
    assert page.inner_text("#list-status").startswith("not updating: the viewer does not answer")
    save_screenshot(page, "matches-stream-retrying")
    page.wait_for_selector("#finished tr[data-match-id]", timeout=15_000)
    assert len(opened) >= 3
    assert page.evaluate("() => document.body.dataset.stream") == "open"
    assert page.inner_text("#list-status").startswith("updated ")
    save_screenshot(page, "matches-stream-back")


def test_a_solo_match_and_tournament_are_one_player_not_1_players(page: Any) -> None:
    """The lists counted every match's and tournament's seats as "N players",
    so a solo game (Sheep & Garden and Stubborn Sheep take one) read "1 players"."""
    viewer = start_showcase(games=())
    try:
        solo = viewer.play_finished("stubborn-sheep", 1, 31)
        pair = viewer.play_finished("stubborn-sheep", 2, 32)
        page.goto(viewer.url + "/")
        page.wait_for_selector(f'#finished tr[data-match-id="{solo}"]')
        cell = '(id) => document.querySelector(`tr[data-match-id="${id}"] td.players`).textContent'
        assert page.evaluate(cell, solo) == "1 player"
        assert page.evaluate(cell, pair) == "2 players"
        save_screenshot(page, "matches-solo")
    finally:
        viewer.stop()
    listed = pages.tournaments_page(
        [
            {
                "index": 0,
                "file": "cup.db",
                "tournaments": [
                    {
                        "name": "solo", "href": "/t", "game": "g", "players": 1,
                        "scheduled": 1, "played": 1, "state": "finished",
                        "state_text": "finished",
                    },
                    {
                        "name": "duo", "href": "/t", "game": "g", "players": 2,
                        "scheduled": 8, "played": 3, "state": "running",
                        "state_text": "running",
                    },
                ],
            }
        ]
    )  # fmt: skip
    assert "g, 1 player, " in listed and "1 of 1 game played" in listed
    assert "g, 2 players, " in listed and "3 of 8 games played" in listed
