"""The top bar (the Sheepfold brand, then the matches and tournaments links)
as Chromium lays it out on a 320 px phone, a 360 px phone and a laptop."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# The bar's box, its inner right edge (its padding off), and each part's box.
TOP_BAR = """() => {
  const bar = document.querySelector('header.top');
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  };
  return {
    width: document.documentElement.clientWidth,
    scrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    inner: bar.getBoundingClientRect().right - parseFloat(getComputedStyle(bar).paddingRight),
    brand: box(bar.querySelector('.brand')),
    links: [...bar.querySelectorAll('nav a')].map(box),
  };
}"""


@pytest.mark.parametrize(
    ("width", "mobile"), [(320, True), (360, True), (1280, False)], ids=["320", "360", "laptop"]
)
def test_the_top_bars_links_keep_their_room_from_the_screens_edge(
    showcase: Showcase, browser: Any, width: int, mobile: bool
) -> None:
    """At 320 px the "tournaments" link ended 3 px from the screen's edge,
    over the bar's 12 px of padding: the bar's parts were wider than its
    room. They fit inside its padding at 320 px, on one line beside the
    brand, as at 360 px and on a laptop."""
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=mobile)
    try:
        page = context.new_page()
        page.goto(showcase.url)
        page.wait_for_selector("#finished tr[data-match-id]")
        seen = page.evaluate(TOP_BAR)
        save_screenshot(page, f"top-bar-{width}")
    finally:
        context.close()
    assert seen["width"] == width
    assert not seen["scrolls"], "the page scrolls sideways"
    last = seen["links"][-1]
    assert last["right"] <= seen["inner"] + 0.5, (
        f"the last link ends at {last['right']:.1f} px, past the bar's padding "
        f"({seen['inner']:.1f} px) on a {width} px screen"
    )
    brand = seen["brand"]
    for link in seen["links"]:
        assert link["left"] >= brand["right"], "a link over the brand"
        assert brand["top"] <= link["top"] and link["bottom"] <= brand["bottom"], (
            "the links are not on the brand's line"
        )
