"""A crosstable cell is the row bot's score % against the column bot.

docs/tournament.md: "a crosstable of score % of every bot (row) against every
other (column)". Counted by hand from the games below, where the standings'
order alone (which every bot shares) cannot tell a row from a column.
"""

from __future__ import annotations

from tournament.report import report_data
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def _game(key: str, seed: int, seats: list[str], ranks: list[int]) -> GameRecord:
    records = tuple(
        SeatRecord(bot, float(-rank), rank, rank, 0, False, None)
        for bot, rank in zip(seats, ranks, strict=True)
    )
    return GameRecord(key, "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def _record(players: int, bots: list[str], games: int) -> TournamentRecord:
    config = {"bots": [{"name": bot} for bot in bots]}
    return TournamentRecord(1, "t", "stubborn-sheep", players, {}, None, games, config, 0.0, 0.0)


def test_two_player_cells_are_the_row_bots_score_against_the_column() -> None:
    # top against low: 2 wins, 1 draw, 1 loss = 2.5 of 4 = 62.5%; top against
    # mid: 1 win of 1 = 100%; mid against low: 1 draw of 2 and 1 win = 75%.
    games = [
        _game("1:top|low", 1, ["top", "low"], [1, 2]),
        _game("1:low|top", 1, ["low", "top"], [2, 1]),
        _game("2:top|low", 2, ["top", "low"], [1, 1]),
        _game("2:low|top", 2, ["low", "top"], [1, 2]),
        _game("3:top|mid", 3, ["top", "mid"], [1, 2]),
        _game("4:mid|low", 4, ["mid", "low"], [1, 1]),
        _game("4:low|mid", 4, ["low", "mid"], [2, 1]),
    ]
    cross = report_data(_record(2, ["low", "mid", "top"], len(games)), games, samples=0)[
        "crosstable"
    ]
    assert cross["top"] == {"low": 62.5, "mid": 100.0}
    assert cross["low"] == {"top": 37.5, "mid": 25.0}
    assert cross["mid"] == {"top": 0.0, "low": 75.0}


def test_a_three_player_game_scores_each_seat_pair() -> None:
    # One game ranked a 1, b 2, c 2: a beats both, b and c draw.
    games = [_game("1:a|b|c", 1, ["a", "b", "c"], [1, 2, 2])]
    cross = report_data(_record(3, ["a", "b", "c"], 1), games, samples=0)["crosstable"]
    assert cross["a"] == {"b": 100.0, "c": 100.0}
    assert cross["b"] == {"a": 0.0, "c": 50.0}
    assert cross["c"] == {"a": 0.0, "b": 50.0}
