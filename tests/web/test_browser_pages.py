"""The viewer in headless Chromium, beyond drawing the games: a phone-size
window, odd move links, a match that ends while watched, and a live stream
that fails and comes back. (Under the viewer's Content-Security-Policy,
Playwright's wait_for_function takes a function, "() => ...", not an
expression string, which it would have to eval.)"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import games
from clients.matchplay import create_match
from server.app import ServerConfig
from tests.web.conftest import ABORTED_REASON, AbortedMatches, drawn_move, save_screenshot
from tests.web.test_browser_phone_labels import REACHABLE
from tests.web.test_http import _replay
from web import pages
from web.app import WebConfig, start_web
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

NO_OVERFLOW = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    return context


def test_a_phone_sees_the_board_and_no_page_wider_than_the_screen(
    showcase: Showcase, browser: Any
) -> None:
    context = phone(browser)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        for game in ("sheep-showdown", "stubborn-sheep"):
            page.goto(f"{showcase.url}/match/{showcase.finished[game]}#move=3")
            page.wait_for_selector('#board[data-move="3"]')
            box = page.evaluate(
                "() => { const r = document.getElementById('board').getBoundingClientRect();"
                " return [r.width, r.height]; }"
            )
            assert box[0] > 300 and box[1] > 100, box
            assert page.evaluate(NO_OVERFLOW), "the match page is wider than the phone"
            save_screenshot(page, f"phone-{game}")
        page.goto(showcase.url + "/")
        page.wait_for_selector("#finished tr[data-match-id]")
        assert page.evaluate(NO_OVERFLOW), "the matches list is wider than the phone"
        save_screenshot(page, "phone-matches")
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("table.standings")
        assert page.evaluate(NO_OVERFLOW), "the tournament page is wider than the phone"
        save_screenshot(page, "phone-tournament")
        assert not errors, errors
    finally:
        context.close()


def test_a_malformed_move_link_says_so(showcase: Showcase, page: Any) -> None:
    page.goto(f"{showcase.url}/match/{showcase.finished['sheep-showdown']}#move=%zz")
    page.wait_for_selector("#notice:not([hidden])")
    assert "no move" in page.inner_text("#notice")
    # It opens where a link naming no move opens: at the match's end.
    last = page.evaluate("() => window.sheepfold.frames.at(-1).move")
    page.wait_for_selector(f'#board[data-move="{last}"]')
    assert last > 0


def test_a_move_link_cannot_write_its_own_sentence_on_the_page(
    showcase: Showcase, page: Any
) -> None:
    """The notice quoted whatever followed `#move=`, however long, bidi controls
    and all: a link could put a paragraph of its own on the viewer's page (and
    U+202E turn the viewer's words around). It quotes 40 characters, as the
    viewer does for `?move=`, and shows a control as its escape."""
    url = f"{showcase.url}/match/{showcase.finished['sheep-showdown']}"
    said = "%22. The game server is moving: log in again at example.org " + "and " * 30
    page.goto(f"{url}#move={said}")
    page.wait_for_selector("#notice:not([hidden])")
    notice = page.inner_text("#notice")
    assert "no move" in notice and "example.org" not in notice, notice
    assert len(notice) < 160, notice
    page.goto(f"{url}#move=%E2%80%AE99")
    page.reload()
    page.wait_for_selector("#notice:not([hidden])")
    notice = page.inner_text("#notice")
    assert "\u202e" not in notice and "\\u202e" in notice, notice


def _moves(showcase: Showcase, match_id: str) -> int:
    with urllib.request.urlopen(f"{showcase.url}/api/match/{match_id}", timeout=30) as answer:
        return int(json.loads(answer.read())["moves"])


def test_a_match_that_ends_while_watched_becomes_its_whole_replay(
    showcase: Showcase, page: Any
) -> None:
    """The page held only the moves since it opened; after the end it holds
    them all, stays at the move it showed, and #move=N means move N."""
    match_id = showcase.start_live("sheep-showdown", 2, 909, delay=0.05)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 8:
        assert time.monotonic() < deadline, "the match did not reach move 8"
        time.sleep(0.05)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => window.sheepfold.frames.length >= 3")
    assert page.evaluate("() => window.sheepfold.frames[0].move") >= 8
    page.keyboard.press("ArrowLeft")  # stop following: this move stays shown
    held = drawn_move(page)
    page.wait_for_function(
        "() => window.sheepfold.status === 'finished' && !window.sheepfold.live"
        " && window.sheepfold.frames[0].move === 0",
        timeout=60_000,
    )
    page.wait_for_selector(f'#board[data-move="{held}"]')
    moves = _moves(showcase, match_id)
    assert page.evaluate("() => window.sheepfold.frames.length") == moves + 1
    page.keyboard.press("Home")
    page.wait_for_selector('#board[data-move="0"]')
    assert page.evaluate("() => location.hash") == "#move=0"
    page.evaluate("() => { location.hash = '#move=2'; }")
    page.wait_for_selector('#board[data-move="2"]')
    assert page.is_hidden("#notice")
    assert page.inner_text("#move-label") == f"move 2 of {moves}"
    save_screenshot(page, "ended-while-watched")


def test_a_live_page_reconnects_after_its_stream_fails(showcase: Showcase, page: Any) -> None:
    """The first stream ends with an error (as when the server restarts): the
    page says so, stops the clock, tries again and follows the match again."""
    match_id = showcase.start_live("stubborn-sheep", 3, 808, delay=0.3)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 2:  # running, not waiting for its seats
        assert time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    # What the first stream brings before it fails: the match as it is now.
    with urllib.request.urlopen(f"{showcase.url}/api/match/{match_id}/live", timeout=30) as live:
        first_batch = next(line for line in live if line.startswith(b"data: ")).decode()
    opened: list[str] = []

    def live(route: Any) -> None:
        opened.append(route.request.url)
        if len(opened) == 1:
            route.fulfill(
                status=200,
                headers={"Content-Type": "text/event-stream"},
                body=first_batch + '\ndata: [{"kind":"error","code":"UNAVAILABLE",'
                '"message":"server shutting down"}]\n\nevent: end\ndata: {}\n\n',
            )
        else:
            route.continue_()

    page.route(f"**/api/match/{match_id}/live", live)
    page.add_init_script("window.sheepfoldRetrySeconds = [3]")
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_selector("#notice:not([hidden])")
    page.wait_for_selector("#board[data-move]")  # the first stream's move is drawn
    assert "server shutting down" in page.inner_text("#notice")
    assert "Reconnecting" in page.inner_text("#notice")
    # The badge is drawn on the next animation frame after the stream ends.
    page.wait_for_selector('#status[data-status="reconnecting"]')
    assert page.inner_text("#status") == "reconnecting"
    assert page.evaluate("() => window.sheepfold.status") == "running"
    page.wait_for_timeout(600)  # a few ticks of the clock (it retries after 3 s)
    assert page.inner_text("#clock") == ""
    save_screenshot(page, "live-reconnecting")
    first = int(page.get_attribute("#board", "data-move"))
    page.wait_for_function(
        f"() => +document.getElementById('board').dataset.move > {first}", timeout=15_000
    )
    assert len(opened) >= 2
    assert page.inner_text("#status") == "running"
    assert page.is_hidden("#notice")
    page.wait_for_function("() => document.getElementById('clock').textContent.includes('seat')")
    save_screenshot(page, "live-reconnected")


def test_a_reconnected_live_page_keeps_what_it_saw_of_the_move_it_resumes_at(
    showcase: Showcase, page: Any
) -> None:
    """The stream fails right after a move; the next one starts at that same
    move, with a snapshot that has no events. The page keeps the move's events
    in its log and its label (they were once wiped)."""
    match_id = showcase.start_live("sheep-n-sheep", 2, 909, delay=5)
    with urllib.request.urlopen(f"{showcase.url}/api/match/{match_id}/live", timeout=30) as live:
        first_line = next(line for line in live if line.startswith(b"data: "))
    snapshot = next(i for i in json.loads(first_line[6:]) if i["kind"] == "snapshot")
    move = snapshot["move"] + 1
    again = {**snapshot, "move": move}
    played = [{"kind": "event", "move": move, "text": "seat 0 did the thing seen once"}, again]
    opened: list[str] = []

    def live(route: Any) -> None:
        opened.append(route.request.url)
        body = f"data: {json.dumps([again])}\n\n"
        if len(opened) == 1:
            body = (
                f"data: {json.dumps([snapshot])}\n\ndata: {json.dumps(played)}\n\n"
                'data: [{"kind":"error","code":"UNAVAILABLE","message":"gone"}]\n\n'
                "event: end\ndata: {}\n\n"
            )
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)

    page.route(f"**/api/match/{match_id}/live", live)
    page.add_init_script("window.sheepfoldRetrySeconds = [1]")
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => window.sheepfold.frames.length === 2")
    assert "seen once" in page.inner_text("#log")
    deadline = time.monotonic() + 15
    while len(opened) < 3:  # the second stream has come and gone
        assert time.monotonic() < deadline, "the page did not reconnect"
        page.wait_for_timeout(100)
    frames = page.evaluate("() => window.sheepfold.frames.map((f) => [f.move, f.events.length])")
    assert frames == [[move - 1, 0], [move, 1]]
    assert "seen once" in page.inner_text("#log")
    assert f"move {move}: seat 0 did the thing seen once" in page.inner_text("#turn")
    save_screenshot(page, "live-reconnected-same-move")


def test_the_page_model_is_there_once_the_page_has_loaded(showcase: Showcase, page: Any) -> None:
    """The page's script awaits the game's drawing module at its top level, and
    the load event does not wait for that. The model was made after the await,
    so a test (or a person at the console) that looked right after the load
    found no window.sheepfold. The drawing module is held back here until the
    model has been looked at."""
    held: list[Any] = []
    page.route("**/static/games/*.js", lambda route: held.append(route))
    page.goto(f"{showcase.url}/match/{showcase.finished['sheep-n-sheep']}#move=2")
    deadline = time.monotonic() + 15
    while not held:
        assert time.monotonic() < deadline, "the page never asked for its game's module"
        page.wait_for_timeout(50)
    assert page.evaluate("() => typeof window.sheepfold") == "object"
    assert page.evaluate("() => window.sheepfold.status") == "finished"
    assert page.evaluate("() => document.getElementById('board').dataset.move") is None
    for route in held:
        route.continue_()
    page.wait_for_selector('#board[data-move="2"]')


def _aborted_page_basics(page: Any) -> str:
    """What every aborted match's page shows: the notice, the badge, no
    following; returns the notice."""
    page.wait_for_selector("#notice:not([hidden])")
    page.wait_for_selector('#status[data-status="aborted"]')
    assert page.inner_text("#status") == "aborted"
    assert page.is_hidden("#follow-wrap") and page.is_visible("#view-wrap")
    text = page.inner_text("#notice")
    assert text.startswith("The match ended without a result (aborted): not restored: "), text
    assert "not over" not in text and "follow it live" not in text
    return text


def test_an_aborted_match_page_says_it_was_aborted_and_why(
    aborted_matches: AbortedMatches, page: Any
) -> None:
    url = aborted_matches.viewer.url
    # Recorded under other rules: the reason, and why its moves are not shown.
    page.goto(f"{url}/match/{aborted_matches.rules_changed}")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('cannot be shown')"
    )
    text = _aborted_page_basics(page)
    playing = games.get("sheep-n-sheep").rules_version
    assert f"sheep-n-sheep rules version {playing + 7}" in text  # as the fixture stored it
    assert f"this viewer plays version {playing}" in text
    assert page.inner_text("#move-label") == "no moves to show"
    save_screenshot(page, "aborted-other-rules")

    # Replayable: its moves, up to where it stopped, in every view.
    page.goto(f"{url}/match/{aborted_matches.stopped}")
    page.wait_for_selector("#board[data-move]")
    last = page.evaluate("() => window.sheepfold.frames.length") - 1
    assert last >= aborted_matches.moves
    page.keyboard.press("End")
    page.wait_for_selector(f'#board[data-move="{last}"]')
    assert _aborted_page_basics(page).endswith(f"{ABORTED_REASON}.")
    assert page.inner_text("#turn").startswith("Aborted here: no result")
    assert page.eval_on_selector_all("td.final", "cells => cells.length") == 0
    # Nobody is to move where it stopped: no row is marked as the one deciding,
    # though the last frame names the seat that was (the row once stayed marked).
    assert page.eval_on_selector_all("#scores tr.to-move", "rows => rows.length") == 0
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'#board[data-move="{last - 1}"]')
    assert page.eval_on_selector_all("#scores tr.to-move", "rows => rows.length") == 1
    page.select_option("#view", "all")
    page.wait_for_selector('#board[data-view="all"]')
    page.keyboard.press("Home")
    page.wait_for_selector('#board[data-move="0"]')
    assert page.inner_text("#notice") == _aborted_page_basics(page)
    save_screenshot(page, "aborted-replay")


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


def _visibility(hidden: bool) -> str:
    """A script that makes the page think its tab was hidden (or shown):
    headless Chromium keeps every tab visible."""
    state = "hidden" if hidden else "visible"
    return f"""() => {{
      const as = (value) => ({{ configurable: true, get: () => value }});
      Object.defineProperty(document, "hidden", as({str(hidden).lower()}));
      Object.defineProperty(document, "visibilityState", as("{state}"));
      document.dispatchEvent(new Event("visibilitychange"));
    }}"""


def test_hidden_tabs_let_go_of_their_streams_so_a_seventh_tab_loads(browser: Any) -> None:
    """A browser opens at most six connections to one viewer, and the matches
    list and every live match page each held one for its stream: with the
    list and five live matches open, a seventh tab did not even load. Hidden
    tabs now close their streams, and follow the match again once shown."""
    viewer = start_showcase(games=())
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    errors: list[str] = []
    try:
        matches = [viewer.start_live(game, 2, 515, delay=0.4) for game in GAMES_TWO]
        tabs = []
        for i in range(6):
            tab = context.new_page()
            tab.on("pageerror", lambda error: errors.append(str(error)))
            if i == 0:
                tab.goto(viewer.url + "/")
                tab.wait_for_selector("#live tr[data-match-id]")
            else:
                tab.goto(f"{viewer.url}/match/{matches[i % len(matches)]}")
                tab.wait_for_selector("#board[data-move]")
            tabs.append(tab)
        for tab in tabs:  # the user opens another tab: these are in the background
            tab.evaluate(_visibility(True))
            assert tab.evaluate("() => document.body.dataset.stream") == "paused"
        assert "paused" in tabs[0].inner_text("#list-status")
        seventh = context.new_page()
        seventh.on("pageerror", lambda error: errors.append(str(error)))
        seventh.goto(f"{viewer.url}/match/{matches[0]}", timeout=10_000)
        seventh.wait_for_selector("#board[data-move]", timeout=10_000)
        save_screenshot(seventh, "seventh-tab")
        seventh.close()
        # Shown again, a hidden match page follows its match again; the list too.
        shown = tabs[1]
        paused_at = int(shown.get_attribute("#board", "data-move"))
        shown.evaluate(_visibility(False))
        shown.wait_for_function(
            f"() => +document.getElementById('board').dataset.move > {paused_at}"
            " && document.body.dataset.stream === 'open'",
            timeout=15_000,
        )
        assert shown.inner_text("#status") == "running"
        save_screenshot(shown, "shown-again")
        tabs[0].evaluate(_visibility(False))
        tabs[0].wait_for_function("() => document.body.dataset.stream === 'open'")
        assert tabs[0].inner_text("#list-status").startswith("updated ")
    finally:
        context.close()
        viewer.stop()
    assert not errors, errors


GAMES_TWO = ("stubborn-sheep", "sheep-n-sheep")


def test_a_match_aborted_while_watched_says_it_was_aborted(browser: Any) -> None:
    """A match nobody joins is aborted after the start timeout, and its Watch
    stream ends with a result that has an end reason and no scores. A page
    watching it took any result for a finished match: badge "finished",
    "undefined" for every final score, and not a word of why."""
    show = start_showcase(games=(), config=ServerConfig(start_timeout=3.0))
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    try:
        created = show.server.run(create_match(show.server.address, "sheep-n-sheep", 2, seed=5))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{show.url}/match/{created.match_id}")
        page.wait_for_selector('#status[data-status="waiting"]')
        page.wait_for_selector('#status:not([data-status="waiting"])', timeout=20_000)
        page.wait_for_function("() => !window.sheepfold.live")
        assert page.inner_text("#status") == "aborted", page.inner_text("body")
        page.wait_for_selector("#notice:not([hidden])")
        assert page.inner_text("#notice") == (
            "The match ended without a result (aborted): no seat joined within the start timeout."
        )
        assert page.eval_on_selector_all("td.final", "cells => cells.length") == 0
        assert "undefined" not in page.inner_text("#scores")
        assert page.inner_text("#turn").startswith("Aborted here: no result")
        assert not errors, errors
        save_screenshot(page, "aborted-while-watched")
    finally:
        context.close()
        show.stop()


def test_a_long_tournament_name_keeps_the_list_within_a_phone(
    showcase: Showcase, browser: Any, tmp_path: Path
) -> None:
    """A tournament's name may be as long as its organiser likes, with no space
    to break it at: the list of tournaments ran off the side of a phone's screen
    (the page scrolled sideways), and so did an error page quoting a long URL."""
    copy = tmp_path / "long.db"
    shutil.copy(showcase.tournament_dbs[0], copy)
    long_name = "spring-cup-" + "qualifier" * 20
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE tournaments SET name = ?", (long_name,))
    connection.close()
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (copy,)), "127.0.0.1", 0)
    )
    context = phone(browser)
    try:
        page = context.new_page()
        for path in ("/tournaments", f"/tournaments/0/{long_name}", "/match/" + "x" * 300):
            page.goto(f"http://127.0.0.1:{viewer.port}{path}")
            page.wait_for_selector("main h1, main h2")
            assert page.evaluate(NO_OVERFLOW), f"{path} is wider than the phone"
        page.goto(f"http://127.0.0.1:{viewer.port}/tournaments")
        link = page.locator("ul.tournaments a")
        assert link.inner_text() == long_name
        save_screenshot(page, "phone-tournaments-long-name")
    finally:
        context.close()
        showcase.server.run(viewer.stop())


# How many lines each bot's name takes in the report's tables, and how many
# words (parts between hyphens or spaces) it has.
NAME_LINES = """() => [...document.querySelectorAll(
    '#report table.standings td.bot, #report table.heat tbody th.bot')].map((cell) => {
  const range = document.createRange();
  // The name's own text (its box, one that can cut it with "...", is no line).
  range.selectNodeContents(cell.querySelector('.name') || cell);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  return { name: cell.textContent, lines, words: cell.textContent.split(/[-\\s]+/).length };
})"""


def test_a_phone_reads_each_bot_name_of_a_tournament_whole(
    showcase: Showcase, browser: Any
) -> None:
    """The match page's rule that breaks a long bot name anywhere (class "bot")
    also held the report's bot columns, so the standings drew each name one
    letter a line on a phone ("g" over "r" over "e" ...): a name breaks only
    between its words."""
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("table.standings")
        names = page.evaluate(NAME_LINES)
        save_screenshot(page, "phone-tournament-names")
    finally:
        context.close()
    assert len(names) == 6, names  # three in the standings, three in the crosstable
    broken = [name for name in names if name["lines"] > name["words"]]
    assert not broken, f"bot names broken inside a word: {broken}"


# The board's foot and the top of the controls, which stay at the window's
# foot, in CSS pixels from the window's top, and the board's size.
BOARD_AND_CONTROLS = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const controls = document.getElementById('controls').getBoundingClientRect();
  return { board: board.bottom, controls: controls.top, width: board.width, height: board.height };
}"""


@pytest.mark.parametrize(
    "viewport", [{"width": 375, "height": 667}, {"width": 390, "height": 844}], ids=str
)
def test_the_controls_cover_no_part_of_the_board_on_a_phone(
    showcase: Showcase, browser: Any, viewport: dict[str, int]
) -> None:
    """The controls stay at the foot of the window; on a 375x667 phone they
    covered the foot of the board as the page opened (Stubborn Sheep's seats'
    points, 45 px of it): the board is drawn in the room above them."""
    context = browser.new_context(viewport=viewport, is_mobile=True)
    try:
        page = context.new_page()
        for game, match_id in showcase.finished.items():
            last = len(showcase.server.run(_replay(showcase, match_id)).actions)
            page.goto(f"{showcase.url}/match/{match_id}#move={last}")
            page.wait_for_selector(f'#board[data-move="{last}"]')
            seen = page.evaluate(BOARD_AND_CONTROLS)
            save_screenshot(page, f"phone-{viewport['height']}-controls-{game}")
            # A board too small to read above the controls (Sheep & Garden's
            # at its end on 375x667) runs taller than the window: every part
            # of it shows clear of them at some scroll.
            if page.get_attribute("#board", "data-tall") != "true":
                assert seen["board"] <= seen["controls"] + 0.5, (game, seen)
            assert not page.evaluate(REACHABLE)["hidden"], game
            assert seen["width"] > 300 and seen["height"] > 200, (game, seen)
            assert page.evaluate(NO_OVERFLOW), f"{game}'s page is wider than the phone"
    finally:
        context.close()


def test_a_live_page_holding_one_move_shows_no_slider_at_the_start(
    showcase: Showcase, page: Any
) -> None:
    """A live match's page opened mid-match holds the one move it was sent. Its
    slider, a range of one value, drew its thumb at the far left beside "move
    106 of 106", as if the page showed the start; it shows no slider until
    there is a second move to slide to, and then its thumb is at the end."""
    match_id = showcase.start_live("sheep-showdown", 2, 4711, delay=4)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function(
        "() => window.sheepfold.frames.length === 1"
        " && document.getElementById('board').dataset.move !== undefined"
    )
    assert not page.is_visible("#slider"), "one move held, and a slider at the start"
    assert page.is_visible("#move-label")
    save_screenshot(page, "live-one-move-held")
    page.wait_for_function("() => window.sheepfold.frames.length >= 2", timeout=20_000)
    page.wait_for_function("() => document.getElementById('slider').value !== '0'")
    assert page.is_visible("#slider")
    slider = page.eval_on_selector("#slider", "s => [s.value, s.max]")
    assert slider[0] == slider[1], slider


def test_the_matches_list_says_an_aborted_match_has_no_result(
    aborted_matches: AbortedMatches, page: Any
) -> None:
    """An aborted match is over with no scores: its row's result was blank
    beside the badge, where every other row says how its match stands."""
    page.goto(aborted_matches.viewer.url + "/")
    for match_id in (aborted_matches.rules_changed, aborted_matches.stopped):
        row = f'#finished tr[data-match-id="{match_id}"]'
        page.wait_for_selector(row)
        assert page.inner_text(f"{row} td.status") == "aborted"
        assert page.inner_text(f"{row} td.result") == "no result"
    finished = f'#finished tr[data-match-id="{aborted_matches.finished_under_other_rules}"]'
    assert page.locator(f"{finished} td.result .score").count() == 2
    save_screenshot(page, "list-aborted-no-result")


def test_a_live_page_says_when_the_seat_to_move_has_no_bot_connected(
    showcase: Showcase, page: Any
) -> None:
    """A running match whose bots are gone (a server restarted under it, its
    bots not back) stands still. Its page said "seat 1 is deciding" of a seat
    with nobody in it; it says the seat's bot is not connected."""
    match_id = showcase.start_live("sheep-showdown", 2, 5151, delay=0.05)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 3:
        assert time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    bots = showcase._players[-2:]

    async def leave() -> None:
        for bot in bots:
            bot.cancel()

    showcase.server.run(leave())

    def seats() -> list[bool]:
        url = f"{showcase.url}/api/match/{match_id}"
        with urllib.request.urlopen(url, timeout=30) as answer:
            return [seat["connected"] for seat in json.loads(answer.read())["seats"]]

    while any(seats()):
        assert time.monotonic() < deadline, "the bots are still connected"
        time.sleep(0.05)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => document.getElementById('clock').textContent !== ''")
    to_move = page.evaluate("() => window.sheepfold.frames.at(-1).to_move")
    assert page.inner_text("#clock").startswith(f"seat {to_move}'s bot is not connected (limit ")
    save_screenshot(page, "live-bot-not-connected")
