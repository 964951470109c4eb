"""OpenSkill's update of a game with ties, worked out here from the package's
update of each strict order that breaks the ties.

The expected rating is the mixture of those orders' updates, each weighted by
the order's Plackett-Luce chance under the ratings before the game (each next
place goes to a bot not yet placed with odds exp(mu / c), c as in the
package's update), collapsed to one rating per bot: mu = sum w_o mu_o and
sigma^2 = sum w_o sigma_o^2 + gamma * sum w_o (mu_o - mu)^2, gamma = sigma / c
(sigma widened by tau, the package's own damping), which is Weng-Lin's update
of the tie's likelihood. The docs' table of equal bots is checked in
test_openskill_ties_reference.py; here the bots' ratings differ."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from tournament.openskill_ratings import rate_openskill

MODEL = PlackettLuce()
BOTS = ["a", "b", "c", "d", "e", "f"]
# Strict games that leave the six bots with different mu and sigma.
HISTORY: list[tuple[list[str], list[int]]] = [
    (["a", "b", "c"], [1, 2, 3]),
    (["a", "d", "e", "f"], [2, 1, 4, 3]),
    (["b", "c", "d", "e", "f"], [1, 5, 2, 4, 3]),
    (["a", "c", "e"], [1, 3, 2]),
]


def _history_ratings() -> dict[str, PlackettLuceRating]:
    """The ratings after HISTORY, from the package's update directly."""
    ratings = {bot: MODEL.rating(name=bot) for bot in BOTS}
    for seated, ranks in HISTORY:
        after = MODEL.rate([[ratings[bot]] for bot in seated], ranks=[float(r) for r in ranks])
        ratings.update({bot: team[0] for bot, team in zip(seated, after, strict=True)})
    return ratings


def _mixture(
    before: Sequence[PlackettLuceRating], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    k = len(ranks)
    variances = [rating.sigma**2 + MODEL.tau**2 for rating in before]
    c = math.sqrt(sum(variance + MODEL.beta**2 for variance in variances))
    strength = [math.exp(rating.mu / c) for rating in before]
    orders, chances, updates = [], [], []
    for order in itertools.permutations(range(k)):
        # An order breaks the ties if it keeps every better rank ahead.
        if any(ranks[order[i]] > ranks[order[j]] for i in range(k) for j in range(i + 1, k)):
            continue
        chance = 1.0
        for place, seat in enumerate(order):
            chance *= strength[seat] / sum(strength[other] for other in order[place:])
        places = [float(order.index(seat) + 1) for seat in range(k)]
        orders.append(order)
        chances.append(chance)
        updates.append(MODEL.rate([[rating] for rating in before], ranks=places))
    weights = [chance / sum(chances) for chance in chances]
    mixed = []
    for seat in range(k):
        mus = [update[seat][0].mu for update in updates]
        sigmas = [update[seat][0].sigma for update in updates]
        mu = sum(w * m for w, m in zip(weights, mus, strict=True))
        within = sum(w * s * s for w, s in zip(weights, sigmas, strict=True))
        spread = sum(w * (m - mu) ** 2 for w, m in zip(weights, mus, strict=True))
        gamma = math.sqrt(variances[seat]) / c
        mixed.append((mu, math.sqrt(within + gamma * spread)))
    return mixed


TIED_GAMES = [
    (["a", "b", "c"], [1, 1, 3]),
    (["c", "a", "b"], [1, 2, 2]),
    (["d", "a", "f", "b"], [1, 2, 2, 4]),
    (["e", "b", "a", "c", "d"], [1, 1, 3, 4, 5]),
    (["a", "b", "c", "d", "e", "f"], [1, 1, 1, 4, 4, 4]),
    (["f", "e", "d", "c", "b", "a"], [1, 2, 2, 2, 2, 2]),  # 120 orders
    (["b", "d", "f", "a", "c", "e"], [1, 1, 1, 1, 1, 6]),
]


@pytest.mark.parametrize(("seated", "ranks"), TIED_GAMES)
def test_a_tied_game_is_the_mixture_of_the_orders_breaking_it(
    seated: list[str], ranks: list[int]
) -> None:
    before = _history_ratings()
    assert len({round(before[bot].mu, 6) for bot in seated}) == len(seated)  # all differ
    skill = rate_openskill(BOTS, [*HISTORY, (seated, ranks)])
    expected = _mixture([before[bot] for bot in seated], ranks)
    for bot, (mu, sigma) in zip(seated, expected, strict=True):
        assert skill[bot].mu == pytest.approx(mu, abs=1e-9)
        assert skill[bot].sigma == pytest.approx(sigma, abs=1e-9)
    for bot in set(BOTS) - set(seated):
        assert (skill[bot].mu, skill[bot].sigma) == (before[bot].mu, before[bot].sigma)


@pytest.mark.parametrize(("seated", "ranks"), TIED_GAMES)
def test_swapping_the_seats_of_tied_bots_changes_nothing(
    seated: list[str], ranks: list[int]
) -> None:
    skill = rate_openskill(BOTS, [*HISTORY, (seated, ranks)])
    # Reverse the bots within each tied rank, keeping each bot's rank.
    swapped = list(seated)
    for rank in set(ranks):
        seats = [seat for seat, r in enumerate(ranks) if r == rank]
        for seat, bot in zip(seats, reversed([seated[s] for s in seats]), strict=True):
            swapped[seat] = bot
    assert swapped != seated
    again = rate_openskill(BOTS, [*HISTORY, (swapped, ranks)])
    for bot in BOTS:
        assert again[bot].mu == pytest.approx(skill[bot].mu, abs=1e-12)
        assert again[bot].sigma == pytest.approx(skill[bot].sigma, abs=1e-12)


@pytest.mark.parametrize("seated", [["a", "b", "c"], ["f", "c", "e", "a"], BOTS, BOTS[::-1]])
def test_a_game_without_ties_is_the_packages_update_exactly(seated: list[str]) -> None:
    before = _history_ratings()
    ranks = [3, 1, 2, 6, 4, 5][: len(seated)]
    ranks = [sorted(ranks).index(rank) + 1 for rank in ranks]
    skill = rate_openskill(BOTS, [*HISTORY, (seated, ranks)])
    package = MODEL.rate([[before[bot]] for bot in seated], ranks=[float(r) for r in ranks])
    for bot, team in zip(seated, package, strict=True):
        assert (skill[bot].mu, skill[bot].sigma) == (team[0].mu, team[0].sigma)


def _competition_ranks(players: int) -> list[list[int]]:
    """Every ranking of `players` seats with shared places (1, 1, 3 style)."""
    rankings = set()
    for places in itertools.product(range(players), repeat=players):
        rankings.add(tuple(1 + sum(other < place for other in places) for place in places))
    return [list(ranking) for ranking in sorted(rankings)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_bot_tied_for_first_never_rates_below_a_bot_ranked_under_it(players: int) -> None:
    bots = BOTS[:players]
    games = [r for r in _competition_ranks(players) if r.count(1) >= 2 and max(r) > 1]
    assert games
    for ranks in games:
        skill = rate_openskill(bots, [(bots, ranks)])
        winners = [skill[bot] for bot, rank in zip(bots, ranks, strict=True) if rank == 1]
        others = [skill[bot] for bot, rank in zip(bots, ranks, strict=True) if rank > 1]
        for winner, other in itertools.product(winners, others):
            assert winner.mu > other.mu, (ranks, winner, other)
            assert winner.ordinal > other.ordinal, (ranks, winner, other)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_tie_never_leaves_a_sigma_above_where_it_came_in(players: int) -> None:
    """Every ranking with a tie, between bots of different ratings: no sigma
    ends above its start widened by tau (undamped, the spread of the orders'
    mus would push it there)."""
    before = _history_ratings()
    seated = BOTS[:players]
    for ranks in _competition_ranks(players):
        if len(set(ranks)) in (1, players):
            continue
        skill = rate_openskill(BOTS, [*HISTORY, (seated, ranks)])
        for bot in seated:
            assert skill[bot].sigma <= math.hypot(before[bot].sigma, MODEL.tau), (ranks, bot)


def test_a_game_every_seat_ties_changes_no_rating() -> None:
    """Every order breaks into it, so the game could not have ended otherwise."""
    before = _history_ratings()
    for seated in (["a", "b"], ["c", "a", "e"], BOTS):
        skill = rate_openskill(BOTS, [*HISTORY, (seated, [1] * len(seated))])
        for bot in BOTS:
            assert (skill[bot].mu, skill[bot].sigma) == (before[bot].mu, before[bot].sigma)


def test_a_long_run_of_one_tie_makes_the_tied_bots_surer_not_less_sure() -> None:
    """One winner and five tied behind it, again and again: the tied bots' sigma
    comes down from its start. Collapsing the orders without the package's
    damping of the spread (sigma^2 = within + spread) raised it from 8.33 to
    8.50 in the first game and to 26 after fifty."""
    game = (BOTS, [1, 2, 2, 2, 2, 2])
    sigmas = [25 / 3]
    for count in (1, 2, 10, 50):
        skill = rate_openskill(BOTS, [game] * count)
        tied = [skill[bot].sigma for bot in BOTS[1:]]
        assert max(tied) - min(tied) < 1e-9
        sigmas.append(skill["b"].sigma)
    assert sigmas == sorted(sigmas, reverse=True) and sigmas[-1] < 7.8, sigmas
    assert skill["a"].mu > 25 > skill["b"].mu
