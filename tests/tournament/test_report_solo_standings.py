"""Solo standings: who is listed first on equal means, and which way a lead runs.

docs/tournament.md: solo bots are ranked by mean score, "equal means: fewer
failed games first", and each bot's "lead on the next bot in the table: the
mean, over the seeds both played, of its score minus the next bot's, with a
95% Student-t interval". The figures below are counted by hand.
"""

from __future__ import annotations

import pytest

from tournament.report import report_data
from tournament.store import GameRecord, SeatRecord, TournamentRecord

T_975_ONE_DF = 12.706205  # Student's t, 97.5th percentile, 1 degree of freedom


def _solo(seed: int, bot: str, score: float, failure: str | None = None) -> GameRecord:
    seat = SeatRecord(bot, score, 1, 1, 0, False, failure)
    return GameRecord(f"{seed}:{bot}", "m", seed, 0, 0, (seat,), "done", "{}", 1.0, 0.0)


def _record(bots: list[str], games: int) -> TournamentRecord:
    config = {"bots": [{"name": bot} for bot in bots]}
    return TournamentRecord(1, "t", "stubborn-sheep", 1, {}, None, games, config, 0.0, 0.0)


def test_on_equal_means_the_bot_with_fewer_failed_games_is_ranked_first() -> None:
    # Seed 1: a crashed (its stand-in's 9 counts as the deal's lowest, b's 4),
    # seed 2: both 6. Both average 5; b failed no game, so b is first, though
    # a comes first by name.
    games = [
        _solo(1, "a", 9.0, failure="crash"),
        _solo(1, "b", 4.0),
        _solo(2, "a", 6.0),
        _solo(2, "b", 6.0),
    ]
    rows = report_data(_record(["a", "b"], len(games)), games)["standings"]
    assert [(row["bot"], row["rank"], row["mean_score"], row["forfeits"]) for row in rows] == [
        ("b", 1, 5.0, 0),
        ("a", 2, 5.0, 1),
    ]


def test_the_lead_is_the_bots_score_minus_the_next_bots_on_the_same_deals() -> None:
    # a: 10 and 12, b: 4 and 8 on seeds 1 and 2; differences 6 and 4: mean 5,
    # standard deviation sqrt(2), so the interval is 5 -+ t(1) * sqrt(2) / sqrt(2).
    games = [_solo(1, "a", 10.0), _solo(1, "b", 4.0), _solo(2, "a", 12.0), _solo(2, "b", 8.0)]
    rows = report_data(_record(["b", "a"], len(games)), games)["standings"]
    assert [row["bot"] for row in rows] == ["a", "b"]
    assert rows[0]["lead_next"] == 5.0
    assert rows[0]["lead_next_low"] == pytest.approx(5.0 - T_975_ONE_DF, abs=0.01)
    assert rows[0]["lead_next_high"] == pytest.approx(5.0 + T_975_ONE_DF, abs=0.01)
    assert rows[1]["lead_next"] is None
