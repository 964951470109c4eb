"""The SPRT beyond what fastchess publishes for 2 players: its Elo estimate
against fastchess's own pentanomial figures, and the LLR of 3- and 4-player
blocks (13 and 17 block values) against the generalized LLR written out here
from fastchess's sprt.cpp (getLLR_logistic: every value counted, an empty one
as 1e-3 of a block; p_i = f_i / (1 + theta (a_i - s)), theta the root of
sum_i f_i (a_i - s) / (1 + theta (a_i - s)), solved here by plain bisection
rather than fastchess's ITP to 1e-3, which moves its LLR by up to 2e-3)."""

from __future__ import annotations

import math

import pytest

from tournament.sprt import block_values, elo_estimate, llr


@pytest.mark.parametrize(
    ("penta", "elo", "error"),
    [
        # fastchess app/tests/elo_test.cpp, Stats(LL, LD, WL, DD, WD, WW): diff() and error()
        ((34, 54, 31, 32, 64, 75), 55.58, 27.65),
        ((332, 433, 457, 41, 333, 334), -8.64, 10.33),
        ((7895, 8757, 5485, 200, 568, 9999), -21.04, 2.95),
    ],
)
def test_the_elo_estimate_is_fastchess_pentanomial_one(
    penta: tuple[int, ...], elo: float, error: float
) -> None:
    ll, ld, wl, dd, wd, ww = penta
    estimate, low, high = elo_estimate([ll, ld, wl + dd, wd, ww], block_values(2))
    # fastchess's error is half the interval's width on the Elo scale
    assert (round(estimate, 2), round((high - low) / 2, 2)) == (elo, error)


def _reference_llr(counts: list[int], values: tuple[float, ...], elo0: float, elo1: float) -> float:
    regular = [count if count else 1e-3 for count in counts]
    total = sum(regular)
    f = [count / total for count in regular]

    def maximum(elo: float) -> list[float]:
        s = 1 / (1 + 10 ** (-elo / 400))
        low, high = -1 / (values[-1] - s), -1 / (values[0] - s)
        for _ in range(300):
            mid = (low + high) / 2
            if mid in (low, high):
                break
            g = sum(fi * (a - s) / (1 + mid * (a - s)) for fi, a in zip(f, values, strict=True))
            low, high = (mid, high) if g > 0 else (low, mid)
        theta = (low + high) / 2
        return [fi / (1 + theta * (a - s)) for fi, a in zip(f, values, strict=True)]

    p0, p1 = maximum(elo0), maximum(elo1)
    return total * sum(fi * math.log(b / a) for fi, a, b in zip(f, p0, p1, strict=True))


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("hypotheses", [(0.0, 10.0), (-300.0, 300.0), (-1000.0, 1000.0)])
@pytest.mark.parametrize(
    "shape",
    ["one block", "all drawn", "all won", "centred", "leaning to the candidate"],
)
def test_the_llr_of_blocks_of_several_players_is_the_reference(
    players: int, hypotheses: tuple[float, float], shape: str
) -> None:
    values = block_values(2 * players)  # a block: 2k games, one comparison each
    middle = len(values) // 2
    counts = [0] * len(values)
    if shape == "one block":
        counts[middle + 1] = 1
    elif shape == "all drawn":
        counts[middle] = 40
    elif shape == "all won":
        counts[-1] = 12
    else:
        peak = middle if shape == "centred" else middle + 3
        for j in range(len(values)):
            counts[j] = max(0, 9 - 2 * abs(j - peak))
    elo0, elo1 = hypotheses
    expected = _reference_llr(counts, values, elo0, elo1)
    assert llr(counts, values, elo0, elo1) == pytest.approx(expected, rel=1e-9, abs=1e-9)
