"""`--anchor` naming a bot removed from the config. Its stored games are left
out of the report unless `--include-removed`, so it cannot be the anchor then,
but the refusal said "anchor 'old' is not a bot of this tournament (a, b)",
which is false (the database holds its games) and did not say how to rate
from it."""

from __future__ import annotations

import pytest

from tournament.report import report_data
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def _game(seed: int, seats: list[str], ranks: list[int]) -> GameRecord:
    records = tuple(
        SeatRecord(bot, 5.0 - rank, rank, rank, 0, False, None)
        for bot, rank in zip(seats, ranks, strict=True)
    )
    return GameRecord(f"{seed}:{'|'.join(seats)}", "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def _record() -> TournamentRecord:
    config = {"bots": [{"name": "a"}, {"name": "b"}]}  # "old" was removed
    return TournamentRecord(1, "t", "stubborn-sheep", 2, {}, None, 2, config, 0.0, 0.0)


GAMES = [
    _game(1, ["a", "b"], [1, 2]),
    _game(1, ["b", "a"], [2, 1]),
    _game(2, ["a", "old"], [1, 2]),
    _game(2, ["old", "b"], [1, 2]),
]


def test_a_removed_bot_as_anchor_is_refused_saying_it_was_removed() -> None:
    with pytest.raises(ValueError) as refused:
        report_data(_record(), GAMES, samples=0, anchor="old")
    message = str(refused.value)
    assert "not a bot of this tournament" not in message
    assert "anchor 'old' was removed from the config" in message
    assert "--include-removed" in message


def test_a_removed_bot_is_an_anchor_with_include_removed() -> None:
    data = report_data(_record(), GAMES, samples=0, anchor="old", include_removed=True)
    assert {row["bot"]: row["elo"] for row in data["standings"]}["old"] == 0.0


def test_a_bot_the_database_never_held_is_still_not_a_bot_of_it() -> None:
    with pytest.raises(ValueError, match=r"anchor 'zz' is not a bot of this tournament \(a, b\)"):
        report_data(_record(), GAMES, samples=0, anchor="zz")
