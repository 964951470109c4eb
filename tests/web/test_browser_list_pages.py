"""The matches list past its newest 200, in headless Chromium: "older" leads
page by page through every match the server holds, "newer" back, and the first
page stays live."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.stored_matches import GAMES
from tests.web.conftest import laptop_and_phone, save_screenshot
from tests.web.many_matches import STORED, every_match, many_matches
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


@pytest.fixture
def viewer(tmp_path: Path) -> Iterator[Showcase]:
    with many_matches(tmp_path) as show:
        yield show


def _shown(page: Any) -> list[str]:
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        "tbody tr[data-match-id]", "rows => rows.map(r => r.dataset.matchId)"
    )


def _open_older(page: Any, link: str) -> None:
    with page.expect_navigation():
        page.click(link)
    page.wait_for_selector("body[data-page='older'][data-stream='loaded']")


def _screenshot_of_the_pager(page: Any, name: str) -> None:
    page.locator("#pager").scroll_into_view_if_needed()
    save_screenshot(page, name)


def test_older_and_newer_lead_throughevery_match(viewer: Showcase, page: Any) -> None:
    page.goto(viewer.url + "/")
    page.wait_for_selector(f'#finished tr[data-match-id="{every_match(viewer)[0]}"]')
    assert page.is_visible("#capped") and "older ones are on the next pages" in page.inner_text(
        "#capped"
    )
    assert page.is_visible("#older") and not page.is_visible("#newer")
    # The first page is still kept current: a match played now comes up on it.
    played = viewer.play_finished("sheep-and-garden", 2, 5)
    page.wait_for_selector(f'#finished tr[data-match-id="{played}"]', timeout=15_000)
    every = every_match(viewer)
    assert every[0] == played and len(every) == STORED + 1
    assert _shown(page) == every[:200]
    _screenshot_of_the_pager(page, "list-pages-first")

    _open_older(page, "#older")
    assert _shown(page) == every[200:400]
    assert page.inner_text("#page-number") == "page 2"
    assert page.is_visible("#older") and page.inner_text("#newer") == "← newer"
    assert "page 2 of every match" in page.inner_text("#list-status")
    assert "no live match on this page" in page.inner_text("#live")
    save_screenshot(page, "list-pages-second")
    _screenshot_of_the_pager(page, "list-pages-second-bottom")

    _open_older(page, "#older")
    assert _shown(page) == every[400:]
    assert page.inner_text("#page-number") == "page 3"
    assert not page.is_visible("#older"), "the last page leads to no older one"
    _screenshot_of_the_pager(page, "list-pages-last")

    _open_older(page, "#newer")
    assert _shown(page) == every[200:400]
    with page.expect_navigation():
        page.click("#newer")
    page.wait_for_selector("body[data-stream='open']")
    assert page.get_attribute("body", "data-page") is None
    assert _shown(page) == every[:200]


def test_a_game_filter_pages_through_its_own_matches(viewer: Showcase, page: Any) -> None:
    page.goto(viewer.url + "/?game=" + GAMES[1])
    mine = every_match(viewer, GAMES[1])
    assert len(mine) == STORED // 2
    page.wait_for_selector(f'#finished tr[data-match-id="{mine[0]}"]')
    _open_older(page, "#older")
    assert _shown(page) == mine[200:]
    # Another filter on an older page starts again from its first page.
    with page.expect_navigation():
        page.select_option("#game-filter", GAMES[0])
    page.wait_for_selector("body[data-stream='open']")
    assert page.url.endswith(f"/?game={GAMES[0]}")
    assert _shown(page) == every_match(viewer, GAMES[0])[:200]


def test_a_page_address_that_is_no_page_says_so(viewer: Showcase, page: Any) -> None:
    page.goto(viewer.url + "/?page=not-a-token")
    page.wait_for_selector("body[data-stream='failed']")
    assert "holds no page of the matches list" in page.inner_text("#list-status")
    assert page.inner_text("#newer") == "← newest"
    assert page.locator("tbody tr[data-match-id]").count() == 0
    save_screenshot(page, "list-pages-bad-token")


@laptop_and_phone
def test_a_list_shorter_than_a_page_shows_no_pager(
    showcase: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    """The pager's own `display: flex` outdid its `hidden` attribute: a list of
    a dozen matches ended with "page 1  older →", and the link did nothing."""
    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    try:
        page = context.new_page()
        page.goto(showcase.url + "/")
        page.wait_for_selector("body[data-stream='open'] #finished tr[data-match-id]")
        assert page.evaluate("() => document.getElementById('pager').hidden")
        assert not page.is_visible("#pager"), "a list of one page shows a pager"
        assert not page.is_visible("#older") and not page.is_visible("#page-number")
        save_screenshot(page, f"list-one-page-{'phone' if mobile else 'laptop'}")
    finally:
        context.close()
