"""What live progress shows for each bot after every game: the figure the report
ranks by, over the games stored so far.

Games of several players: the report's Bradley-Terry Elo (`ratings.LiveElo`).
Solo games have no Elo: the report ranks them by mean score, a failed game
counting the lowest score made on its deal (`outcome.solo_scores`), so that is
what `LiveSoloScores` keeps. Either way a bot without a game has no figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from tournament.ratings import LiveElo, pairwise
from tournament.store import GameRecord

__all__ = ["LiveFigures", "LiveGameElo", "LiveSoloScores", "live_figures"]


class LiveFigures(Protocol):
    def add(self, game: GameRecord) -> bool:
        """Count a stored game without recomputing; False if it is left out."""
        ...

    def refit(self) -> Mapping[str, float]:
        """Each bot's figure over the games counted so far."""
        ...

    def update(self, game: GameRecord) -> Mapping[str, float]:
        """Count a game and recompute."""
        ...


class LiveGameElo:
    """`LiveElo` fed whole games."""

    def __init__(self, bots: Iterable[str], anchor: str | None = None) -> None:
        self._elo = LiveElo(bots, anchor)

    def add(self, game: GameRecord) -> bool:
        return self._elo.add(pairwise(game.bots, game.ranks))

    def refit(self) -> Mapping[str, float]:
        return self._elo.refit()

    def update(self, game: GameRecord) -> Mapping[str, float]:
        return self._elo.update(pairwise(game.bots, game.ranks))


class LiveSoloScores:
    """Solo: each bot's mean score so far, counted as the report counts it.

    A failed game counts the lowest score any bot made on its deal, which a
    later game of that deal can lower, so each new game recounts its deal's
    games only (at most one per bot). Games of bots outside `bots` are left out.
    """

    def __init__(self, bots: Iterable[str]) -> None:
        self.bots = tuple(bots)
        self._deals: dict[int, list[GameRecord]] = {}
        self._total = dict.fromkeys(self.bots, 0.0)
        self._games = dict.fromkeys(self.bots, 0)

    def add(self, game: GameRecord) -> bool:
        if len(game.seats) != 1 or game.seats[0].bot not in self._total:
            return False
        deal = self._deals.setdefault(game.seed, [])
        self._count(deal, -1)
        deal.append(game)
        self._count(deal, +1)
        return True

    def _count(self, deal: list[GameRecord], sign: int) -> None:
        if not deal:
            return
        lowest = min(game.seats[0].score for game in deal)
        for game in deal:
            seat = game.seats[0]
            self._total[seat.bot] += sign * (seat.score if seat.failure is None else lowest)
            self._games[seat.bot] += sign

    def refit(self) -> Mapping[str, float]:
        return {bot: self._total[bot] / n for bot, n in self._games.items() if n}

    def update(self, game: GameRecord) -> Mapping[str, float]:
        self.add(game)
        return self.refit()


def live_figures(bots: Iterable[str], players: int, anchor: str | None) -> LiveFigures:
    """Mean scores for a solo tournament, the Elo otherwise."""
    if players == 1:
        return LiveSoloScores(bots)
    return LiveGameElo(bots, anchor)
