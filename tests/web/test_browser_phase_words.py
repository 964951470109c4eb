"""What the boards say a seat is doing, in headless Chromium at 1280 and
360 px, in the rules' words. A Sheep 'n' Sheep board said "placing: same
(0 placed)" and a Stubborn Sheep one "seat 1: jumper", "seat 2: yellow
takes two" or "seat 4: over": the phase's name in the protocol lower-cased,
which told a spectator nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import drawn_move, laptop_and_phone, save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Each placement phase the match passes through: its name and the first move at it.
PLACEMENTS = """() => {
  const seen = {};
  for (const frame of window.sheepfold.frames) {
    const placement = frame.observation.placement;
    if (!placement) continue;
    const phase = placement.phase.replace('SHEEP_N_SHEEP_PHASE_', '');
    if (!(phase in seen)) seen[phase] = frame.move;
  }
  return seen;
}"""

WORDS = {
    "SAME": "placing cards of one number",
    "RUN": "placing a run",
    "DISCARD": "discarding for a free placement",
    "FREE": "placing one card anywhere",
}


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


@laptop_and_phone
def test_a_placement_under_way_is_said_in_words(
    showcase: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    page = context.new_page()
    try:
        match_id = showcase.finished["sheep-n-sheep"]
        page.goto(f"{showcase.url}/match/{match_id}")
        page.wait_for_function("() => window.sheepfold.frames.length > 1")
        phases = page.evaluate(PLACEMENTS)
        assert {"SAME", "RUN"} & set(phases), phases
        for phase, move in phases.items():
            page.goto(f"{showcase.url}/match/{match_id}#move={move}")
            page.wait_for_function("() => window.sheepfold.frames.length > 1")
            assert drawn_move(page) == move
            frame = page.evaluate("() => window.sheepfold.frames[window.sheepfold.index]")
            placed = frame["observation"]["placement"].get("placed", 0)
            said = page.text_content("#board text.placing") or ""
            assert said == f"{WORDS[phase]} · {placed} placed", said
            # Beside the market's heading, not over it, and on the board.
            market = _box(page, "#board text:text-is('market')")
            placing = _box(page, "#board text.placing")
            board = _box(page, "#board")
            assert placing["x"] >= market["x"] + market["width"] + 4, (market, placing)
            assert board["x"] <= placing["x"] and (
                placing["x"] + placing["width"] <= board["x"] + board["width"]
            )
        save_screenshot(page, f"placing-words-{viewport['width']}")
    finally:
        context.close()


STUBBORN_PHASES = """() => {
  const seen = {};
  for (const frame of window.sheepfold.frames) {
    const phase = (frame.observation.phase || '').replace('STUBBORN_SHEEP_PHASE_', '');
    if (phase && !(phase in seen)) seen[phase] = frame.move;
  }
  return seen;
}"""

DECIDES = {
    "ORIENT": "keeps or turns a fence",
    "BLUE_BONUS": "uses a blue bonus or not",
    "PLACE": "places a fence card",
    "BETWEEN": "goes on or uses a bonus",
    "JUMPER": "picks the sheep that jumps",
    "YELLOW_TAKES_TWO": "takes 2 companions or not",
    "COMPANION": "picks a companion sheep",
    "BUMP": "picks the sheep to bump",
    "BLUE_MODIFIER": "shortens a blue run or not",
    "SCORE": "scores a group or stops",
}

# The boxes of the line saying who decides what, and of the pieces it must not meet.
CLASHES = """() => {
  const line = document.querySelector('#board text.deciding').getBoundingClientRect();
  return [...document.querySelectorAll('#board g.area circle, #board g.fence rect')]
    .map((piece) => piece.getBoundingClientRect())
    .filter((r) => r.left < line.right && line.left < r.right
      && r.top < line.bottom && line.top < r.bottom).length;
}"""


@laptop_and_phone
def test_a_stubborn_sheep_decision_is_said_in_words(
    showcase: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    page = context.new_page()
    try:
        match_id = showcase.finished["stubborn-sheep"]
        page.goto(f"{showcase.url}/match/{match_id}")
        page.wait_for_function("() => window.sheepfold.frames.length > 1")
        phases = page.evaluate(STUBBORN_PHASES)
        assert {"ORIENT", "PLACE", "JUMPER", "OVER"} <= set(phases), phases
        for phase, move in phases.items():
            page.goto(f"{showcase.url}/match/{match_id}#move={move}")
            page.wait_for_function("() => window.sheepfold.frames.length > 1")
            assert drawn_move(page) == move
            frame = page.evaluate("() => window.sheepfold.frames[window.sheepfold.index]")
            obs = frame["observation"]
            said = page.text_content("#board text.deciding") or ""
            if phase == "OVER":
                assert said == "game over", said
            else:
                seat = obs.get("to_move", obs.get("current", 0))
                assert said == f"seat {seat}: {DECIDES[phase]}", (phase, said)
            assert page.evaluate(CLASHES) == 0, f"{phase}: {said!r} runs into the board"
        save_screenshot(page, f"stubborn-decides-{viewport['width']}")
    finally:
        context.close()
