"""The issue's targets, checked against results (reported, never asserted)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.engine import EngineResult
from benchmarks.memory import MemoryResult
from benchmarks.serving import LoadResult
from benchmarks.soak import SoakResult

ENGINE_DECISIONS_PER_SECOND = {
    "sheep-showdown": 20_000,
    "sheep-n-sheep": 20_000,
    "stubborn-sheep": 20_000,
    "sheep-and-garden": 5_000,
}
RATE_RATIO_AT_LEAST = 0.5  # server decisions/s over the baseline's
P99_RATIO_AT_MOST = 2.0  # server p99 over the baseline's
RATIO_LEVELS = (10, 100)
BYTES_PER_MATCH_AT_MOST = 200 * 1024
BENCH_SECONDS_AT_MOST = 300
# After the warm-up a server's memory is flat: allocator noise, not matches.
SOAK_RSS_GROWTH_PER_1000_AT_MOST = 2 * 1024 * 1024
# Connections come and go (a few files either way); a leak is one per match or more.
SOAK_OPEN_FILES_GROWTH_PER_1000_AT_MOST = 10.0


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    measured: float
    target: str
    met: bool


def engine_checks(results: Sequence[EngineResult]) -> list[Check]:
    """The slowest player count (default options) of each game against its target."""
    checks = []
    for game, target in ENGINE_DECISIONS_PER_SECOND.items():
        rates = [r.decisions_per_second for r in results if r.game == game and not r.options]
        if rates:
            worst = min(rates)
            checks.append(
                Check(
                    f"engine {game} decisions/s (slowest player count)",
                    worst,
                    f">= {target:,}",
                    worst >= target,
                )
            )
    return checks


def server_checks(results: Sequence[LoadResult]) -> list[Check]:
    checks = []
    for level in RATIO_LEVELS:
        server = next((r for r in results if r.target == "server" and r.matches == level), None)
        base = next((r for r in results if r.target == "baseline" and r.matches == level), None)
        if server is None or base is None:
            continue
        rate = server.decisions_per_second / base.decisions_per_second
        p99 = server.p99_ms / base.p99_ms
        checks.append(
            Check(
                f"server/baseline decisions/s at {level} matches",
                rate,
                f">= {RATE_RATIO_AT_LEAST}",
                rate >= RATE_RATIO_AT_LEAST,
            )
        )
        if server.server_cpu_ms_per_decision and base.server_cpu_ms_per_decision:
            # Robust on a busy machine: CPU per decision does not depend on who
            # else got the cores. A ratio of 0.5 means the server's own process
            # spends twice the baseline's CPU on each decision.
            cost = base.server_cpu_ms_per_decision / server.server_cpu_ms_per_decision
            checks.append(
                Check(
                    f"baseline/server CPU per decision at {level} matches",
                    cost,
                    f">= {RATE_RATIO_AT_LEAST}",
                    cost >= RATE_RATIO_AT_LEAST,
                )
            )
        checks.append(
            Check(
                f"server/baseline p99 at {level} matches",
                p99,
                f"<= {P99_RATIO_AT_MOST}",
                p99 <= P99_RATIO_AT_MOST,
            )
        )
    return checks


def memory_checks(results: Sequence[MemoryResult]) -> list[Check]:
    return [
        Check(
            f"KB per live match, {r.game} {r.players}p",
            r.bytes_per_match / 1024,
            f"<= {BYTES_PER_MATCH_AT_MOST // 1024}",
            r.bytes_per_match <= BYTES_PER_MATCH_AT_MOST,
        )
        for r in results
    ]


def duration_check(seconds: float) -> Check:
    return Check(
        "whole run, seconds", seconds, f"< {BENCH_SECONDS_AT_MOST}", seconds < BENCH_SECONDS_AT_MOST
    )


def soak_checks(result: SoakResult) -> list[Check]:
    checks = []
    growth = result.rss_growth_per_1000
    if growth is not None:
        checks.append(
            Check(
                "soak resident memory growth per 1,000 matches after warm-up (bytes)",
                growth,
                f"<= {SOAK_RSS_GROWTH_PER_1000_AT_MOST:,}",
                growth <= SOAK_RSS_GROWTH_PER_1000_AT_MOST,
            )
        )
    files = result.open_files_growth_per_1000
    if files is not None:
        checks.append(
            Check(
                "soak open files growth per 1,000 matches after warm-up",
                files,
                f"<= {SOAK_OPEN_FILES_GROWTH_PER_1000_AT_MOST:g}",
                files <= SOAK_OPEN_FILES_GROWTH_PER_1000_AT_MOST,
            )
        )
    return checks
