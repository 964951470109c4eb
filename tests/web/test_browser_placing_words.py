"""What a Sheep 'n' Sheep board says of a placement under way, in headless
Chromium at 1280 and 360 px: what the seat to move places, in the rules'
words. It said "placing: same (0 placed)", the phase's enum name
lower-cased, which told a spectator nothing."""

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
