"""A match page's `#move=` link in headless Chromium: one that names no move
says so, and cannot write a sentence of its own on the page."""

from __future__ import annotations

from typing import Any

import pytest

from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


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
