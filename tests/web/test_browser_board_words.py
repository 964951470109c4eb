"""The board in words under a match page's board, in headless Chromium: for
each game, what the drawing shows told as lists, checked against the
observation the page holds; no seat's hidden card in the spectators' words;
and a live page's closed details left empty as the match moves."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import drawn_move, save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

OBSERVATION = "() => window.sheepfold.frames[window.sheepfold.index].observation"
# The account's top lines, each with the words of the lines under it.
TOP_LINES = (
    "() => [...document.querySelectorAll('#board-words-list > ul > li')].map((li) => li.innerText)"
)
WORDS = "() => document.getElementById('board-words-list').innerText"


def _line(lines: list[str], start: str) -> str:
    found = [line for line in lines if line.startswith(start)]
    assert len(found) == 1, f"no one line starting {start!r} in {lines}"
    return found[0]


def _sheep_n_sheep(obs: dict[str, Any], lines: list[str], players: int) -> None:
    assert _line(lines, "deck ").startswith(f"deck {obs['deck_size']}, stock {obs['stock_size']}")
    # "(2,-1)" was told nowhere as x to the right and y upwards (the reverse of Sheep & Garden's).
    assert "(x,y) is x to the right and y upwards" in _line(lines, "in each pasture")
    market = _line(lines, "market")
    for pair in obs["market"]:
        for card in pair["cards"]:
            assert f"(#{card['id']}; a group of exactly {card['condition']} scores" in market
    for seat in range(players):
        line = _line(lines, f"seat {seat}")
        cards = next(p["cards"] for p in obs["pastures"] if p.get("seat", 0) == seat)
        hand = obs["hand_sizes"][seat]
        assert f"{hand} card{'' if hand == 1 else 's'} in hand" in line, line
        assert f"{len(cards)} card{'' if len(cards) == 1 else 's'} in the pasture" in line, line
        for placed in cards:
            cell, card = placed["cell"], placed["card"]
            at = rf"\({cell.get('x', 0)},{cell.get('y', 0)}\)"
            shown = re.search(rf"{at} \w+ {card['number']}[^(]*\(#{card['id']}\)", line)
            assert shown, (placed, line)


def _sheep_showdown(obs: dict[str, Any], lines: list[str], players: int) -> None:
    assert lines[0].startswith(f"round {obs['round']} of {obs['rounds']}, turn {obs['turn']}")
    size = obs["size"]
    meadow = _line(lines, "meadow")
    assert len(re.findall(r"\b[a-g][1-7] ", meadow)) == size * size, meadow
    dogs = _line(lines, "dogs")
    for dog in obs["dogs"]:
        cell = f"{chr(97 + dog['cell']['col'])}{dog['cell']['row'] + 1}"
        told = re.search(rf"dog {dog['dog']} of seat {dog['owner']} on {cell}[^\n]*", dogs)
        assert told, (dog, dogs)
        # The dog the board rings as the one to move, and it alone.
        to_move = (
            obs.get("to_move") == dog["owner"] and obs.get("decision_dog", dog["dog"]) == dog["dog"]
        )
        assert told.group(0).endswith(", to move") == to_move, (obs.get("to_move"), told.group(0))
    for seat in range(players):
        line = _line(lines, f"seat {seat}")
        assert f"total {obs['totals'][seat]}, flock of {obs['flock_sizes'][seat]} card" in line, (
            line
        )


def _stubborn_sheep(obs: dict[str, Any], lines: list[str], players: int) -> None:
    assert f"sheep pile {obs['sheep_pile']}, fences {obs['fence_pile']}" in _line(
        lines, "sheep pile"
    )
    areas = _line(lines, "areas")
    for area in obs["areas"]:
        told = re.search(rf"area {area['index']}, [^:]*: ([^\n]*)", areas)
        assert told, (area, areas)
        ids = [int(found) for found in re.findall(r"sheep (\d+)", told.group(1))]
        assert ids == [sheep["id"] for sheep in area["sheep"]], (area, told.group(0))
    fences = _line(lines, "fences")
    assert fences.startswith(f"fences: {len(obs['fences'])}")
    for fence in obs["fences"]:
        assert f"fence {fence['index']} of seat {fence['owner']}" in fences
    for seat in range(players):
        points = obs["seats"][seat]["points"]
        assert _line(lines, f"seat {seat}").startswith(f"seat {seat}: {points} point"), lines


def _sheep_and_garden(obs: dict[str, Any], lines: list[str], players: int) -> None:
    landscape = _line(lines, "landscape")
    tiles = obs["placed"]
    assert landscape.startswith(f"landscape: {len(tiles)} tiles laid")
    # "(3,-5) ... turned 90" was told nowhere as y downwards and clockwise.
    assert "(x,y) is x to the right and y downwards, a turn in degrees clockwise" in landscape
    for tile in tiles:
        assert f"({tile.get('x', 0)},{tile.get('y', 0)}) tile {tile['tile']} " in landscape, tile
    assert f"deck {obs['deck_size']}" in _line(lines, "display")
    for seat in range(players):
        mine = [o for o in obs["objectives"] if seat in o["holders"]]
        line = _line(lines, f"seat {seat}")
        assert line.count("face down") == sum(1 for o in mine if not o["card"]), line
        for o in mine:
            if o["card"]:
                assert o["name"] in line


CHECKS: dict[str, Callable[[dict[str, Any], list[str], int], None]] = {
    "sheep-n-sheep": _sheep_n_sheep,
    "sheep-showdown": _sheep_showdown,
    "stubborn-sheep": _stubborn_sheep,
    "sheep-and-garden": _sheep_and_garden,
}

# Every seat's hidden cards at the move shown, from the page's own frames of
# the "all cards" view: each told as the words would tell it.
HIDDEN = """async (matchId) => {
  const m = window.sheepfold;
  const all = await (await fetch(`/api/match/${matchId}/frames?view=all`)).json();
  const frame = all.frames.find((f) => f.move === m.frames[m.index].move);
  return frame.seats.map((o) => o.hand ? o.hand.map((c) => `(#${c.id}`)
    : (o.objectives || []).filter((c) => !c.face_up && c.card && (c.holders || []).includes(o.seat))
      .map((c) => c.name));
}"""


def _open_words(page: Any) -> list[str]:
    page.click("#board-words summary")
    page.wait_for_selector("#board-words-list li")
    return list(page.evaluate(TOP_LINES))


def test_the_board_in_words_tells_each_game_as_the_page_holds_it(
    showcase: Showcase, page: Any
) -> None:
    """A blind spectator could not follow a match: the board was one named
    picture, where each card, sheep or tile lay told nowhere in words. A live
    match redraws several times a second: its closed details hold nothing
    as it moves, are filled once opened and follow the match, and are
    emptied once closed."""
    for game, check in CHECKS.items():
        match_id = showcase.finished[game]
        page.goto(f"{showcase.url}/match/{match_id}")
        drawn_move(page)
        assert page.evaluate("() => document.getElementById('board-words').open") is False
        assert page.inner_html("#board-words-list") == "", (
            "closed, the words are built all the same"
        )
        lines = _open_words(page)
        players = int(
            page.evaluate("() => JSON.parse(document.getElementById('boot').textContent).players")
        )
        check(page.evaluate(OBSERVATION), lines, players)
        page.locator("#board-words").scroll_into_view_if_needed()
        save_screenshot(page, f"board-words-{game}")
        if game in ("sheep-n-sheep", "sheep-and-garden"):
            hidden = page.evaluate(HIDDEN, match_id)
            assert any(hidden), f"{game}: no hidden card at the end to look for"
            words = page.evaluate(WORDS)
            for seat, cards in enumerate(hidden):
                for card in cards:
                    told = re.search(rf"{re.escape(card)}\b", words)
                    assert not told, f"{game}: the spectators' words tell seat {seat}'s {card}"
            # Seat 0's own view tells its own hidden cards, and still no other seat's.
            page.select_option("#view", "seat-0")
            page.wait_for_function(
                "() => window.sheepfold.view === 'seat-0'"
                " && document.getElementById('board-words-list').innerText"
                ".includes('what seat 0 saw')"
            )
            words = page.evaluate(WORDS)
            for seat, cards in enumerate(hidden):
                for card in cards:
                    told = re.search(rf"{re.escape(card)}\b", words)
                    assert bool(told) == (seat == 0), (game, seat, card)
    live = showcase.start_live("sheep-showdown", 2, 9191, delay=0.2)
    page.goto(f"{showcase.url}/match/{live}")
    first = drawn_move(page)
    page.wait_for_function(f"() => +document.getElementById('board').dataset.move >= {first + 3}")
    assert page.inner_html("#board-words-list") == "", "closed, a live page builds the words"
    _open_words(page)
    told = page.evaluate(WORDS)
    # Open, it follows the match: the dogs step on with the board.
    page.wait_for_function(
        "(told) => document.getElementById('board-words-list').innerText !== told", arg=told
    )
    page.click("#board-words summary")
    page.wait_for_function("() => !document.getElementById('board-words').open")
    moved = int(page.evaluate("() => document.getElementById('board').dataset.move"))
    page.wait_for_function(f"() => +document.getElementById('board').dataset.move > {moved}")
    assert page.inner_html("#board-words-list") == "", "closed again, the words stay"
