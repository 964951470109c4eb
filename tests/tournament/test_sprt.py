"""SPRT math: the LLR by hand and against published values, error rates by simulation."""

from __future__ import annotations

import functools
import itertools
import math
import random

import pytest

from tournament.config import ELO_LIMIT, MIN_ERROR_RATE
from tournament.sprt import (
    SprtHypotheses,
    block_values,
    elo_estimate,
    elo_to_score,
    llr,
    status,
)

PENTA = block_values(2)  # LL, LD, DD or WL, WD, WW


def test_llr_of_a_pentanomial_example_computed_by_hand() -> None:
    """10 pairs: LL 1, LD 1, DD+WL 2, WD 3, WW 3; mean pair score 0.65.

    elo1 is chosen so that score(elo1) = 0.65: the H1 distribution is then the
    observed one. Under H0 (score 0.5) the distribution is
    p_i = f_i / (1 + theta (a_i - 0.5)), with theta solved by hand (bisection on
    paper, checked below): theta = 1.1539182703. LLR = sum n_i log(f_i / p_i).
    """
    counts = [1, 1, 2, 3, 3]
    f = [n / 10 for n in counts]
    elo1 = 400 * math.log10(0.65 / 0.35)
    assert elo_to_score(elo1) == pytest.approx(0.65)
    theta = 1.1539182703
    deviations = [a - 0.5 for a in PENTA]
    assert sum(fi * d / (1 + theta * d) for fi, d in zip(f, deviations, strict=True)) == (
        pytest.approx(0.0, abs=1e-9)
    )
    p0 = [fi / (1 + theta * d) for fi, d in zip(f, deviations, strict=True)]
    assert sum(p0) == pytest.approx(1.0) and sum(p * a for p, a in zip(p0, PENTA, strict=True)) == (
        pytest.approx(0.5)
    )
    by_hand = sum(n * math.log(fi / pi) for n, fi, pi in zip(counts, f, p0, strict=True))
    assert by_hand == pytest.approx(0.92625, abs=1e-5)
    assert llr(counts, PENTA, 0.0, elo1) == pytest.approx(by_hand, rel=1e-9)


@pytest.mark.parametrize(
    ("ll", "ld", "wl", "dd", "wd", "ww", "elo0", "elo1", "expected"),
    [
        # fastchess's published pentanomial test values (logistic model), to 2 decimals
        (223, 9863, 20279, 1000, 10037, 246, 0.5, 2.5, -3.07),
        (871, 26175, 55003, 980, 26678, 821, 0.0, 2.0, -4.98),
    ],
)
def test_llr_matches_published_pentanomial_values(
    ll: int, ld: int, wl: int, dd: int, wd: int, ww: int, elo0: float, elo1: float, expected: float
) -> None:
    assert llr([ll, ld, wl + dd, wd, ww], PENTA, elo0, elo1) == pytest.approx(expected, abs=0.01)


def test_llr_is_the_difference_of_the_two_dual_maxima() -> None:
    """An independent route: the best log-likelihood with mean s is the free one
    minus max_theta sum_i f_i log(1 + theta (a_i - s)); maximise on a fine grid."""
    rng = random.Random(4)
    for _ in range(5):
        counts = [rng.randrange(1, 30) for _ in PENTA]
        total = sum(counts)
        f = [n / total for n in counts]

        def dual(s: float, f: list[float] = f) -> float:
            d = [a - s for a in PENTA]
            low, high = -1 / max(d), -1 / min(d)
            grid = (low + (high - low) * (i + 0.5) / 20000 for i in range(20000))
            return max(
                sum(fi * math.log(1 + t * di) for fi, di in zip(f, d, strict=True)) for t in grid
            )

        s0, s1 = elo_to_score(-20.0), elo_to_score(30.0)
        expected = total * (dual(s0) - dual(s1))
        assert llr(counts, PENTA, -20.0, 30.0) == pytest.approx(expected, abs=1e-3)


def test_bounds_and_verdicts() -> None:
    hypotheses = SprtHypotheses(0.0, 50.0, alpha=0.05, beta=0.1)
    assert hypotheses.lower == pytest.approx(math.log(0.1 / 0.95))
    assert hypotheses.upper == pytest.approx(math.log(0.9 / 0.05))
    assert status([0, 0, 0, 0, 40], PENTA, hypotheses).verdict == "H1"
    assert status([40, 0, 0, 0, 0], PENTA, hypotheses).verdict == "H0"
    assert status([1, 2, 3, 2, 1], PENTA, hypotheses).verdict == "continue"
    with pytest.raises(ValueError, match="elo0"):
        SprtHypotheses(10.0, 5.0)


def test_elo_estimate_is_the_mean_block_score_on_the_elo_scale() -> None:
    elo, low, high = elo_estimate([1, 1, 2, 3, 3], PENTA)
    assert elo == pytest.approx(400 * math.log10(0.65 / 0.35))
    assert low < elo < high
    assert elo_estimate([0, 0, 0, 0, 5], PENTA)[0] == math.inf


@pytest.mark.parametrize(
    ("counts", "elo", "low", "high"),
    [
        # Wilson's interval for 2 of 2 and 8 of 8: 2/(2 + z^2) and 8/(8 + z^2).
        ([0, 0, 0, 0, 2], math.inf, 400 * math.log10(2 / 1.959964**2), math.inf),
        ([0, 0, 0, 0, 8], math.inf, 400 * math.log10(8 / 1.959964**2), math.inf),
        ([8, 0, 0, 0, 0], -math.inf, -math.inf, -400 * math.log10(8 / 1.959964**2)),
        ([0, 0, 5, 0, 0], 0.0, -274.9, 274.9),
    ],
)
def test_blocks_that_all_scored_the_same_claim_no_certainty(
    counts: list[int], elo: float, low: float, high: float
) -> None:
    """The blocks' variance is zero then: once [+inf, +inf] after two won blocks,
    and [+0, +0] after five drawn ones."""
    estimate = elo_estimate(counts, PENTA)
    assert estimate == (
        pytest.approx(elo),
        pytest.approx(low, abs=0.1),
        pytest.approx(high, abs=0.1),
    )


@pytest.mark.parametrize("blocks", range(1, 40))
@pytest.mark.parametrize("values", [PENTA, block_values(1)])
def test_an_unbeaten_run_keeps_its_open_end_infinite(
    blocks: int, values: tuple[float, ...]
) -> None:
    """Wilson's bound at a score of 1 is 1, which rounding once made +6261 Elo."""
    won = [0] * (len(values) - 1) + [blocks]
    assert elo_estimate(won, values)[2] == math.inf
    assert elo_estimate(list(reversed(won)), values)[1] == -math.inf
    assert math.isfinite(elo_estimate(won, values)[1])


def _pair_distribution(elo: float, draw: float) -> list[float]:
    """Two independent games, each won/drawn/lost with Elo-model odds."""
    score = elo_to_score(elo)
    game = [1 - score - draw / 2, draw, score - draw / 2]  # lose, draw, win
    pair = [0.0] * 5
    for i, p in enumerate(game):
        for j, q in enumerate(game):
            pair[i + j] += p * q
    return pair


def _error_rate(true_elo: float, wrong: str, hypotheses: SprtHypotheses, tests: int) -> float:
    cumulative = list(itertools.accumulate(_pair_distribution(true_elo, 0.2)))
    rng = random.Random(f"sprt-{true_elo}")

    @functools.cache
    def verdict(counts: tuple[int, ...]) -> str:
        return status(counts, PENTA, hypotheses).verdict

    wrong_verdicts = 0
    for _ in range(tests):
        counts = [0] * 5
        while True:
            r = rng.random()
            counts[next((i for i, c in enumerate(cumulative) if r < c), 4)] += 1
            outcome = verdict(tuple(counts))
            if outcome != "continue":
                wrong_verdicts += outcome == wrong
                break
    return wrong_verdicts / tests


@pytest.mark.slow
def test_error_rates_match_alpha_and_beta_in_simulation() -> None:
    """2000 simulated tests at each hypothesis (pairs of independent games, 20%
    draws), alpha = beta = 0.05: the wrong verdict's rate must lie in
    [0.03, 0.07] (the binomial standard error is 0.005)."""
    hypotheses = SprtHypotheses(0.0, 100.0, alpha=0.05, beta=0.05)
    false_h1 = _error_rate(0.0, "H1", hypotheses, 2000)
    false_h0 = _error_rate(100.0, "H0", hypotheses, 2000)
    assert 0.03 <= false_h1 <= 0.07, f"H1 accepted at elo0 in {false_h1:.1%} of tests"
    assert 0.03 <= false_h0 <= 0.07, f"H0 accepted at elo1 in {false_h0:.1%} of tests"


@pytest.mark.parametrize(
    ("elo0", "elo1"),
    [(-ELO_LIMIT, ELO_LIMIT), (ELO_LIMIT - 0.001, ELO_LIMIT), (-ELO_LIMIT, -ELO_LIMIT + 0.001)],
)
@pytest.mark.parametrize("comparisons", [1, 2, 3, 6])
def test_the_math_holds_at_the_configs_elo_and_error_rate_limits(
    elo0: float, elo1: float, comparisons: int
) -> None:
    """tournament.config refuses |elo| > ELO_LIMIT and alpha, beta < MIN_ERROR_RATE;
    at those limits every LLR is finite and so are both bounds (beyond them elo 7000
    divides by zero and alpha 1e-320 makes the upper bound inf: the test never accepts H1)."""
    hypotheses = SprtHypotheses(elo0, elo1, MIN_ERROR_RATE, MIN_ERROR_RATE)
    assert math.isfinite(hypotheses.lower) and math.isfinite(hypotheses.upper)
    assert hypotheses.upper == pytest.approx(-math.log(MIN_ERROR_RATE), rel=1e-6)
    values = block_values(comparisons)
    size = len(values)
    rng = random.Random(comparisons)
    samples = [
        [0] * size,
        [1] + [0] * (size - 1),
        [0] * (size - 1) + [1],
        [10**6] + [0] * (size - 1),
        [0] * (size - 1) + [10**6],
        [1] * size,
        *([rng.choice((0, 0, rng.randrange(10**6))) for _ in range(size)] for _ in range(20)),
    ]
    for counts in samples:
        current = status(counts, values, hypotheses)
        assert math.isfinite(current.llr), counts
    all_wins = status([0] * (size - 1) + [1000], values, hypotheses)
    all_losses = status([1000] + [0] * (size - 1), values, hypotheses)
    assert all_wins.llr > 0 > all_losses.llr
    if elo0 < 0 < elo1:
        assert (all_wins.verdict, all_losses.verdict) == ("H1", "H0")


TRI = block_values(1)  # loss, draw, win: a solo block, or a single game


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "elo0", "elo1", "expected"),
    [
        # fastchess's published trinomial test values (logistic model), to 2 decimals
        (21404, 21184, 40708, 0.5, 2.5, -1.57),
        (57433, 57030, 106593, 0.0, 2.0, -2.59),
    ],
)
def test_llr_matches_published_trinomial_values(
    wins: int, losses: int, draws: int, elo0: float, elo1: float, expected: float
) -> None:
    assert llr([losses, draws, wins], TRI, elo0, elo1) == pytest.approx(expected, abs=0.01)


def test_llr_of_a_trinomial_example_computed_by_hand() -> None:
    """L 2, D 3, W 5: mean 0.65, and elo1 scores 0.65, so H1's distribution is
    the observed one. Under H0 (0.5), 0.2 (-0.5) / (1 - theta/2) + 0.5 (0.5) /
    (1 + theta/2) = 0 gives theta = 6/7, so p0 = (0.35, 0.3, 0.35) and
    LLR = 2 log(0.2/0.35) + 3 log(0.3/0.3) + 5 log(0.5/0.35)."""
    elo1 = 400 * math.log10(0.65 / 0.35)
    by_hand = 2 * math.log(4 / 7) + 5 * math.log(10 / 7)
    assert by_hand == pytest.approx(0.6641431, abs=1e-7)
    assert llr([2, 3, 5], TRI, 0.0, elo1) == pytest.approx(by_hand, rel=1e-9)


def _bisected_mle(values: tuple[float, ...], f: list[float], s: float) -> list[float]:
    """The constrained maximum by plain bisection on theta (no Newton steps)."""
    d = [a - s for a in values]
    low, high = -1 / max(d) + 1e-15, -1 / min(d) - 1e-15
    for _ in range(200):
        mid = (low + high) / 2
        g = sum(fi * di / (1 + mid * di) for fi, di in zip(f, d, strict=True))
        low, high = (mid, high) if g > 0 else (low, mid)
    return [fi / (1 + low * di) for fi, di in zip(f, d, strict=True)]


@pytest.mark.parametrize(
    ("counts", "values"),
    [([0, 100, 0], TRI), ([0, 0, 40, 0, 0], PENTA), ([0, 0, 0, 0, 7], PENTA), ([3, 0, 0], TRI)],
)
def test_all_draws_and_one_sided_tables_follow_the_regularised_reference(
    counts: list[int], values: tuple[float, ...]
) -> None:
    """An empty value counts 1e-3 (as fastchess regularises), then the reference
    formula by bisection. All draws sit at elo0 = 0, so the LLR leans to H0."""
    regular = [c if c else 1e-3 for c in counts]
    total = sum(regular)
    f = [c / total for c in regular]
    p0 = _bisected_mle(values, f, elo_to_score(0.0))
    p1 = _bisected_mle(values, f, elo_to_score(10.0))
    expected = total * sum(fi * math.log(b / a) for fi, a, b in zip(f, p0, p1, strict=True))
    assert llr(counts, values, 0.0, 10.0) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    if counts[len(counts) // 2]:
        assert expected < 0


def test_no_block_decides_nothing() -> None:
    current = status([0, 0, 0, 0, 0], PENTA, SprtHypotheses(0.0, 10.0))
    assert (current.llr, current.blocks, current.verdict) == (0.0, 0, "continue")


def test_drawn_pairs_accept_h0_at_the_102nd_as_the_docs_say() -> None:
    hypotheses = SprtHypotheses(0.0, 10.0)
    assert llr([0, 0, 1, 0, 0], PENTA, 0.0, 10.0) == pytest.approx(-0.025, abs=5e-4)
    assert llr([0, 0, 100, 0, 0], PENTA, 0.0, 10.0) == pytest.approx(-2.911, abs=5e-4)
    assert status([0, 0, 101, 0, 0], PENTA, hypotheses).verdict == "continue"
    assert status([0, 0, 102, 0, 0], PENTA, hypotheses).verdict == "H0"
