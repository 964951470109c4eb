"""The matches list once it holds more matches than it shows, in headless
Chromium: a match still playing is listed as live however many newer matches
there are, and the page says the list is cut."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from web.app import STATE
from web.showcase import start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_live_match_older_than_the_newest_listed_is_still_live(page: Any) -> None:
    """The list showed the newest matches only, live or not: a long match
    started before them (slow bots beside a busy tournament) was in neither
    part of the page, and "Live" said "no live match" while it played."""
    viewer = start_showcase(games=(), live=("sheep-showdown",), live_delay=3.0)
    try:
        assert viewer.web is not None
        viewer.web.runner.app[STATE].matches.limit = 3  # 200 in use: the same cut, sooner
        live = viewer.live["sheep-showdown"]
        newer = [
            viewer.server.run(
                play_match(
                    viewer.server.address,
                    "sheep-and-garden",
                    [RandomBot(s), RandomBot(s + 1)],
                    seed=s,
                )
            ).match_id
            for s in range(40, 44)
        ]
        page.goto(viewer.url + "/")
        page.wait_for_selector(f'#finished tr[data-match-id="{newer[-1]}"]')
        assert page.locator(f'#live tr[data-match-id="{live}"]').count() == 1, (
            "the live match is not listed"
        )
        assert page.locator("#live tr[data-match-id]").count() == 1
        shown = page.eval_on_selector_all(
            "#finished tr[data-match-id]", "rows => rows.map(r => r.dataset.matchId)"
        )
        assert shown == newer[::-1][:3]  # newest first, as many as the cut allows
        assert page.is_visible("#capped")
        assert "newest 3 matches and every live one" in page.inner_text("#capped")
        save_screenshot(page, "list-capped-with-an-older-live-match")
    finally:
        viewer.stop()
