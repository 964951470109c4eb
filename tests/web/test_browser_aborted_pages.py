"""An aborted match in headless Chromium: its page, opened after the abort or
watching as it happens, and the matches list say it ended without a result,
and why."""

from __future__ import annotations

from typing import Any

import pytest

import games
from clients.matchplay import create_match
from server.app import ServerConfig
from tests.web.conftest import ABORTED_REASON, AbortedMatches, save_screenshot
from web.showcase import start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _aborted_page_basics(page: Any) -> str:
    """What every aborted match's page shows: the notice, the badge, no
    following; returns the notice."""
    page.wait_for_selector("#notice:not([hidden])")
    page.wait_for_selector('#status[data-status="aborted"]')
    assert page.inner_text("#status") == "aborted"
    assert page.is_hidden("#follow-wrap") and page.is_visible("#view-wrap")
    text = page.inner_text("#notice")
    assert text.startswith("The match ended without a result (aborted): not restored: "), text
    assert "not over" not in text and "follow it live" not in text
    return text


def test_an_aborted_match_page_says_it_was_aborted_and_why(
    aborted_matches: AbortedMatches, page: Any
) -> None:
    url = aborted_matches.viewer.url
    # Recorded under other rules: the reason, and why its moves are not shown.
    page.goto(f"{url}/match/{aborted_matches.rules_changed}")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('cannot be shown')"
    )
    text = _aborted_page_basics(page)
    playing = games.get("sheep-n-sheep").rules_version
    assert f"sheep-n-sheep rules version {playing + 7}" in text  # as the fixture stored it
    assert f"this viewer plays version {playing}" in text
    assert page.inner_text("#move-label") == "no moves to show"
    save_screenshot(page, "aborted-other-rules")

    # Replayable: its moves, up to where it stopped, in every view.
    page.goto(f"{url}/match/{aborted_matches.stopped}")
    page.wait_for_selector("#board[data-move]")
    last = page.evaluate("() => window.sheepfold.frames.length") - 1
    assert last >= aborted_matches.moves
    page.keyboard.press("End")
    page.wait_for_selector(f'#board[data-move="{last}"]')
    assert _aborted_page_basics(page).endswith(f"{ABORTED_REASON}.")
    assert page.inner_text("#turn").startswith("Aborted here: no result")
    assert page.eval_on_selector_all("td.final", "cells => cells.length") == 0
    # Nobody is to move where it stopped: no row is marked as the one deciding,
    # though the last frame names the seat that was (the row once stayed marked).
    assert page.eval_on_selector_all("#scores tr.to-move", "rows => rows.length") == 0
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'#board[data-move="{last - 1}"]')
    assert page.eval_on_selector_all("#scores tr.to-move", "rows => rows.length") == 1
    page.select_option("#view", "all")
    page.wait_for_selector('#board[data-view="all"]')
    page.keyboard.press("Home")
    page.wait_for_selector('#board[data-move="0"]')
    assert page.inner_text("#notice") == _aborted_page_basics(page)
    save_screenshot(page, "aborted-replay")


def test_a_match_aborted_while_watched_says_it_was_aborted(browser: Any) -> None:
    """A match nobody joins is aborted after the start timeout, and its Watch
    stream ends with a result that has an end reason and no scores. A page
    watching it took any result for a finished match: badge "finished",
    "undefined" for every final score, and not a word of why."""
    show = start_showcase(games=(), config=ServerConfig(start_timeout=3.0))
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    try:
        created = show.server.run(create_match(show.server.address, "sheep-n-sheep", 2, seed=5))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{show.url}/match/{created.match_id}")
        page.wait_for_selector('#status[data-status="waiting"]')
        page.wait_for_selector('#status:not([data-status="waiting"])', timeout=20_000)
        page.wait_for_function("() => !window.sheepfold.live")
        assert page.inner_text("#status") == "aborted", page.inner_text("body")
        page.wait_for_selector("#notice:not([hidden])")
        assert page.inner_text("#notice") == (
            "The match ended without a result (aborted): no seat joined within the start timeout."
        )
        assert page.eval_on_selector_all("td.final", "cells => cells.length") == 0
        assert "undefined" not in page.inner_text("#scores")
        assert page.inner_text("#turn").startswith("Aborted here: no result")
        assert not errors, errors
        save_screenshot(page, "aborted-while-watched")
    finally:
        context.close()
        show.stop()


def test_the_matches_list_says_an_aborted_match_has_no_result(
    aborted_matches: AbortedMatches, page: Any
) -> None:
    """An aborted match is over with no scores: its row's result was blank
    beside the badge, where every other row says how its match stands."""
    page.goto(aborted_matches.viewer.url + "/")
    for match_id in (aborted_matches.rules_changed, aborted_matches.stopped):
        row = f'#finished tr[data-match-id="{match_id}"]'
        page.wait_for_selector(row)
        assert page.inner_text(f"{row} td.status") == "aborted"
        assert page.inner_text(f"{row} td.result") == "no result"
    finished = f'#finished tr[data-match-id="{aborted_matches.finished_under_other_rules}"]'
    assert page.locator(f"{finished} td.result .score").count() == 2
    save_screenshot(page, "list-aborted-no-result")
