"""Multiplayer skill ratings from whole rankings: OpenSkill's Plackett-Luce model.

Where the Bradley-Terry Elo splits a k-player game into its seat pairs, this
rates each game as one ranking (ties shared) with the Weng-Lin Bayesian update
of the `openskill` package: every bot has a skill estimate `mu` and an
uncertainty `sigma` (defaults 25 and 25/3), and `mu - 3 sigma` is the
conservative figure ladders sort by (a bot with few games is not ranked high
on luck). The update is online, so the order of the games matters a little:
games are taken seed by seed, then by key, so a report is reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["SkillRating", "rate_openskill"]


@dataclass(frozen=True, slots=True)
class SkillRating:
    bot: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative skill, mu - 3 sigma."""
        return self.mu - 3.0 * self.sigma


def rate_openskill(
    bots: Sequence[str], games: Iterable[tuple[Sequence[str], Sequence[int]]]
) -> dict[str, SkillRating]:
    """Rate `bots` from games given as (bots in seat order, rank per seat; 1 is best)."""
    model = PlackettLuce()
    ratings = {bot: model.rating(name=bot) for bot in bots}
    for seated, ranks in games:
        if len(seated) < 2:
            continue
        if len(seated) != len(ranks):
            raise ValueError("one rank per seat")
        for bot in seated:
            ratings.setdefault(bot, model.rating(name=bot))
        teams = model.rate([[ratings[bot]] for bot in seated], ranks=list(ranks))
        for bot, team in zip(seated, teams, strict=True):
            ratings[bot] = team[0]
    return {bot: SkillRating(bot, rating.mu, rating.sigma) for bot, rating in ratings.items()}
