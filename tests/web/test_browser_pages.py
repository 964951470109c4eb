"""The viewer in headless Chromium, beyond drawing the games: live match
pages (a match that ends while watched, a live stream that fails and comes
back, one move held, a seat with no bot connected, hidden tabs letting go of
their streams) and the page's model there once it has loaded. (Under the
viewer's Content-Security-Policy, Playwright's wait_for_function takes a
function, "() => ...", not an expression string, which it would have to eval.)"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from tests.web.conftest import drawn_move, save_screenshot
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


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
