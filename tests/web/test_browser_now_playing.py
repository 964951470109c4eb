"""A running tournament's page in headless Chromium lists the games being
played now, each with a link to its live page on the viewer's game server,
and drops a game once it is stored. Before, the page listed finished games
alone: a spectator could not find the games in play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.held_tournament import held_tournament

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_the_page_links_the_game_in_play_and_drops_it_once_stored(
    tmp_path: Path, page: Any
) -> None:
    with held_tournament(tmp_path, "now") as held:
        viewer, match_id = held.viewer, held.match_id
        page.goto(f"{viewer.url}/tournaments/0/now")
        link = page.wait_for_selector("#now-playing a.live-link")
        assert link.get_attribute("href") == f"/match/{match_id}"
        row = page.text_content(f'#now-playing tr[data-match-id="{match_id}"]') or ""
        assert "gate" in row and "random" in row
        assert page.locator("#report table.games tr[data-match-id]").count() == 0

        live = page.context.new_page()
        answer = live.goto(f"{viewer.url}/match/{match_id}")
        assert answer is not None and answer.status == 200
        assert (
            live.evaluate("() => JSON.parse(document.getElementById('boot').textContent)")[
                "match_id"
            ]
            == match_id
        )
        live.close()

        held.release()
        # The page's next poll drops the game from "Now playing", listed as finished.
        page.wait_for_selector(
            f'#report table.games tr[data-match-id="{match_id}"]', state="attached", timeout=30_000
        )
        assert page.locator("#now-playing").count() == 0
