"""Live progress shows the figure the report ranks by: solo that is the mean
score, not an Elo that solo games never move."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from tournament.config import load_config
from tournament.progress import LogProgress, SilentProgress, TerminalProgress
from tournament.report import report, report_data
from tournament.runner import run_tournament
from tournament.store import GameRecord, SeatRecord, TournamentRecord

HERE = Path(__file__).resolve().parent


def _solo(bot: str, seed: int, score: float, failure: str | None = None) -> GameRecord:
    seat = SeatRecord(bot, score, 1, 1, 0, False, failure)
    return GameRecord(f"{seed}:{bot}", "m", seed, 0, 0, (seat,), "done", "{}", 1.0, 0.0)


class Figures(SilentProgress):
    """A progress sink that keeps the figures given with the last game."""

    def __init__(self) -> None:
        self.last: Mapping[str, float] = {}

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        self.last = dict(elo)

    def game_error(self, key: str, error: str) -> None:
        raise AssertionError(f"{key}: {error}")


@pytest.mark.e2e
def test_a_solo_run_shows_the_reports_mean_scores_live(tmp_path: Path) -> None:
    """Every figure stayed 0.0 ("Elo random +0  greedy +0") through a solo run."""
    path = tmp_path / "solo.toml"
    path.write_text(
        f'game = "sheep-and-garden"\nplayers = 1\ngames_per_pairing = 2\npython_path = ["{HERE}"]\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
        '[[bots]]\nname = "greedy"\nbuiltin = "greedy"\n'
        '[[bots]]\nname = "crasher"\nclass = "tournament_test_bots:CrashingBot"\n'
    )
    figures = Figures()
    db = tmp_path / "solo.sqlite"
    run_tournament(load_config(path), database=str(db), progress=figures)
    rows = json.loads(report(db, "json"))["standings"]
    assert figures.last == {row["bot"]: pytest.approx(row["mean_score"], abs=0.005) for row in rows}
    assert len({round(value, 6) for value in figures.last.values()}) > 1


def test_live_solo_means_count_a_failed_game_as_the_report_does() -> None:
    """A failed game counts its deal's lowest score, which a later game of the
    deal can lower: the live means still end where the report's are."""
    from tournament.live import LiveSoloScores

    games = [
        _solo("a", 1, 30.0, "crash"),  # counts 30 for now, then 20, then 12
        _solo("c", 1, 20.0),
        _solo("b", 1, 12.0),
        _solo("b", 2, 8.0),
        _solo("a", 2, 3.0, "crash"),
        _solo("gone", 2, -50.0),  # not in the field: left out, as the report leaves it
    ]
    live = LiveSoloScores(["a", "b", "c"])
    assert live.update(games[0]) == {"a": 30.0}
    for game in games[1:]:
        figures = live.update(game)
    config = {"bots": [{"name": bot} for bot in "abc"]}
    record = TournamentRecord(1, "solo", "stubborn-sheep", 1, {}, None, 6, config, 0.0, 0.0)
    means = {row["bot"]: row["mean_score"] for row in report_data(record, games)["standings"]}
    assert figures == pytest.approx(means) == {"a": 7.5, "b": 10.0, "c": 20.0}


def test_the_live_line_and_the_log_name_a_solo_figure_mean_score() -> None:
    game = _solo("greedy", 1, 12.5)
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress.start("solo", 2, 0)
    progress.game_done(game, {"greedy": 12.5, "random": -3.25})
    assert "mean score greedy 12.50  random -3.25" in stream.getvalue()
    assert "Elo" not in stream.getvalue()
    with capture_logs() as logs:
        log = LogProgress()
        log.start("solo", 2, 0)
        log.game_done(game, {"greedy": 12.5, "random": -3.25})
    (finished,) = [entry for entry in logs if entry["event"] == "game finished"]
    assert finished["mean_score"] == {"greedy": 12.5, "random": -3.25}
    assert "elo" not in finished


def _pair(seed: int, winner: str, loser: str) -> GameRecord:
    seats = (
        SeatRecord(winner, 30.0, 1, 1, 0, False, None),
        SeatRecord(loser, 6.0, 2, 2, 0, False, None),
    )
    return GameRecord(f"{seed}:{winner}|{loser}", "m", seed, 0, 0, seats, "done", "{}", 1.0, 0.0)


def test_the_last_live_elo_is_the_one_the_table_prints() -> None:
    """b won all four: its Elo is 223.496. The live line showed +223 and the
    table +224 (the table rounded the 223.5 its data keeps a second time)."""
    from tournament.live import LiveGameElo
    from tournament.report import render

    games = [_pair(seed, "b", "a") for seed in (1, 1, 2, 2)]
    live = LiveGameElo(["a", "b"])
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress.start("pair", 4, 0)
    for game in games:
        progress.game_done(game, live.update(game))
    config = {"bots": [{"name": bot} for bot in "ab"]}
    record = TournamentRecord(1, "pair", "sheep-n-sheep", 2, {}, None, 4, config, 0.0, 0.0)
    table = render(report_data(record, games, samples=10), "text")
    (b_row,) = [line for line in table.splitlines() if line.startswith("1  b")]
    table_elo = b_row.split()[2]
    assert f"Elo b {table_elo}  a " in stream.getvalue().splitlines()[-1]
