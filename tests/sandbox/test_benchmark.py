"""The sandbox benchmark measures something: every figure there, finite, consistent."""

from __future__ import annotations

import math

from benchmarks import report, sandbox


def test_sandbox_benchmark_produces_consistent_figures(sandbox_ready: None) -> None:
    result = sandbox.run(games_per_pairing=1, startups=2)
    assert result.games == 2 * sandbox.TURNS and result.decisions_per_game > 1
    assert result.startup_ms_sandboxed > 0 and result.startup_ms_plain > 0
    assert math.isclose(
        result.ratio, result.games_per_second_sandboxed / result.games_per_second_plain
    )
    assert math.isfinite(result.overhead_ms_per_decision)
    assert "overhead per decision" in report.sandbox(result)
