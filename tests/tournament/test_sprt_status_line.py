"""The SPRT's status line (`tournament sprt`, the report's SPRT line) as a user
reads it: an infinite Elo says what it means, and no block is no estimate."""

from __future__ import annotations

import re

import pytest

from tournament.config import SprtSettings
from tournament.sprt import SprtHypotheses, block_values, status
from tournament.sprt_blocks import format_status

PENTA = block_values(2)
SETTINGS = SprtSettings(candidate="new", baseline="old")
HYPOTHESES = SprtHypotheses(SETTINGS.elo0, SETTINGS.elo1, SETTINGS.alpha, SETTINGS.beta)


def _elo_part(counts: list[int]) -> str:
    line = format_status(SETTINGS, status(counts, PENTA, HYPOTHESES), 2 * sum(counts))
    return line.split("), ", 1)[1]


def test_no_block_yet_claims_no_elo() -> None:
    """It once read "Elo +0.0 [-inf, +inf]", an estimate from nothing."""
    assert _elo_part([0, 0, 0, 0, 0]) == "0 games (0 blocks), Elo: none yet (no complete block)"


@pytest.mark.parametrize(
    ("counts", "pattern"),
    [
        ([0, 0, 0, 0, 2], r"Elo \+inf \[-\d+\.\d, \+inf\] \(every block won\)"),
        ([3, 0, 0, 0, 0], r"Elo -inf \[-inf, \+\d+\.\d\] \(every block lost\)"),
    ],
)
def test_an_infinite_elo_says_why(counts: list[int], pattern: str) -> None:
    assert re.fullmatch(r"\d+ games \(\d blocks\), " + pattern, _elo_part(counts))


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # Mean block score 4.5 / 7; variance 0.357143 / 7; half width
        # 1.959964 * sqrt(0.051020 / 7) = 0.167332; each end mapped by
        # -400 log10(1 / s - 1).
        ([0, 1, 2, 3, 1], "14 games (7 blocks), Elo +102.1 [-17.0, +252.1]"),
        # An even score: 0.5 +- 1.959964 * sqrt(0.125 / 4). Its Elo,
        # -400 log10(1), is -0.0 in floating point and must read +0.0.
        ([1, 0, 2, 0, 1], "8 games (4 blocks), Elo +0.0 [-296.6, +296.6]"),
    ],
)
def test_a_finite_elo_reads_as_worked_by_hand(counts: list[int], expected: str) -> None:
    assert _elo_part(counts) == expected
