"""A report of games of 3 or more players says that W/D/L and score % count
seat pairs: a real 4-player round robin read "games 32" beside "W/D/L
73/0/23" (96 results, 3 a game) with nothing to say what was counted."""

from __future__ import annotations

from tests.tournament.test_report_ties import _game, _record
from tournament.report import report_data
from tournament.report_layout import render

NOTE = "W/D/L: each game's seat pairs"


def test_a_four_player_report_says_its_wdl_are_seat_pairs() -> None:
    bots = ["a", "b", "c", "d"]
    games = [
        _game(seed, [bots[(seed + i) % 4] for i in range(4)], [4.0, 3.0, 2.0, 1.0], [1, 2, 3, 4])
        for seed in range(4)
    ]
    data = report_data(_record(4, bots, len(games)), games, samples=0)
    row = data["standings"][0]
    assert row["wins"] + row["draws"] + row["losses"] == 3 * row["games"]
    for format in ("text", "markdown"):
        text = render(data, format)
        assert NOTE in text
        assert "3 a game for each bot" in text


def test_a_two_player_report_needs_no_such_note() -> None:
    games = [_game(1, ["a", "b"], [2.0, 1.0], [1, 2]), _game(1, ["b", "a"], [2.0, 1.0], [1, 2])]
    data = report_data(_record(2, ["a", "b"], len(games)), games, samples=0)
    assert NOTE not in render(data, "text")


def test_every_report_says_what_its_mean_score_and_failure_columns_are() -> None:
    """Beside the Elo's note, "mean score", "mean 95%", "timeouts", "DQ" and
    "failed" stood unexplained (a failed seat's mean counts its table's lowest
    score, not its stand-in's, which no reader could guess)."""
    games = [_game(1, ["a", "b"], [2.0, 1.0], [1, 2]), _game(1, ["b", "a"], [2.0, 1.0], [1, 2])]
    text = render(report_data(_record(2, ["a", "b"], len(games)), games, samples=0), "text")
    assert "Mean score: the game's own score, a failed seat counting the lowest" in text
    assert "mean 95%: Student's t interval" in text
    assert "timeouts: deadlines missed; DQ, crashes, failed: games" in text
