"""Bots the report cannot tell apart share a rank, and the report says how it
lists them. Two bots with the same results were ranked 3 and 4 by the order of
their names, in every format, with nothing to say that the 4th place was a
tie broken by the alphabet."""

from __future__ import annotations

from tournament.report import report_data
from tournament.report_layout import render
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def _game(seed: int, seats: list[str], scores: list[float], ranks: list[int]) -> GameRecord:
    records = tuple(
        SeatRecord(bot, score, rank, rank, 0, False, None)
        for bot, score, rank in zip(seats, scores, ranks, strict=True)
    )
    return GameRecord(f"{seed}:{'|'.join(seats)}", "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def _record(players: int, bots: list[str], games: int) -> TournamentRecord:
    config = {"bots": [{"name": bot} for bot in bots]}
    return TournamentRecord(1, "t", "stubborn-sheep", players, {}, None, games, config, 0.0, 0.0)


def _won(seed: int, winner: str, loser: str) -> list[GameRecord]:
    """A deal's seat-swapped pair, both games won by `winner`."""
    return [
        _game(seed, [winner, loser], [5.0, 1.0], [1, 2]),
        _game(seed, [loser, winner], [1.0, 5.0], [2, 1]),
    ]


def test_bots_with_the_same_elo_share_a_rank_and_the_report_says_so() -> None:
    # top beats both; ya and xb split their games, so they have the same results.
    games = [
        *_won(1, "top", "ya"),
        *_won(2, "top", "xb"),
        *_won(3, "ya", "xb"),
        *_won(4, "xb", "ya"),
        *_won(5, "low", "ya"),
        *_won(6, "xb", "low"),
        *_won(7, "top", "low"),
        *_won(8, "ya", "low"),
        *_won(9, "low", "xb"),
    ]
    data = report_data(_record(2, ["ya", "low", "xb", "top"], len(games)), games, samples=50)
    rows = [(row["rank"], row["bot"]) for row in data["standings"]]
    assert rows[0] == (1, "top")
    # ya, xb and low lost to top and split their games with each other: one rank.
    elo = {row["bot"]: row["elo"] for row in data["standings"]}
    assert elo["ya"] == elo["xb"] == elo["low"]
    assert rows[1:] == [(2, "low"), (2, "xb"), (2, "ya")]
    for format in ("text", "markdown"):
        assert "Equal Elo (within a millionth of a point) share a rank" in render(data, format)


def test_a_bot_below_a_tie_is_ranked_by_the_bots_above_it() -> None:
    games = [*_won(1, "a", "b"), *_won(2, "a", "c"), *_won(3, "b", "c"), *_won(4, "c", "b")]
    games += [*_won(5, "b", "d"), *_won(6, "c", "d"), *_won(7, "a", "d")]
    data = report_data(_record(2, ["a", "b", "c", "d"], len(games)), games, samples=0)
    assert [(row["rank"], row["bot"]) for row in data["standings"]] == [
        (1, "a"),
        (2, "b"),
        (2, "c"),
        (4, "d"),
    ]


def test_no_tie_no_note() -> None:
    games = [*_won(1, "a", "b"), *_won(2, "a", "b")]
    data = report_data(_record(2, ["a", "b"], len(games)), games, samples=0)
    assert [row["rank"] for row in data["standings"]] == [1, 2]
    assert "share a rank" not in render(data, "text")


def test_solo_bots_with_the_same_mean_share_a_rank() -> None:
    games = []
    for seed, (a, b, c) in enumerate([(9.0, 2.0, 3.0), (7.0, 3.0, 2.0)], start=1):
        games += [
            _game(seed, [bot], [score], [1]) for bot, score in zip("zyx", (a, b, c), strict=True)
        ]
    data = report_data(_record(1, ["z", "y", "x"], len(games)), games)
    assert [(row["rank"], row["bot"]) for row in data["standings"]] == [
        (1, "z"),
        (2, "x"),
        (2, "y"),
    ]
    assert "Equal mean scores (with as many failed games) share a rank" in render(data, "text")
