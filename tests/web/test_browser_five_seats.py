"""Stubborn Sheep with five seats, the most it takes: ten areas round the ring
leave the least room between them for the fences and in them for the sheep.
Measured at every move of a match, as Chromium draws it on a 360x640 phone
and a 1280x800 laptop, in CSS pixels."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from tests.web.test_browser import wait_for_move
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

SMALL_PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("viewport", [SMALL_PHONE, LAPTOP], ids=["phone", "laptop"])
ARROW_PX = 9  # web/static/games/stubborn-sheep.js
# The least a sheep is drawn across in an area of up to eleven (this match's
# most) on a 360 px phone, where it was 5.6 px.
CROWDED_SHEEP_PX = 9

# Steps the page through every move it holds (as its slider does) and measures
# each: the fences' arrows along their own axes (a fence is rotated, so a
# screen box would be the rotated box's), every sheep and area label that is
# not wholly inside its area's circle, within the circle's line, and every
# fence's height (its "x3" label) whose box reaches into an area's circle.
EVERY_MOVE = """async () => {
  const m = window.sheepfold, slider = document.getElementById('slider');
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const scale = (el) => { const t = el.getScreenCTM(); return Math.hypot(t.a, t.b); };
  const arrows = [], out = [], over = [], flocks = [];
  for (let i = 0; i < m.frames.length; i++) {
    slider.value = String(i);
    slider.dispatchEvent(new Event('input'));
    await frame();
    const move = m.frames[i].move;
    for (const arrow of document.querySelectorAll('#board .jump-arrow')) {
      const b = arrow.getBBox(), k = scale(arrow);
      arrows.push({ move, length: b.width * k, height: b.height * k });
    }
    for (const area of document.querySelectorAll('#board g.area')) {
      const ring = area.querySelector(':scope > circle'), c = ring.getBoundingClientRect();
      const cx = c.left + c.width / 2, cy = c.top + c.height / 2;
      const inner = c.width / 2 - (+ring.getAttribute('stroke-width') / 2) * scale(ring);
      const flock = [...area.querySelectorAll('circle.sheep')];
      if (flock.length) {
        const across = Math.min(...flock.map((s) => s.getBoundingClientRect().width));
        flocks.push({ move, area: area.dataset.area, sheep: flock.length, across });
      }
      for (const sheep of area.querySelectorAll('circle.sheep')) {
        const s = sheep.getBoundingClientRect();
        const reach = Math.hypot(s.left + s.width / 2 - cx, s.top + s.height / 2 - cy)
          + s.width / 2 + (+sheep.getAttribute('stroke-width') / 2) * scale(sheep);
        const by = reach - inner;
        if (by > 0.01) out.push({ move, area: area.dataset.area, what: 'sheep', by });
      }
      for (const label of area.querySelectorAll('.area-kind, .area-label')) {
        const r = label.getBoundingClientRect();
        const corners = [[r.left, r.top], [r.right, r.top], [r.left, r.bottom],
          [r.right, r.bottom]];
        const by = Math.max(...corners.map(([x, y]) => Math.hypot(x - cx, y - cy))) - inner;
        if (by > 0.01) out.push({ move, area: area.dataset.area, what: label.textContent, by });
      }
      for (const height of document.querySelectorAll('#board .fence-height')) {
        const r = height.getBoundingClientRect();
        const dx = Math.max(r.left - cx, 0, cx - r.right);
        const dy = Math.max(r.top - cy, 0, cy - r.bottom);
        if (Math.hypot(dx, dy) < c.width / 2) {
          over.push({ move, fence: height.dataset.fence, area: area.dataset.area });
        }
      }
    }
  }
  return { arrows, out, over, flocks, moves: m.frames.length };
}"""


@pytest.fixture(scope="module")
def five_seats(showcase: Showcase) -> Iterator[str]:
    # Not showcase.play_finished, which would make it the game's match for the
    # tests after this one.
    bots = [RandomBot(250 + seat) for seat in range(5)]
    outcome = showcase.server.run(
        play_match(showcase.server.address, "stubborn-sheep", bots, seed=25)
    )
    yield outcome.match_id


# What every_move saw, per viewport: both tests read one walk through the match.
SEEN: dict[str, dict[str, Any]] = {}


def every_move(browser: Any, url: str, viewport: dict[str, int]) -> dict[str, Any]:
    size = f"{viewport['width']}x{viewport['height']}"
    if f"{url} {size}" in SEEN:
        return SEEN[f"{url} {size}"]
    context = browser.new_context(viewport=viewport, is_mobile=viewport is SMALL_PHONE)
    try:
        page = context.new_page()
        page.goto(f"{url}#move=0")
        wait_for_move(page, 0)
        seen = page.evaluate(EVERY_MOVE)
        move = seen["moves"] // 2
        page.goto(f"{url}#move={move}")
        page.reload()
        wait_for_move(page, move)
        save_screenshot(page, f"stubborn-sheep-5-seats-{size}")
    finally:
        context.close()
    SEEN[f"{url} {size}"] = seen
    return seen


@VIEWPORTS
def test_five_seats_fence_arrows_are_legible(
    showcase: Showcase, browser: Any, five_seats: str, viewport: dict[str, int]
) -> None:
    """A 360x640 phone drew five seats' fence arrows 6 px long and 9 high: the
    fences, as wide as the room between two areas, were 30 units wide, and
    the board was drawn to the window's height under the controls, a third
    of its size."""
    seen = every_move(browser, f"{showcase.url}/match/{five_seats}", viewport)
    assert seen["arrows"], "no fence arrow at any move"
    short = [a for a in seen["arrows"] if min(a["length"], a["height"]) < ARROW_PX]
    assert not short, f"{len(short)} arrows under {ARROW_PX} px, as {short[:3]}"


@VIEWPORTS
def test_five_seats_sheep_and_labels_stay_inside_their_areas(
    showcase: Showcase, browser: Any, five_seats: str, viewport: dict[str, int]
) -> None:
    """At 360x640 a four-sheep area's fourth sheep, starting a second row at
    its left, reached over its circle (a grid's short last row was checked
    for one sheep's room, not a row's), a crowded area's rows ran out of it
    once the sheep were as small as they were let be, and "meadow", wider
    than its circle near its top, ran onto the fences beside it."""
    seen = every_move(browser, f"{showcase.url}/match/{five_seats}", viewport)
    assert not seen["out"], f"{len(seen['out'])} outside their area, as {seen['out'][:4]}"


@VIEWPORTS
def test_five_seats_fence_heights_stay_off_the_areas(
    showcase: Showcase, browser: Any, five_seats: str, viewport: dict[str, int]
) -> None:
    """A fence's height (its "x2" label) stood beside its outer end, clockwise: on a
    360x640 phone, where the fences are drawn long, it lay over the sheep
    and the "meadow" of the area there."""
    seen = every_move(browser, f"{showcase.url}/match/{five_seats}", viewport)
    assert not seen["over"], f"{len(seen['over'])} over an area, as {seen['over'][:4]}"


def test_five_seats_crowded_areas_draw_countable_sheep_on_a_small_phone(
    showcase: Showcase, browser: Any, five_seats: str
) -> None:
    """At 360x640 an area's two label lines ("meadow" over "area 9", at the
    least type size) took the top half of its 59 px circle, and a crowded
    area's sheep were drawn 5.6 to 8 px across: ten sheep of four colours
    no one could count. The area keeps its number alone there, and a crowded
    area's rows are as wide as its circle holds before its sheep shrink."""
    seen = every_move(browser, f"{showcase.url}/match/{five_seats}", SMALL_PHONE)
    crowded = [f for f in seen["flocks"] if f["sheep"] >= 8]
    assert crowded, "no area held eight sheep or more at any move"
    small = [f for f in seen["flocks"] if f["across"] < CROWDED_SHEEP_PX]
    assert not small, f"{len(small)} areas' sheep under {CROWDED_SHEEP_PX} px, as {small[:3]}"
