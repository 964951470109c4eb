"""Multiplayer skill ratings from whole rankings: OpenSkill's Plackett-Luce model.

Where the Bradley-Terry Elo splits a k-player game into its seat pairs, this
rates each game as one ranking with the Weng-Lin Bayesian update of the
`openskill` package: every bot has a skill estimate `mu` and an uncertainty
`sigma` (defaults 25 and 25/3), and `mu - 3 sigma` is the conservative figure
ladders sort by (a bot with few games is not ranked high on luck). The update
is online, so the order of the games matters a little: games are taken seed by
seed, then by key, so a report is reproducible.

A game without ties gets the package's update unchanged. A tie is not passed
to the package as a shared rank: its update divides a tied place's terms by
the number tied, which rates a tie above last place too low and the places
below it too high (openskill.py issue 155). Instead a tied game is rated as
the strict orders that break its ties, each given the package's update and
weighted by the order's Plackett-Luce chance under the ratings before the
game, and every bot's mixture is collapsed to one rating: its weighted mean
mu, and a sigma that Weng-Lin's update gives the tie's own likelihood.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

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


def _orders_breaking_ties(ranks: Sequence[int]) -> list[list[int]]:
    """Every strict finishing order (seats, best first) that keeps each better
    rank ahead: the seats of each tied rank permuted, across all tied ranks."""
    seats_by_rank: dict[int, list[int]] = {}
    for seat, rank in enumerate(ranks):
        seats_by_rank.setdefault(rank, []).append(seat)
    groups = [seats_by_rank[rank] for rank in sorted(seats_by_rank)]
    return [
        [seat for group in arrangement for seat in group]
        for arrangement in itertools.product(*(itertools.permutations(g) for g in groups))
    ]


def _log_chance(order: Sequence[int], mus: Sequence[float], c: float) -> float:
    """log of the Plackett-Luce chance of `order`: each place goes to one of the
    bots not yet placed with odds exp(mu / c)."""
    total = 0.0
    for place, seat in enumerate(order):
        remaining = [mus[other] / c for other in order[place:]]
        top = max(remaining)
        total += mus[seat] / c - top - math.log(sum(math.exp(x - top) for x in remaining))
    return total


def _rate_game(
    model: PlackettLuce, before: Sequence[PlackettLuceRating], ranks: Sequence[int]
) -> list[PlackettLuceRating]:
    """The ratings of one game's seats after it (1 is the best rank)."""
    teams = [[rating] for rating in before]
    if len(set(ranks)) == len(ranks):
        return [team[0] for team in model.rate(teams, ranks=list(ranks))]
    if len(set(ranks)) == 1:
        # Every seat tied: every order breaks into this tie, so under the model
        # the game could not end otherwise and tells nothing about the bots.
        # The mixture below would give every mu back unchanged and only widen
        # sigma by tau; no update at all treats the game as a game of one seat
        # does, and skips all k! orders.
        return list(before)
    orders = _orders_breaking_ties(ranks)
    # The c of the package's update (sigma widened by tau first), so that the
    # weights are the update's own model and, for bots of equal mu, equal.
    widened = [rating.sigma**2 + model.tau**2 for rating in before]
    c = math.sqrt(sum(variance + model.beta**2 for variance in widened))
    mus = [rating.mu for rating in before]
    log_chances = [_log_chance(order, mus, c) for order in orders]
    top = max(log_chances)
    chances = [math.exp(x - top) for x in log_chances]
    weights = [chance / sum(chances) for chance in chances]
    # With 6 seats at most and an all-tied game skipped, at most 5 seats tie:
    # 120 orders, each one call of the package's update.
    updates = []
    for order in orders:
        places = [0.0] * len(order)
        for place, seat in enumerate(order, start=1):
            places[seat] = float(place)
        updates.append([team[0] for team in model.rate(teams, ranks=places)])
    after = []
    for seat, rating in enumerate(before):
        mu = sum(w * update[seat].mu for w, update in zip(weights, updates, strict=True))
        within = sum(
            w * update[seat].sigma ** 2 for w, update in zip(weights, updates, strict=True)
        )
        spread = sum(
            w * (update[seat].mu - mu) ** 2 for w, update in zip(weights, updates, strict=True)
        )
        # The mixture's variance is within + spread. The package damps each
        # update's variance cut by gamma = sigma / c; the same damping of the
        # spread makes this Weng-Lin's update of the tie's own likelihood (the
        # sum of the orders' chances), exactly but for the package's kappa
        # floor: its mu is the weighted mean above, its sigma^2 within + gamma
        # * spread, never above the sigma it came in with (widened by tau). Undamped, a tie
        # of five behind one winner raises their sigma (8.33 to 8.50), and
        # fifty such games in a row take it to 26.
        gamma = math.sqrt(widened[seat]) / c
        after.append(
            model.rating(mu=mu, sigma=math.sqrt(within + gamma * spread), name=rating.name)
        )
    return after


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
        after = _rate_game(model, [ratings[bot] for bot in seated], ranks)
        for bot, rating in zip(seated, after, strict=True):
            ratings[bot] = rating
    return {bot: SkillRating(bot, rating.mu, rating.sigma) for bot, rating in ratings.items()}
