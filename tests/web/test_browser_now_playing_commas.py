"""A running tournament's "Now playing" on the narrowest phones, in headless
Chromium: a game's seats, long bot names cut with "...", read as a list,
each comma on the line of the name before it and in sight."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tournament.store_records import InPlay
from web.now_playing import now_playing_html
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

BOTS = (
    "slow-bot-with-an-extraordinarily-long-name-for-the-viewer-to-wrap",
    "SlowBotWithAnEvenLongerNameThatHasNoSpacesOrHyphensAnywhereInIt",
    "random",
)
KEY = "1:" + "|".join(BOTS)

# The section as the viewer sends it, put where the tournament page puts it
# (above the report); then, for each seat's name but the last, the comma
# after it: how far its top lies below the name's, and the name's height.
COMMAS = """(section) => {
  document.querySelector('#report').insertAdjacentHTML('beforebegin', section);
  const cell = document.querySelector('#now-playing tr[data-match-id]').lastElementChild;
  const names = [...cell.querySelectorAll('.name')];
  return names.slice(0, -1).map((name) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let text = null;
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (!name.contains(node) && (name.compareDocumentPosition(node)
          & Node.DOCUMENT_POSITION_FOLLOWING) && node.data.includes(',')) { text = node; break; }
    }
    const range = document.createRange();
    const at = text.data.indexOf(',');
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    const comma = range.getBoundingClientRect(), box = name.getBoundingClientRect();
    return { name: name.title, below: comma.top - box.top, height: box.height,
      past: comma.right - document.documentElement.clientWidth,
      scrolls: cell.closest('table').scrollWidth - cell.closest('table').clientWidth };
  });
}"""


@pytest.mark.parametrize("width", [320, 360])
def test_each_comma_stays_with_its_name_on_a_phone(
    showcase: Showcase, browser: Any, width: int
) -> None:
    """The names, cut to 45% of the screen, left no room for the ", " after
    them: on a 320 px phone each comma opened a line of its own
    ("slow-bot-with-an-e…", ",", "SlowBotWithAnEv…", ", random")."""
    playing = [InPlay(KEY, "00000000000000b7", BOTS, "", 0.0)]
    section = now_playing_html(playing, {"00000000000000b7": "here"})
    context = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{showcase.url}/tournaments/0/showcase")
        page.wait_for_selector("#report table.standings")
        commas = page.evaluate(COMMAS, section)
        save_screenshot(page, f"now-playing-commas-{width}")
    finally:
        context.close()
    assert len(commas) == len(BOTS) - 1, commas
    apart = [comma for comma in commas if comma["below"] >= comma["height"] / 2]
    assert not apart, f"a comma on a line below its name: {apart}"
    hidden = [comma for comma in commas if comma["past"] > 0 or comma["scrolls"] > 0]
    assert not hidden, f"a comma past the window's edge, in a table scrolled sideways: {hidden}"
