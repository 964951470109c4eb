"""What a live match's page says of what its stream does not bring, in
headless Chromium: an event log with no event in it yet, and a bot that left."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

LOG_LINES = """() => [...document.querySelectorAll('#log li')]
  .map((li) => [li.className, li.textContent])"""


def test_a_live_page_says_its_event_log_is_empty_until_the_first_event(
    showcase: Showcase, page: Any
) -> None:
    """Opened before the first move, a live page's Events panel was an empty
    box under its heading, as if it had not loaded. It says there is no event
    yet, as the matches list says "no live match", and the line goes with the
    first event."""
    match_id = showcase.start_live("sheep-n-sheep", 2, 6161, delay=5)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => window.sheepfold.frames.length >= 1")
    page.wait_for_function("() => document.querySelector('#log li') !== null")
    # Its seats wait 5 s before each move: the page holds the start alone.
    assert page.evaluate("() => window.sheepfold.frames.map((f) => f.move)") == [0]
    assert page.evaluate(LOG_LINES) == [["empty muted", "no events yet"]]
    assert page.locator("#log li.empty").is_visible()
    save_screenshot(page, "live-no-events-yet")
    page.wait_for_function(
        "() => window.sheepfold.frames.some((f) => f.events.length > 0)", timeout=20_000
    )
    page.wait_for_function("() => document.querySelector('#log li.empty') === null")
    lines = page.evaluate(LOG_LINES)
    assert lines and all("empty" not in kind for kind, _ in lines), lines


def test_a_live_page_opened_mid_match_says_the_events_before_it_are_not_shown(
    showcase: Showcase, page: Any
) -> None:
    """A live page opened after the match began holds no frame before its
    first, and its log said "no events yet" of a match 14 moves in. It says
    that earlier events came before it opened, under the events it saw (the
    log's oldest end)."""
    match_id = showcase.start_live("sheep-n-sheep", 2, 6262, delay=0.2)
    deadline = time.monotonic() + 30
    while _moves(showcase, match_id) < 3:
        assert time.monotonic() < deadline, "the match did not reach move 3"
        time.sleep(0.05)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => document.querySelector('#log li') !== null")
    first = page.evaluate("() => window.sheepfold.frames[0].move")
    assert first >= 3
    lines = page.evaluate(LOG_LINES)
    assert all(text != "no events yet" for _, text in lines), lines
    kind, text = lines[-1]
    assert "before" in kind.split(), lines
    assert text.startswith(f"earlier events came before this page opened, at move {first}"), text
    # As moves come, the line stays at the log's oldest end. The log is drawn
    # on the animation frame after a frame with events comes: read it once it
    # holds more than that line (read at once, under load it held that alone).
    page.wait_for_function(
        "() => window.sheepfold.frames.some((f) => f.events.length > 0)", timeout=20_000
    )
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 1")
    lines = page.evaluate(LOG_LINES)
    assert "before" in lines[-1][0].split() and len(lines) > 1, lines
    save_screenshot(page, "live-opened-mid-match")


def _moves(showcase: Showcase, match_id: str) -> int:
    with urllib.request.urlopen(f"{showcase.url}/api/match/{match_id}", timeout=30) as answer:
        return int(json.loads(answer.read())["moves"])


def _seats_connected(showcase: Showcase, match_id: str) -> list[bool]:
    url = f"{showcase.url}/api/match/{match_id}"
    with urllib.request.urlopen(url, timeout=30) as answer:
        return [seat["connected"] for seat in json.loads(answer.read())["seats"]]


def test_a_live_page_says_when_a_bot_leaves_while_it_watches(showcase: Showcase, page: Any) -> None:
    """The live stream brings moves and events, not a bot leaving: a page
    that watched a seat's bot go went on saying "seat 1 deciding for 40 s"
    of nobody, for as long as the match stood still. The page asks the viewer
    every few seconds whether each seat's bot is connected, and says so of a
    seat whose bot left."""
    match_id = showcase.start_live("sheep-showdown", 2, 7272, delay=0.3)
    bots = showcase._players[-2:]
    page.add_init_script("window.sheepfoldSeatSeconds = 0.5")
    page.goto(f"{showcase.url}/match/{match_id}")
    # Following it: moves arrive, and both seats are there.
    page.wait_for_function("() => window.sheepfold.frames.length >= 3", timeout=20_000)
    page.wait_for_function(
        "() => document.getElementById('clock').textContent.includes('deciding')"
    )
    assert page.locator("#scores [data-away]").count() == 0

    async def leave() -> None:
        for bot in bots:
            bot.cancel()

    showcase.server.run(leave())
    deadline = time.monotonic() + 30
    while any(_seats_connected(showcase, match_id)):
        assert time.monotonic() < deadline, "the bots are still connected"
        time.sleep(0.05)
    page.wait_for_function(
        "() => document.getElementById('clock').textContent.includes('bot is not connected')",
        timeout=10_000,
    )
    to_move = page.evaluate("() => window.sheepfold.frames.at(-1).to_move")
    assert page.inner_text("#clock").startswith(f"seat {to_move}'s bot is not connected")
    page.wait_for_function("() => document.querySelectorAll('#scores [data-away]').length === 2")
    assert page.locator(f'#scores tr[data-seat="{to_move}"] [data-away]').inner_text() == (
        "disconnected"
    )
    save_screenshot(page, "live-bot-left")
