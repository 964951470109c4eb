"""Ratings from game results: pure functions, standard library only.

A k-player game counts as its k(k-1)/2 seat pairs: the better-ranked seat of a
pair wins, equal ranks draw, and each pair weighs 1/(k-1), so every game is
worth the same total to each player whatever k is (a two-player game is one
ordinary game).

`fit_elo` is the maximum-likelihood Bradley-Terry fit over all pairs at once
(like Ordo and BayesElo: the order of the games does not matter), on the Elo
scale (400 points = 10:1 odds). A weak prior of one virtual draw per bot against
a rating-0 phantom keeps a bot with only wins or only losses finite and makes
bots that never met comparable through the mean. `rate` adds 95% intervals by
bootstrap over games (or deals: the units it is given) and the likelihood of
superiority between neighbours.
`LiveElo` refits after every game, for live progress on the report's scale.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "ELO_SCALE",
    "LiveElo",
    "Pair",
    "PairTotals",
    "Rating",
    "fit_elo",
    "mean_interval",
    "pairwise",
    "rate",
    "rounded",
    "signed_elo",
    "totals",
]

ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of odds
PRIOR_DRAWS = 1.0
Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile
# Refits that differ by less than this many Elo points rate two bots equal: a
# resample with equal records fits to equal ratings only up to rounding (+4e-15
# against -4e-15), which must not decide the likelihood of superiority.
TIE_ELO = 1e-6


def rounded(value: float, digits: int) -> float:
    """`round`, but never -0.0: a figure at 0 up to the fit's rounding (-1e-14)
    once read -0.0 in JSON, CSV and the log."""
    return round(value, digits) + 0.0


@dataclass(frozen=True, slots=True)
class Pair:
    """One seat pair of a game: `score` is 1, 0.5 or 0 for `a` against `b`."""

    a: str
    b: str
    score: float
    weight: float


def pairwise(bots: Sequence[str], ranks: Sequence[int]) -> tuple[Pair, ...]:
    """The k(k-1)/2 pairs of a k-player game, by rank, each weighted 1/(k-1)."""
    if len(bots) != len(ranks):
        raise ValueError("one rank per seat")
    k = len(bots)
    if k < 2:
        return ()
    weight = 1.0 / (k - 1)
    pairs = []
    for i in range(k):
        for j in range(i + 1, k):
            if ranks[i] < ranks[j]:
                score = 1.0
            elif ranks[i] > ranks[j]:
                score = 0.0
            else:
                score = 0.5
            pairs.append(Pair(bots[i], bots[j], score, weight))
    return tuple(pairs)


@dataclass(slots=True)
class PairTotals:
    """Weighted games and points between every two bots (index by bot order)."""

    bots: tuple[str, ...]
    games: list[list[float]]  # games[i][j]: weighted games of i against j
    points: list[list[float]]  # points[i][j]: weighted points i scored against j


def totals(bots: Sequence[str], games: Iterable[Sequence[Pair]]) -> PairTotals:
    index = {bot: i for i, bot in enumerate(bots)}
    n = len(bots)
    played = [[0.0] * n for _ in range(n)]
    points = [[0.0] * n for _ in range(n)]
    for pairs in games:
        for pair in pairs:
            i, j = index[pair.a], index[pair.b]
            if i == j:
                continue
            played[i][j] += pair.weight
            played[j][i] += pair.weight
            points[i][j] += pair.weight * pair.score
            points[j][i] += pair.weight * (1.0 - pair.score)
    return PairTotals(tuple(bots), played, points)


def fit_elo(
    table: PairTotals,
    anchor: str | None = None,
    start: Sequence[float] | None = None,
    prior: float = PRIOR_DRAWS,
) -> tuple[float, ...]:
    """Maximum-likelihood Elo per bot (Newton's method with step halving).

    Anchored so that `anchor` is 0, or so the mean is 0 when no anchor is given.
    """
    n = len(table.bots)
    if n == 0:
        return ()
    theta = _fit_theta(table, start, prior)
    return _anchored([t * ELO_SCALE for t in theta], table.bots, anchor)


def _anchored(elo: Sequence[float], bots: Sequence[str], anchor: str | None) -> tuple[float, ...]:
    shift = elo[list(bots).index(anchor)] if anchor is not None else statistics.fmean(elo)
    return tuple(value - shift for value in elo)


def _fit_theta(table: PairTotals, start: Sequence[float] | None, prior: float) -> list[float]:
    """The maximum of the likelihood, prior included, in natural-log odds units:
    not shifted, since the prior's phantom at 0 fixes where the ratings lie."""
    n = len(table.bots)
    theta = [value / ELO_SCALE for value in start] if start is not None else [0.0] * n
    current = _log_likelihood(table, theta, prior)
    for _ in range(100):
        gradient, hessian = _derivatives(table, theta, prior)
        step = _solve(hessian, [-g for g in gradient])
        scale = 1.0
        while True:
            trial = [t + scale * s for t, s in zip(theta, step, strict=True)]
            value = _log_likelihood(table, trial, prior)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2.0
        theta, previous, current = trial, current, value
        if max(abs(scale * s) for s in step) < 1e-10 or abs(current - previous) < 1e-13:
            break
    return theta


def _covariance(table: PairTotals, theta: Sequence[float], prior: float) -> list[list[float]]:
    """The fit's covariance (natural-log odds units): the inverse of the
    likelihood's curvature at its maximum, prior included (which keeps it
    finite for a perfect record)."""
    _, hessian = _derivatives(table, theta, prior)
    return _inverse([[-value for value in row] for row in hessian])


def _normal_half_widths(
    covariance: Sequence[Sequence[float]], bots: Sequence[str], anchor: str | None
) -> list[float]:
    """Half the width, in Elo, of each bot's 95% normal-approximation interval:
    1.96 standard errors of its anchored rating, from the fit's `covariance`."""
    n = len(bots)
    a = bots.index(anchor) if anchor is not None else None
    row_mean = [statistics.fmean(row) for row in covariance]
    total_mean = statistics.fmean(row_mean)
    widths = []
    for i in range(n):
        if a is not None:
            variance = covariance[i][i] - 2.0 * covariance[i][a] + covariance[a][a]
        else:  # rating minus the mean of all ratings
            variance = covariance[i][i] - 2.0 * row_mean[i] + total_mean
        widths.append(Z_95 * math.sqrt(max(variance, 0.0)) * ELO_SCALE)
    return widths


def _normal_los(
    covariance: Sequence[Sequence[float]], theta: Sequence[float], i: int, j: int
) -> tuple[float, float]:
    """P(bot i is stronger than bot j) by the fit's normal approximation, and
    the standard error of their difference in Elo."""
    variance = covariance[i][i] - 2.0 * covariance[i][j] + covariance[j][j]
    error = math.sqrt(max(variance, 0.0))
    difference = theta[i] - theta[j]
    if error == 0.0:
        return _superiority(difference * ELO_SCALE), 0.0
    return 0.5 * (1.0 + math.erf(difference / (error * math.sqrt(2.0)))), error * ELO_SCALE


def _expected(difference: float) -> float:
    if difference >= 0:
        return 1.0 / (1.0 + math.exp(-difference))
    exp = math.exp(difference)
    return exp / (1.0 + exp)


def _log_expected(difference: float) -> float:
    """log(_expected(difference)), exact where _expected rounds to 0 or 1: a trial
    step of the fit may part two bots by thousands of Elo."""
    if difference >= 0:
        return -math.log1p(math.exp(-difference))
    return difference - math.log1p(math.exp(difference))


def _log_likelihood(table: PairTotals, theta: Sequence[float], prior: float) -> float:
    n = len(theta)
    total = 0.0
    for i in range(n):
        total += prior * 0.5 * (_log_expected(theta[i]) + _log_expected(-theta[i]))
        for j in range(i + 1, n):
            games = table.games[i][j]
            if games:
                difference = theta[i] - theta[j]
                won = table.points[i][j]
                total += won * _log_expected(difference)
                total += (games - won) * _log_expected(-difference)
    return total


def _derivatives(
    table: PairTotals, theta: Sequence[float], prior: float
) -> tuple[list[float], list[list[float]]]:
    n = len(theta)
    gradient = [0.0] * n
    hessian = [[0.0] * n for _ in range(n)]
    for i in range(n):
        p0 = _expected(theta[i])
        gradient[i] += prior * (0.5 - p0)
        hessian[i][i] -= prior * p0 * (1.0 - p0)
        for j in range(n):
            games = table.games[i][j]
            if i == j or not games:
                continue
            p = _expected(theta[i] - theta[j])
            gradient[i] += table.points[i][j] - games * p
            curvature = games * p * (1.0 - p)
            hessian[i][i] -= curvature
            hessian[i][j] += curvature
    return gradient, hessian


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """The x of matrix @ x = rhs."""
    return _solve_many(matrix, [rhs])[0]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a symmetric matrix (its columns are its rows)."""
    n = len(matrix)
    return _solve_many(matrix, [[1.0 if r == c else 0.0 for r in range(n)] for c in range(n)])


def _solve_many(matrix: list[list[float]], columns: list[list[float]]) -> list[list[float]]:
    """The solution for each right-hand side in `columns`: Gaussian elimination
    with partial pivoting (the Hessian is small and definite)."""
    n, k = len(matrix), len(columns)
    a = [[*row, *(column[r] for column in columns)] for r, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-300:
            raise ArithmeticError("singular system in the Elo fit")
        for row in range(col + 1, n):
            factor = a[row][col] / a[col][col]
            if factor:
                for c in range(col, n + k):
                    a[row][c] -= factor * a[col][c]
    solutions = []
    for j in range(n, n + k):
        x = [0.0] * n
        for row in range(n - 1, -1, -1):
            x[row] = (a[row][j] - sum(a[row][c] * x[c] for c in range(row + 1, n))) / a[row][row]
        solutions.append(x)
    return solutions


@dataclass(frozen=True, slots=True)
class Rating:
    bot: str
    elo: float
    low: float  # 95% interval, bootstrap percentiles
    high: float
    los_next: float | None  # P(this bot is stronger than the next one in the table)
    # The interval is (or, widened, covers) the fit's normal approximation, not
    # the bootstrap's percentiles alone: the resamples varied too little.
    widened: bool = False


def rate(
    bots: Sequence[str],
    games: Sequence[Sequence[Pair]],
    anchor: str | None = None,
    samples: int = 1000,
    seed: int = 0,
    on_samples: Callable[[int, int], None] | None = None,
) -> tuple[Rating, ...]:
    """Elo, 95% bootstrap interval and LOS to the next bot, strongest first.

    Each element of `games` is one unit of the bootstrap: a game's pairs, or
    the pairs of several games that are not independent (the report passes
    each deal's games together). The bootstrap draws `len(games)` units with
    replacement `samples` times (seeded, so a report is reproducible) and
    refits; the interval is the 2.5th to 97.5th percentile of each bot's
    refitted Elo, and the likelihood of superiority of a bot over the next one
    is the share of refits in which it rates higher (ties count half), or the
    normal approximation where refits cannot vary. `on_samples(done, samples)`
    is called with done 0 as the bootstrap starts and after each refit, for a
    progress display.
    """
    bots = tuple(bots)
    table = totals(bots, games)
    theta = _fit_theta(table, None, PRIOR_DRAWS) if bots else []
    best = _anchored([t * ELO_SCALE for t in theta], bots, anchor) if bots else ()
    draws: list[tuple[float, ...]] = []
    rng = random.Random(seed)
    if games:
        if on_samples is not None:
            on_samples(0, samples)
        for done in range(1, samples + 1):
            resample = [games[rng.randrange(len(games))] for _ in range(len(games))]
            draws.append(fit_elo(totals(bots, resample), anchor, start=best))
            if on_samples is not None:
                on_samples(done, samples)
    # The fit's curvature, inverted once: the intervals' and LOS's fallback both read it.
    covariance = _covariance(table, theta, PRIOR_DRAWS) if games else []
    widths = _normal_half_widths(covariance, table.bots, anchor) if games else []
    order = strongest_first(bots, best)
    ratings = []
    for position, i in enumerate(order):
        column = sorted(draw[i] for draw in draws)
        low, high = best[i], best[i]
        if column:
            low, high = _percentile(column, 0.025), _percentile(column, 0.975)
        widened = bool(widths) and high - low < widths[i]
        if widened:
            # Every resample of a perfect record (or of two groups that never
            # beat each other) repeats it: the bootstrap gives little or no
            # width. Under half the normal interval's width is that sign (with
            # mixed results the two are about as wide); such an interval is
            # widened to cover the normal one.
            low, high = min(low, best[i] - widths[i]), max(high, best[i] + widths[i])
        los = None
        if position + 1 < len(order) and draws:
            j = order[position + 1]
            wins = sum(_superiority(d[i] - d[j]) for d in draws)
            los = wins / len(draws)
            normal, error = _normal_los(covariance, theta, i, j)
            if statistics.pstdev(d[i] - d[j] for d in draws) < error / 2.0:
                # As for the interval: refits that cannot vary (a record every
                # resample repeats) all agree, which is no certainty; a single
                # won game read "> 99%".
                los = normal
        ratings.append(Rating(bots[i], best[i], low, high, los, widened))
    return tuple(ratings)


def strongest_first(bots: Sequence[str], elo: Sequence[float]) -> list[int]:
    """The bots' indexes by Elo, highest first; Elos within TIE_ELO of the
    first of their run are equal and ordered by name (not by rounding noise:
    two bots with the same results fit a few 1e-14 apart, either way)."""
    order = sorted(range(len(bots)), key=lambda i: (-elo[i], bots[i]))
    ranked: list[int] = []
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and elo[order[start]] - elo[order[end]] < TIE_ELO:
            end += 1
        ranked += sorted(order[start:end], key=lambda i: bots[i])
        start = end
    return ranked


def _superiority(difference: float) -> float:
    """1 for a higher rating, 1/2 for an equal one (up to rounding), 0 for lower."""
    if abs(difference) < TIE_ELO:
        return 0.5
    return 1.0 if difference > 0 else 0.0


def _percentile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    position = q * (len(ordered) - 1)
    lower = math.floor(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


class LiveElo:
    """The report's Elo, kept up to date game by game for live progress.

    After each game the Bradley-Terry fit is redone over every game so far
    (starting from the previous fit, so it takes a step or two), anchored as
    the report anchors it, so the live figures and the final table are on one
    scale. As in the report, games with a bot outside `bots` (removed from the
    field) are left out, and a bot without a game yet has no figure: it is
    neither fitted nor in the mapping, and an anchor without a game gives way
    to the mean.
    """

    def __init__(self, bots: Iterable[str], anchor: str | None = None) -> None:
        self.bots = tuple(bots)
        self.anchor = anchor if anchor in self.bots else None
        self._index = {bot: i for i, bot in enumerate(self.bots)}
        self._table = totals(self.bots, ())
        self._played: set[int] = set()
        self._elo: dict[str, float] = {}

    def add(self, pairs: Iterable[Pair]) -> bool:
        """Count a game without refitting (loading stored games); False if left out."""
        pairs = tuple(pairs)
        if not pairs or not all(p.a in self._index and p.b in self._index for p in pairs):
            return False
        for pair in pairs:
            i, j = self._index[pair.a], self._index[pair.b]
            self._played.update((i, j))
            self._table.games[i][j] += pair.weight
            self._table.games[j][i] += pair.weight
            self._table.points[i][j] += pair.weight * pair.score
            self._table.points[j][i] += pair.weight * (1.0 - pair.score)
        return True

    def refit(self) -> Mapping[str, float]:
        played = sorted(self._played)
        if not played:
            return {}
        bots = tuple(self.bots[i] for i in played)
        table = PairTotals(
            bots,
            [[self._table.games[i][j] for j in played] for i in played],
            [[self._table.points[i][j] for j in played] for i in played],
        )
        anchor = self.anchor if self.anchor in bots else None
        start = [self._elo.get(bot, 0.0) for bot in bots]
        self._elo = dict(zip(bots, fit_elo(table, anchor, start=start), strict=True))
        return dict(self._elo)

    def update(self, pairs: Iterable[Pair]) -> Mapping[str, float]:
        """Count a game and refit."""
        if self.add(pairs):
            return self.refit()
        return dict(self._elo)


# Student's t 97.5th percentiles (two-sided 95%) by degrees of freedom, 1..30,
# to six decimals; past 30 `_t975` uses the Cornish-Fisher expansion.
_T975 = (
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582,
    2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
    2.200985, 2.178813, 2.160369, 2.144787, 2.131450,
    2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
    2.079614, 2.073873, 2.068658, 2.063899, 2.059539,
    2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
)  # fmt: skip


def _t975(df: int) -> float:
    """Student's t 97.5th percentile for `df` degrees of freedom: the table to
    30, then the Cornish-Fisher expansion around the normal's (Abramowitz and
    Stegun 26.7.5, four terms: within 1e-7 from 31 on). The former 1.96 +
    2.4/df was 0.1% short at 31 (2.0374 for 2.0395)."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z_95
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / df ** (power + 1) for power, term in enumerate(terms))


def signed_elo(value: float) -> str:
    """Whole Elo points with a sign; -0.3 is "+0", not "-0". Rounded from the
    tenth a report keeps (its JSON and CSV figure), as the report's table rounds
    it, so every Elo shown, live or in a report, is the same whole number: a
    fit of 223.496 is 223.5 in the data and +224 everywhere (the live line once
    said +223 while the final table said +224)."""
    return f"{round(round(value, 1)):+d}"


def mean_interval(values: Sequence[float]) -> tuple[float, float | None, float | None]:
    """Mean and its 95% confidence interval (Student t). One value gives no
    interval at all (None bounds), not the point [x, x] that claims certainty."""
    if not values:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None, None
    df = len(values) - 1
    t = _t975(df)
    half = t * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half
