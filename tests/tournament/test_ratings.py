"""Ratings: pairwise decomposition, Bradley-Terry fit, bootstrap intervals, Elo updates."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from tournament import ratings
from tournament.ratings import (
    LiveElo,
    Pair,
    fit_elo,
    mean_interval,
    pairwise,
    rate,
    signed_elo,
    totals,
)

TRUE_ELO = {"a": 0.0, "b": 100.0, "c": 200.0, "d": 400.0}


def _simulated_games(rounds: int, seed: int) -> list[tuple[Pair, ...]]:
    """Two-player games between every pair, won with the Elo-model probability."""
    rng = random.Random(seed)
    bots = list(TRUE_ELO)
    games = []
    for _ in range(rounds):
        for i, a in enumerate(bots):
            for b in bots[i + 1 :]:
                expected = 1.0 / (1.0 + 10 ** ((TRUE_ELO[b] - TRUE_ELO[a]) / 400.0))
                ranks = (1, 2) if rng.random() < expected else (2, 1)
                games.append(pairwise((a, b), ranks))
    return games


def test_fit_recovers_known_strengths_inside_the_intervals() -> None:
    games = _simulated_games(rounds=200, seed=11)
    ratings = {r.bot: r for r in rate(list(TRUE_ELO), games, anchor="a", samples=300, seed=3)}
    assert [r for r in ratings] and list(ratings) == ["d", "c", "b", "a"]
    for bot, true in TRUE_ELO.items():
        rating = ratings[bot]
        assert rating.low <= true <= rating.high, (bot, rating)
        assert abs(rating.elo - true) < 60, (bot, rating)
    assert ratings["a"].elo == 0.0
    # neighbours 100+ Elo apart over 600 games each: superiority is nearly certain
    assert ratings["d"].los_next is not None and ratings["d"].los_next > 0.95
    assert ratings["a"].los_next is None


def test_fit_does_not_depend_on_game_order_and_mean_anchor_is_zero() -> None:
    games = _simulated_games(rounds=30, seed=5)
    shuffled = games[:]
    random.Random(1).shuffle(shuffled)
    bots = list(TRUE_ELO)
    first = fit_elo(totals(bots, games))
    second = fit_elo(totals(bots, shuffled))
    assert first == pytest.approx(second, abs=1e-6)
    assert sum(first) == pytest.approx(0.0, abs=1e-6)


def test_equal_results_give_equal_ratings_and_a_sweep_stays_finite() -> None:
    even = [pairwise(("x", "y"), (1, 2)), pairwise(("x", "y"), (2, 1))]
    x, y = fit_elo(totals(["x", "y"], even))
    assert x == pytest.approx(y, abs=1e-9)
    sweep = [pairwise(("x", "y"), (1, 2))] * 10
    x, y = fit_elo(totals(["x", "y"], sweep), anchor="y")
    assert y == 0.0 and 200 < x < 2000


def test_a_perfect_order_of_many_bots_fits_to_finite_ratings() -> None:
    """Eight bots, each beating every bot listed after it 192 times: a trial step of
    the fit parts the ends by thousands of Elo, where the winning chance rounds to
    exactly 1 and its logarithm's complement was a math domain error (in the report
    and in the runner's live Elo alike)."""
    bots = [f"bot{i}" for i in range(8)]
    games = [
        pairwise((bots[i], bots[j]), (1, 2))
        for i in range(len(bots))
        for j in range(i + 1, len(bots))
        for _ in range(192)
    ]
    elo = fit_elo(totals(bots, games))
    assert all(math.isfinite(value) for value in elo)
    assert list(elo) == sorted(elo, reverse=True)
    assert elo[0] - elo[-1] > 2000


def test_three_player_game_is_three_pairs_weighted_one_half() -> None:
    pairs = pairwise(("a", "b", "c"), (2, 1, 3))
    assert [(p.a, p.b, p.score) for p in pairs] == [
        ("a", "b", 0.0),
        ("a", "c", 1.0),
        ("b", "c", 1.0),
    ]
    assert all(p.weight == pytest.approx(0.5) for p in pairs)


def test_four_player_game_with_a_tie_is_six_pairs_weighted_one_third() -> None:
    pairs = pairwise(("a", "b", "c", "d"), (1, 3, 1, 4))
    outcome = {(p.a, p.b): p.score for p in pairs}
    assert outcome == {
        ("a", "b"): 1.0,
        ("a", "c"): 0.5,
        ("a", "d"): 1.0,
        ("b", "c"): 0.0,
        ("b", "d"): 1.0,
        ("c", "d"): 1.0,
    }
    assert all(p.weight == pytest.approx(1 / 3) for p in pairs)
    # every player's pairs weigh 1 in total, like one two-player game
    table = totals(["a", "b", "c", "d"], [pairs])
    assert [sum(row) for row in table.games] == pytest.approx([1.0, 1.0, 1.0, 1.0])
    assert sum(table.points[0]) == pytest.approx((1 + 0.5 + 1) / 3)


def test_live_elo_is_the_report_fit_anchored_like_the_report() -> None:
    """The live figures after the last game are the final table's, not a K-factor scale."""
    games = _simulated_games(rounds=20, seed=5)
    live = LiveElo(list(TRUE_ELO), anchor="a")
    for game in games:
        after = live.update(game)
    final = fit_elo(totals(list(TRUE_ELO), games), anchor="a")
    assert after == {
        bot: pytest.approx(value, abs=1e-6) for bot, value in zip(TRUE_ELO, final, strict=True)
    }
    assert after["a"] == 0.0 and after["d"] > 200  # anchored, on the Elo scale


def test_live_elo_leaves_out_games_of_bots_outside_the_field() -> None:
    live = LiveElo(["a", "b"])
    before = live.update(pairwise(("a", "b"), (1, 2)))
    assert before["a"] > 0 > before["b"] and before["a"] == pytest.approx(-before["b"])
    assert live.update(pairwise(("a", "gone"), (2, 1))) == before


def test_live_elo_gives_a_bot_without_games_no_figure_as_the_report_does() -> None:
    """A bot not yet played (new to a ladder) showed a live +0, and its 0 moved
    the mean the others are anchored at (and an anchor without a game pinned
    everyone to it): the live figures were not the report's."""
    games = [pairwise(("a", "b"), (1, 2)), pairwise(("b", "a"), (1, 1))]
    live = LiveElo(["a", "b", "new"], anchor="new")
    for game in games:
        after = live.update(game)
    (a, b) = fit_elo(totals(["a", "b"], games))
    assert after == {"a": pytest.approx(a), "b": pytest.approx(b)}
    assert after["a"] == pytest.approx(-after["b"]) and after["a"] > 0
    assert LiveElo(["a", "b"]).refit() == {}, "no game, no figure"


def test_mean_interval_uses_student_t() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    # t(3) = 3.182446, sd = 1.291, n = 4
    assert high - mean == pytest.approx(3.182446 * 1.2909944 / 2, rel=1e-6)
    assert mean - low == pytest.approx(high - mean)
    assert mean_interval([5.0]) == (5.0, None, None), "one value gives no interval, not a point"


def test_the_bootstrap_reports_each_refit_and_the_same_ratings_with_or_without() -> None:
    games = _simulated_games(rounds=5, seed=2)
    seen: list[tuple[int, int]] = []
    followed = rate(list(TRUE_ELO), games, samples=40, seed=1, on_samples=lambda *s: seen.append(s))
    assert seen == [(done, 40) for done in range(41)]
    assert followed == rate(list(TRUE_ELO), games, samples=40, seed=1)


@pytest.mark.parametrize("anchor", [None, "loser"])
def test_a_perfect_record_gets_an_interval_of_real_width(anchor: str | None) -> None:
    """Every bootstrap resample of 8 wins out of 8 is 8 out of 8: the percentiles
    alone gave [+274, +274], certainty from eight games. The interval now also
    spans the likelihood's own 95% normal approximation."""
    games = [pairwise(("winner", "loser"), (1, 2)) for _ in range(8)]
    ratings = {r.bot: r for r in rate(["winner", "loser"], games, anchor=anchor, samples=200)}
    winner, loser = ratings["winner"], ratings["loser"]
    assert winner.low < winner.elo < winner.high
    assert winner.high - winner.low > 200, winner
    if anchor == "loser":
        assert (loser.low, loser.elo, loser.high) == (0.0, 0.0, 0.0), (
            "the anchor is 0 by definition"
        )
    else:
        assert loser.low < loser.elo < loser.high


def test_mixed_results_keep_the_bootstrap_interval_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The widening is for records every resample repeats; where the games are
    mixed the bootstrap interval is already the wider and stays exactly as it was."""
    games = _simulated_games(rounds=30, seed=5)
    widened = rate(list(TRUE_ELO), games, anchor="a", samples=300, seed=3)
    monkeypatch.setattr(ratings, "_normal_half_widths", lambda *args: [0.0] * len(TRUE_ELO))
    bootstrap_only = rate(list(TRUE_ELO), games, anchor="a", samples=300, seed=3)
    assert widened == bootstrap_only
    perfect = [pairwise(("winner", "loser"), (1, 2)) for _ in range(8)]
    (top, _) = rate(["winner", "loser"], perfect, samples=200)
    assert top.high - top.low < 1e-6, "without the widening a perfect record has no width"


def test_an_elo_that_rounds_to_zero_is_plus_zero() -> None:
    assert [signed_elo(v) for v in (-0.3, 0.0, 0.4, -0.6, 547.5)] == [
        "+0",
        "+0",
        "+0",
        "-1",
        "+548",
    ]


def test_a_resample_with_equal_records_counts_half_towards_the_los() -> None:
    """Five wins and a loss in six games: a resample with three wins each rates
    the two bots equal, which counts half. Refitted from the full fit's ratings,
    such a tie came out as +4e-15 against -4e-15 (or the other way round) and
    counted as a whole win or a whole loss: LOS 93.3% here, where the bootstrap
    says 96.5%."""
    games = [pairwise(("a", "b"), (1, 2))] * 5 + [pairwise(("a", "b"), (2, 1))]
    (leader, _) = rate(["a", "b"], games, samples=4000, seed=7)
    # Bootstrap wins of a in six draws ~ Binomial(6, 5/6): P(w >= 4) + P(w = 3) / 2.
    p = 5 / 6
    share = [math.comb(6, w) * p**w * (1 - p) ** (6 - w) for w in range(7)]
    expected = sum(share[4:]) + share[3] / 2
    assert leader.los_next is not None
    assert abs(leader.los_next - expected) < 0.01, (leader.los_next, expected)


def test_equal_elos_are_ordered_by_name_not_by_rounding_noise() -> None:
    """a and b have the same results (each beat p once and lost once), so the
    same Elo; their fits differ by 1e-14, which ordered b before a."""
    games = [pairwise(["o", "p"], [1, 2])] * 3 + [pairwise(["p", "o"], [1, 2])]
    for bot in ("a", "b"):
        games += [pairwise([bot, "p"], [1, 2]), pairwise(["p", bot], [1, 2])]
    ratings = rate(["o", "b", "p", "a"], games, samples=20)
    assert [rating.bot for rating in ratings] == ["o", "a", "b", "p"]
    assert ratings[1].elo == pytest.approx(ratings[2].elo, abs=1e-9)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _normal_los_of_one_sided_record(wins: int) -> float:
    """LOS of a bot that beat another `wins` times out of `wins`, by the normal
    approximation of the fit (prior included), worked out for two bots: by
    symmetry they rate +t and -t (natural-log odds units), where t solves
    wins (1 - s(2t)) + 1/2 - s(t) = 0 (the winner's gradient, its virtual draw
    against the phantom at 0 included). The information matrix is
    [[p, -q], [-q, p]] with q = wins s(2t)(1 - s(2t)) and p = q + s(t)(1 - s(t)),
    so the difference 2t has variance 2 / (p + q)."""
    low, high = 0.0, 20.0
    for _ in range(200):
        t = (low + high) / 2
        if wins * (1 - _sigmoid(2 * t)) + 0.5 - _sigmoid(t) > 0:
            low = t
        else:
            high = t
    q = wins * _sigmoid(2 * t) * (1 - _sigmoid(2 * t))
    p = q + _sigmoid(t) * (1 - _sigmoid(t))
    z = 2 * t / math.sqrt(2 / (p + q))
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


@pytest.mark.parametrize("wins", [1, 3, 8, 10])
def test_a_record_every_resample_repeats_gets_the_normal_los(wins: int) -> None:
    """One game won (or a few, never lost): every resample repeats the record, so
    every refit rated the winner higher and the report said LOS "> 99%" after a
    single game, while its interval, widened to the normal approximation,
    overlapped the loser's. The LOS comes from the same normal approximation then:
    78% after one game (the textbook 1-0 LOS without a prior is 84%)."""
    games = [pairwise(("winner", "loser"), (1, 2))] * wins
    (top, _) = rate(["winner", "loser"], games, samples=200)
    assert top.los_next == pytest.approx(_normal_los_of_one_sided_record(wins), abs=1e-6)
    assert _normal_los_of_one_sided_record(1) == pytest.approx(0.778, abs=0.001)
    # docs/tournament.md: a 10-0 record reads 98% (not the textbook 99.9%)
    assert _normal_los_of_one_sided_record(10) == pytest.approx(0.982, abs=0.001)


def _t_quantile_975(df: int) -> float:
    """Student's t 97.5th percentile, computed independently: Newton's method on
    the t distribution's CDF, integrated from its density by Simpson's rule."""

    def density(x: float) -> float:
        log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
        return math.exp(log_norm - (df + 1) / 2 * math.log1p(x * x / df))

    def cdf(t: float, steps: int = 4000) -> float:
        h = t / steps
        inner = sum((4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
        return 0.5 + h / 3 * (density(0.0) + inner + density(t))

    t = 1.96
    for _ in range(30):
        step = (cdf(t) - 0.975) / density(t)
        t -= step
        if abs(step) < 1e-12:
            break
    return t


@pytest.mark.parametrize("df", [1, 2, 3, 5, 9, 17, 29, 30, 31, 35, 40, 60, 120, 1000])
def test_mean_interval_uses_students_t_to_five_digits(df: int) -> None:
    """The interval's multiplier is t(0.975, n - 1) to 1e-5 relative. The table held
    three decimals (12.706 for 12.7062) and past 30 degrees of freedom the
    approximation 1.96 + 2.4/df was 0.1% short (2.0374 for 2.0395 at 31)."""
    values = [float(i % 2) for i in range(df + 1)]  # n = df + 1 values
    mean, low, high = mean_interval(values)
    assert low is not None and high is not None
    multiplier = (high - mean) * math.sqrt(len(values)) / statistics.stdev(values)
    assert multiplier == pytest.approx(_t_quantile_975(df), rel=1e-5)


def test_the_fit_is_zermelos_maximum_with_one_virtual_draw_per_bot() -> None:
    """An independent route to the same maximum: Zermelo's (Hunter's MM)
    iteration gamma_i = W_i / sum_j n_ij / (gamma_i + gamma_j), with a phantom
    of strength 1 (Elo 0) that every bot drew once (half a win, half a loss),
    on a 3-player game (pairs of weight 1/2) and two-player games."""
    games = [
        pairwise(("a", "b", "c"), (1, 2, 3)),
        pairwise(("a", "b", "c"), (2, 2, 1)),
        pairwise(("a", "b"), (1, 2)),
        pairwise(("b", "a"), (1, 2)),
        pairwise(("c", "a"), (1, 2)),
        pairwise(("b", "c"), (1, 1)),
    ]
    bots = ["a", "b", "c"]
    table = totals(bots, games)
    gamma = [1.0, 1.0, 1.0]
    for _ in range(20000):
        for i in range(3):
            wins = sum(table.points[i]) + 0.5
            denominator = 1.0 / (gamma[i] + 1.0) + sum(
                table.games[i][j] / (gamma[i] + gamma[j]) for j in range(3) if j != i
            )
            gamma[i] = wins / denominator
    elo = [400 * math.log10(g) for g in gamma]
    mean = statistics.fmean(elo)
    assert fit_elo(table) == pytest.approx([e - mean for e in elo], abs=1e-6)
    assert fit_elo(table, anchor="b") == pytest.approx([e - elo[1] for e in elo], abs=1e-6)


def test_the_bootstrap_interval_is_the_refits_interpolated_percentiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The interval is the 2.5th to 97.5th percentile of the refits, read between
    the two closest refits (numpy's default). Refits made up: a at -200, -100, 0,
    100, 200 (b the opposite). Among five sorted values the 2.5th percentile sits
    a tenth of the way from the first to the second (0.025 * 4 = 0.1), so
    -200 + 0.1 * 100 = -190; the 97.5th sits at 3.9, so 100 + 0.9 * 100 = 190.
    200 even games keep the normal interval far narrower, so nothing is widened."""
    refits = iter([(100.0, -100.0), (-200.0, 200.0), (0.0, 0.0), (200.0, -200.0), (-100.0, 100.0)])
    monkeypatch.setattr(ratings, "fit_elo", lambda *args, **kwargs: next(refits))
    games = [pairwise(("a", "b"), (1, 2)), pairwise(("a", "b"), (2, 1))] * 100
    by_bot = {r.bot: r for r in rate(["a", "b"], games, samples=5)}
    for bot in ("a", "b"):
        assert not by_bot[bot].widened
        assert by_bot[bot].low == pytest.approx(-190.0)
        assert by_bot[bot].high == pytest.approx(190.0)
