"""A tournament game a bot failed in, in headless Chromium: its page says how
the seat failed and how the tournament ranks it, as the report does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.web.conftest import drawn_move, save_screenshot
from tournament.config import parse_config
from tournament.runner import run_tournament_async
from tournament.store import Store
from tournament.store_records import GameRecord
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

TEST_BOTS = Path(__file__).resolve().parents[1] / "tournament"
BADGES = """() => [...document.querySelectorAll('#scores tbody tr')]
  .map((row) => row.querySelector('[data-failure]')?.textContent ?? '')"""
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Showcase, GameRecord]]:
    """A tournament of three seats where one bot crashes at its first decision."""
    database = tmp_path_factory.mktemp("crash") / "crash.db"
    server = InProcessServer(ServerConfig())
    server.start()
    viewer = Showcase(server, tournament_dbs=(database,))
    try:
        config = parse_config(
            {
                "name": "crash",
                "game": "sheep-showdown",
                "players": 3,
                "games_per_pairing": 1,
                "seed": 3,
                "concurrency": 2,
                "decision_seconds": 0.2,
                "max_strikes": 1,
                "python_path": [str(TEST_BOTS)],
                "options": {"rounds": 1},
                "bots": [
                    {"name": "buggy", "class": "tournament_test_bots:CrashingBot"},
                    {"name": "greedy", "builtin": "greedy"},
                    {"name": "random", "builtin": "random"},
                ],
            }
        )
        server.run(run_tournament_async(config, server.address, str(database)), 300)
        with Store(database) as store:
            games = store.games(store.tournament("crash").id)
        # A game whose ranks the crash changed, the crashed seat not first.
        game = next(g for g in games if g.ranks != tuple(s.server_rank for s in g.seats))
        viewer.web = server.run(start_web(WebConfig(server.address, (database,)), "127.0.0.1", 0))
        yield viewer, game
    finally:
        viewer.stop()


def test_a_failed_seat_says_how_and_the_tournaments_ranks(
    crashed: tuple[Showcase, GameRecord], page: Any
) -> None:
    """The report listed "buggy 5 (crash)" and ranked it last; the game's page
    showed the game server's ranks alone, the crashed bot's score and rank as
    if it had played its game out."""
    viewer, game = crashed
    page.goto(f"{viewer.url}/tournaments/0/crash/match/{game.match_id}")
    page.wait_for_selector("#scores td.rank")
    drawn_move(page)
    save_screenshot(page, "tournament-game-failed-seat")
    words = {"crash": "crashed", "disqualified": "", None: ""}
    assert page.evaluate(BADGES) == [words[seat.failure] for seat in game.seats]
    moved = [
        f"seat {seat} ({held.bot}) {ORDINAL[held.rank]}"
        for seat, held in enumerate(game.seats)
        if held.rank != held.server_rank
    ]
    listed = moved[0] if len(moved) == 1 else ", ".join(moved[:-1]) + " and " + moved[-1]
    assert page.inner_text("#final [data-tournament-ranks]") == (
        f"The tournament ranks a seat that failed last: it counts {listed}."
    )
