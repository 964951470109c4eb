"""OpenSkill's multiplayer ratings against Weng and Lin's Plackett-Luce update
written out here from the paper (JMLR 12, 2011, Algorithm 4; openskill's
defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 1e-4), not from the
package. A tie is measured against the mean of the updates of the strict
orders that break it: for bots of equal rating that is where the model's own
chance of the tie (the sum of those orders' chances) moves mu.

The package, given a tie as a shared rank, rates only ties for last place so;
rate_openskill rates every tie as the orders breaking it. The figures of the
docs' table are asserted here: the package's shared-rank update (called
directly) and rate_openskill against the mean of the orders."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest
from openskill.models import PlackettLuce

from tournament.openskill_ratings import rate_openskill

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0, 1e-4


def _strict_update(places: Sequence[int]) -> list[tuple[float, float]]:
    """(mu, sigma) of new bots after one game; places[i] is seat i's place, all
    different (0 is first)."""
    k = len(places)
    variance = SIGMA * SIGMA + TAU * TAU  # tau is added before the game
    c = math.sqrt(k * (variance + BETA * BETA))
    strength = math.exp(MU / c)
    updated = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if places[q] <= places[i]:
                # Every bot at place q or below it shares the strength, so the
                # chance that i is picked from them is 1 / their number.
                p = strength / sum(strength for s in range(k) if places[s] >= places[q])
                omega += (1.0 if q == i else 0.0) - p
                delta += p * (1.0 - p)
        omega *= variance / c
        delta *= (math.sqrt(variance) / c) * variance / c**2
        updated.append((MU + omega, math.sqrt(variance * max(1.0 - delta, KAPPA))))
    return updated


def _mean_of_orders(ranks: Sequence[int]) -> list[float]:
    """Each bot's mu after the game, averaged over the strict orders that keep
    every better rank ahead (the orders that break the ties)."""
    k = len(ranks)
    orders = [
        order
        for order in itertools.permutations(range(k))
        if all(order[i] < order[j] for i in range(k) for j in range(k) if ranks[i] < ranks[j])
    ]
    updates = [_strict_update(order) for order in orders]
    return [sum(update[i][0] for update in updates) / len(updates) for i in range(k)]


def _package(ranks: Sequence[int]) -> list[float]:
    """New bots' mu after the package's update, given the ties as shared ranks."""
    model = PlackettLuce()
    teams = model.rate([[model.rating()] for _ in ranks], ranks=[float(r) for r in ranks])
    return [team[0].mu for team in teams]


def _rated(ranks: Sequence[int]) -> list[float]:
    bots = [f"bot{i}" for i in range(len(ranks))]
    skill = rate_openskill(bots, [(bots, list(ranks))])
    return [skill[bot].mu for bot in bots]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_game_without_ties_is_the_papers_update(players: int) -> None:
    bots = [f"bot{i}" for i in range(players)]
    ranks = list(range(1, players + 1))
    skill = rate_openskill(bots, [(bots, ranks)])
    expected = _strict_update([rank - 1 for rank in ranks])
    for bot, (mu, sigma) in zip(bots, expected, strict=True):
        assert skill[bot].mu == pytest.approx(mu, abs=1e-9)
        assert skill[bot].sigma == pytest.approx(sigma, abs=1e-9)


@pytest.mark.parametrize("ranks", [[1, 2, 2], [1, 2, 3, 3], [1, 2, 2, 2], [1, 2, 3, 4, 4]])
def test_a_tie_for_last_place_is_the_mean_of_the_orders_breaking_it(ranks: list[int]) -> None:
    assert _rated(ranks) == pytest.approx(_mean_of_orders(ranks), abs=1e-9)
    assert _package(ranks) == pytest.approx(_mean_of_orders(ranks), abs=1e-9)


@pytest.mark.parametrize(
    ("ranks", "package", "orders"),
    [
        ([1, 1, 3], [25.72, 25.72, 23.57], [26.79, 26.79, 21.41]),
        ([1, 2, 2, 4], [27.80, 24.69, 24.69, 22.83], [27.80, 25.62, 25.62, 20.96]),
        ([1, 1, 3, 4], [25.93, 25.93, 25.93, 22.20], [27.17, 27.17, 24.69, 20.96]),
        (
            [1, 1, 3, 4, 5],
            [26.00, 26.00, 26.56, 24.89, 21.56],
            [27.25, 27.25, 25.72, 24.06, 20.72],
        ),
    ],
)
def test_a_tie_with_places_below_it_is_rated_as_the_docs_table_says(
    ranks: list[int], package: list[float], orders: list[float]
) -> None:
    assert [round(mu, 2) for mu in _package(ranks)] == package
    assert [round(mu, 2) for mu in _mean_of_orders(ranks)] == orders
    assert _rated(ranks) == pytest.approx(_mean_of_orders(ranks), abs=1e-9)
