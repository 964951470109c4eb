"""Bots that crashed in every game they played: a run with one is not a success."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.words import count
from tournament.store import GameRecord

__all__ = ["AlwaysCrashed", "always_crashed"]


@dataclass(frozen=True, slots=True)
class AlwaysCrashed:
    bot: str
    games: int
    reason: str  # the first crash seen in this run, "" when all were in earlier runs

    def line(self) -> str:
        why = f": {self.reason}" if self.reason else " (see the log for why)"
        return f"bot {self.bot!r} crashed in every one of its {count(self.games, 'game')}{why}"


def always_crashed(
    games: Iterable[GameRecord], reasons: Mapping[str, str] | None = None
) -> tuple[AlwaysCrashed, ...]:
    """The bots that played at least one game and crashed in each of them."""
    played: dict[str, int] = {}
    crashed: dict[str, int] = {}
    for game in games:
        for seat in game.seats:
            played[seat.bot] = played.get(seat.bot, 0) + 1
            if seat.failure == "crash":
                crashed[seat.bot] = crashed.get(seat.bot, 0) + 1
    return tuple(
        AlwaysCrashed(bot, count, (reasons or {}).get(bot, ""))
        for bot, count in sorted(played.items())
        if crashed.get(bot) == count
    )
