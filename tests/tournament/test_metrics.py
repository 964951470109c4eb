"""The tournament runner's Prometheus metrics, scraped over HTTP from a real run."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tournament.config import load_config
from tournament.metrics import TournamentMetrics
from tournament.progress import SilentProgress
from tournament.runner import run_tournament
from tournament.store import Store

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent


def scrape(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.name.endswith("_created")
    }


class ScrapingProgress(SilentProgress):
    """Scrapes the endpoint whenever a game starts, to see games in flight."""

    def __init__(self) -> None:
        self.port = 0
        self.in_flight_seen: list[float] = []

    def game_started(self, key: str) -> None:
        self.in_flight_seen.append(scrape(self.port)["sheepfold_tournament_games_in_flight"])


def test_games_done_in_flight_and_crashes_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(
        f'game = "sheep-showdown"\nplayers = 2\npython_path = ["{HERE}"]\n'
        # Two deals: no bot plays two games of one deal at once, so one deal alone
        # (every pair here shares a bot) would be played one game at a time.
        "games_per_pairing = 2\nconcurrency = 2\nbootstrap = 20\n[options]\nrounds = 1\n"
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
        '[[bots]]\nname = "other"\nbuiltin = "random"\n'
        '[[bots]]\nname = "crasher"\nclass = "tournament_test_bots:CrashingBot"\n'
    )
    config = load_config(path)
    inner = ScrapingProgress()
    metrics = TournamentMetrics(inner)
    inner.port = metrics.serve("127.0.0.1", 0)
    try:
        summary = run_tournament(config, database=str(tmp_path / "t.sqlite"), progress=metrics)
        after = scrape(inner.port)
    finally:
        metrics.close()
    with Store(tmp_path / "t.sqlite") as store:
        stored = store.games(store.tournament().id)
    crashes = sum(1 for game in stored for seat in game.seats if seat.failure == "crash")
    assert crashes == 8, "the crasher crashed in each of its games"
    assert summary.played == summary.scheduled == 12
    assert after["sheepfold_tournament_games_scheduled"] == 12
    assert after["sheepfold_tournament_games_done_total"] == 12
    assert after["sheepfold_tournament_games_stored"] == 12
    assert after["sheepfold_tournament_games_in_flight"] == 0
    assert after["sheepfold_tournament_game_errors_total"] == 0
    assert after["sheepfold_tournament_bot_crashes_total"] == crashes
    assert len(inner.in_flight_seen) == 12
    assert all(1 <= seen <= config.concurrency for seen in inner.in_flight_seen)
    assert max(inner.in_flight_seen) == 2, "two games at once with concurrency 2"
