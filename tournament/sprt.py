"""The sequential probability ratio test (SPRT) on block scores: pure math.

A *block* is the set of games played on one seed: for 2 players the pair of
seat-swapped games, for k >= 3 players the k seat rotations twice, the second
time with the two tested bots trading seats (2k games), solo the one deal
both bots play. Its score is the candidate's mean head-to-head score against
the baseline over the block's games (1 for a better rank or higher solo score,
0.5 for equal, 0 for worse), so it takes the values j / (2m), j = 0..2m, with m
comparisons per block. For 2 players that is the pentanomial model (0, 1/4,
1/2, 3/4, 1: LL, LD, DD or WL, WD, WW) used by fastchess and fishtest; solo it
is a trinomial. Blocks are independent (different seeds) while the games of
one block are not (same deal), which is why the block, not the game, is the
unit.

The test is the generalized SPRT with the logistic (BayesElo-free) model:
H0 says the expected block score is s0 = score(elo0), H1 says s1 = score(elo1),
where score(e) = 1 / (1 + 10^(-e/400)). Under each hypothesis the distribution
over the block values is the maximum-likelihood one with that mean, given
the observed frequencies (p_i = f_i / (1 + theta (a_i - s)), theta chosen so the
mean is s), and the log-likelihood ratio is N * sum_i f_i log(p1_i / p0_i).
Wald's bounds: stop for H0 when LLR <= log(beta / (1 - alpha)), for H1 when
LLR >= log((1 - beta) / alpha). An empty block value counts as 1e-3 of a block
so the constrained maximum exists from the first block on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "SprtHypotheses",
    "SprtStatus",
    "block_values",
    "constrained_mle",
    "elo_estimate",
    "elo_to_score",
    "llr",
    "score_to_elo",
    "status",
]

EMPTY_BIN = 1e-3
Verdict = Literal["H0", "H1", "continue"]


@dataclass(frozen=True, slots=True)
class SprtHypotheses:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError("alpha + beta must be below 1")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)


@dataclass(frozen=True, slots=True)
class SprtStatus:
    llr: float
    lower: float
    upper: float
    blocks: int
    verdict: Verdict
    elo: float  # the candidate's Elo over the baseline, from the mean block score
    elo_low: float  # 95% interval
    elo_high: float


def block_values(comparisons: int) -> tuple[float, ...]:
    """The scores a block of `comparisons` head-to-head results can take."""
    if comparisons < 1:
        raise ValueError("a block has at least one comparison")
    return tuple(j / (2 * comparisons) for j in range(2 * comparisons + 1))


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """The Elo difference expected to score `score`; infinite at 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: never -0.0


def _frequencies(counts: Sequence[float]) -> tuple[float, list[float]]:
    regular = [count if count > 0 else EMPTY_BIN for count in counts]
    total = sum(regular)
    return total, [count / total for count in regular]


def constrained_mle(
    values: Sequence[float], frequencies: Sequence[float], mean: float
) -> list[float]:
    """The distribution over `values` closest in likelihood to `frequencies`
    whose expectation is `mean` (all frequencies positive, min(values) < mean <
    max(values)).

    Stationarity of the Lagrangian gives p_i = f_i / (1 + theta (a_i - mean)),
    where theta is the root of g(theta) = sum_i f_i (a_i - mean) / (1 + theta
    (a_i - mean)). g falls from +inf to -inf over the interval where every
    p_i is positive, so Newton steps kept inside a shrinking bracket find it.
    """
    deviations = [value - mean for value in values]
    low = -1.0 / max(deviations)
    high = -1.0 / min(deviations)
    theta = 0.0
    for _ in range(200):
        g = slope = 0.0
        for f, d in zip(frequencies, deviations, strict=True):
            term = d / (1.0 + theta * d)
            g += f * term
            slope -= f * term * term
        if g > 0:
            low = theta
        else:
            high = theta
        if abs(g) < 1e-14:
            break
        step = theta - g / slope
        theta = step if low < step < high else 0.5 * (low + high)
        if high - low < 1e-15 * max(1.0, abs(theta)):
            break
    return [f / (1.0 + theta * d) for f, d in zip(frequencies, deviations, strict=True)]


def llr(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (elo1) against H0 (elo0)."""
    if len(counts) != len(values):
        raise ValueError("one count per block value")
    if not any(counts):
        return 0.0
    total, frequencies = _frequencies(counts)
    p0 = constrained_mle(values, frequencies, elo_to_score(elo0))
    p1 = constrained_mle(values, frequencies, elo_to_score(elo1))
    return total * sum(
        f * (math.log(b) - math.log(a)) for f, a, b in zip(frequencies, p0, p1, strict=True)
    )


Z95 = 1.959964


def elo_estimate(counts: Sequence[float], values: Sequence[float]) -> tuple[float, float, float]:
    """The candidate's Elo from the mean block score, with a 95% interval from
    the blocks' variance (normal approximation on the score, then mapped to Elo).

    While every block has scored the same, their variance is zero and says
    nothing yet: two won blocks would give [+inf, +inf]. The interval is then
    Wilson's, from the widest variance a score in [0, 1] with that mean can
    have, p (1 - p)."""
    blocks = sum(counts)
    if not blocks:
        return 0.0, -math.inf, math.inf
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / blocks
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, values, strict=True)) / blocks
    if sum(1 for c in counts if c) == 1:
        low, high = _wilson(mean, blocks)
    else:
        half = Z95 * math.sqrt(variance / blocks)
        low, high = mean - half, mean + half
    return score_to_elo(mean), score_to_elo(low), score_to_elo(high)


def _wilson(score: float, blocks: float) -> tuple[float, float]:
    """Wilson's 95% score interval for a mean `score` of `blocks` scores in [0, 1]."""
    z2 = Z95 * Z95 / blocks
    centre = (score + z2 / 2) / (1 + z2)
    half = Z95 / (1 + z2) * math.sqrt(score * (1 - score) / blocks + z2 / (4 * blocks))
    # At a score of 0 or 1 one bound is exactly that score; rounding would make it
    # finite on the Elo scale (+6261 for a bound a hair under 1).
    return (0.0 if score <= 0 else centre - half), (1.0 if score >= 1 else centre + half)


def status(
    counts: Sequence[float], values: Sequence[float], hypotheses: SprtHypotheses
) -> SprtStatus:
    value = llr(counts, values, hypotheses.elo0, hypotheses.elo1)
    verdict: Verdict = "continue"
    if value >= hypotheses.upper:
        verdict = "H1"
    elif value <= hypotheses.lower:
        verdict = "H0"
    elo, low, high = elo_estimate(counts, values)
    return SprtStatus(
        llr=value,
        lower=hypotheses.lower,
        upper=hypotheses.upper,
        blocks=int(sum(counts)),
        verdict=verdict,
        elo=elo,
        elo_low=low,
        elo_high=high,
    )
