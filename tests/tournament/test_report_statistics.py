"""The report's statistics checked against figures computed independently."""

from __future__ import annotations

from tournament.report import report_data
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def _game(seed: int, seats: list[str], winner: str) -> GameRecord:
    records = tuple(
        SeatRecord(bot, 1.0 if bot == winner else 0.0, 1 if bot == winner else 2, 1, 0, False, None)
        for bot in seats
    )
    key = f"{seed}:{'|'.join(seats)}"
    return GameRecord(key, "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def _record(games: int) -> TournamentRecord:
    config = {"bots": [{"name": "a"}, {"name": "b"}]}
    return TournamentRecord(1, "t", "sheep-n-sheep", 2, {}, None, games, config, 0.0, 0.0)


def _width(winners: list[tuple[str, str]]) -> float:
    """The width of a's Elo interval when deal i's two seat-swapped games are
    won by winners[i] (first game a-b, second b-a)."""
    games = [
        game
        for seed, (first, second) in enumerate(winners)
        for game in (_game(seed, ["a", "b"], first), _game(seed, ["b", "a"], second))
    ]
    data = report_data(_record(len(games)), games, samples=2000)
    (row,) = [row for row in data["standings"] if row["bot"] == "a"]
    return float(row["elo_high"] - row["elo_low"])


def test_the_bootstrap_resamples_deals_not_the_games_of_one_deal() -> None:
    """The two games of a deal share it and are not independent. Here one bot
    wins both games of each deal (10 deals each): 20 deals of information, not
    40 games, so the interval must be about sqrt(2) times as wide as for the same
    40 games split 1-1 on every deal (where each deal scores exactly 1/2).
    Resampling single games gave both the same width."""
    together = _width([("a", "a")] * 10 + [("b", "b")] * 10)
    split = _width([("a", "b")] * 10 + [("b", "a")] * 10)
    assert together > 1.25 * split, (together, split)
