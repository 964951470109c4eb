"""The SPRT stops on reaching a bound, not only on passing it.

Wald's test accepts H1 when LLR >= log((1 - beta) / alpha) and H0 when
LLR <= log(beta / (1 - alpha)), and fastchess's `SPRT::getResult`
(app/src/matchmaking/sprt/sprt.cpp) compares the same way, `llr >= upper_`
and `llr <= lower_`; docs/tournament.md states the same. An LLR exactly on
a bound needs error rates picked for it: the tests below take the LLR of a
table and search the floats next to the error rate that puts the bound there
until the bound is that LLR to the last bit.
"""

from __future__ import annotations

import math

from tournament.sprt import SprtHypotheses, block_values, llr, status

PENTA = block_values(2)
TRI = block_values(1)


def _on_the_bound(rate: float, bound: str, value: float, **fixed: float) -> SprtHypotheses:
    """Hypotheses (elo0 0, elo1 10) whose `bound` ("upper" or "lower") is
    exactly `value`, the free error rate searched float by float around `rate`."""
    candidates = [rate]
    up = down = rate
    for _ in range(2000):
        up, down = math.nextafter(up, 1.0), math.nextafter(down, 0.0)
        candidates += [up, down]
    for candidate in candidates:
        hypotheses = SprtHypotheses(
            0.0, 10.0, **fixed, **{"alpha" if bound == "upper" else "beta": candidate}
        )
        if getattr(hypotheses, bound) == value:
            return hypotheses
    raise AssertionError(f"no error rate puts the {bound} bound at {value!r}")


def test_an_llr_exactly_on_the_upper_bound_accepts_h1() -> None:
    counts = [0, 0, 2, 4, 30]  # won pairs mostly: LLR above 0
    value = llr(counts, PENTA, 0.0, 10.0)
    assert value > 0
    beta = 0.05
    hypotheses = _on_the_bound((1.0 - beta) / math.exp(value), "upper", value, beta=beta)
    current = status(counts, PENTA, hypotheses)
    assert current.llr == current.upper == value
    assert current.verdict == "H1"


def test_an_llr_exactly_on_the_lower_bound_accepts_h0() -> None:
    counts = [30, 20, 10]  # lost games mostly: LLR below 0
    value = llr(counts, TRI, 0.0, 10.0)
    assert value < 0
    alpha = 0.05
    hypotheses = _on_the_bound((1.0 - alpha) * math.exp(value), "lower", value, alpha=alpha)
    current = status(counts, TRI, hypotheses)
    assert current.llr == current.lower == value
    assert current.verdict == "H0"
