"""A running tournament's page in headless Chromium lists the games being
played now, each with a link to its live page on the viewer's game server,
and drops a game once it is stored. Before, the page listed finished games
alone: a spectator could not find the games in play."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.tournament.test_run_claims import GATE_BOT
from tournament.config import parse_config
from tournament.runner import run_tournament_async
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _waited(condition: Any, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_the_page_links_the_game_in_play_and_drops_it_once_stored(
    tmp_path: Path, page: Any
) -> None:
    (tmp_path / "now_gate.py").write_text(GATE_BOT)
    (tmp_path / "hold").touch()
    database = tmp_path / "now.db"
    server = InProcessServer(ServerConfig())
    server.start()
    viewer = Showcase(server, tournament_dbs=(database,))
    config = parse_config(
        {
            "name": "now",
            "game": "sheep-showdown",
            "players": 2,
            "games_per_pairing": 1,
            "concurrency": 1,
            "decision_seconds": 60,
            "python_path": [str(tmp_path)],
            "options": {"rounds": 1},
            "bots": [
                {"name": "gate", "class": "now_gate:Bot"},
                {"name": "random", "builtin": "random"},
            ],
        }
    )
    try:
        viewer.web = server.run(start_web(WebConfig(server.address, (database,)), "127.0.0.1", 0))
        run = server.submit(run_tournament_async(config, server.address, str(database)))
        _waited(lambda: (tmp_path / "asked").exists() or run.done(), "no game was played")
        assert not run.done(), run.exception()
        with closing(sqlite3.connect(database)) as raw:
            ((match_id,),) = raw.execute("SELECT match_id FROM games_in_play").fetchall()

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

        (tmp_path / "hold").unlink()
        run.result(120)
        # The page's next poll drops the game from "Now playing", listed as finished.
        page.wait_for_selector(
            f'#report table.games tr[data-match-id="{match_id}"]', state="attached", timeout=30_000
        )
        assert page.locator("#now-playing").count() == 0
    finally:
        (tmp_path / "hold").unlink(missing_ok=True)
        viewer.stop()
