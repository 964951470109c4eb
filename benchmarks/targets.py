"""The issue's targets, checked against results (reported, never asserted)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.engine import EngineResult
from benchmarks.memory import MemoryResult
from benchmarks.ray_scaling import RayScalingResult
from benchmarks.sandbox import SandboxResult
from benchmarks.serving import LoadResult
from benchmarks.soak import SoakResult

ENGINE_DECISIONS_PER_SECOND = {
    "sheep-showdown": 20_000,
    "sheep-n-sheep": 20_000,
    "stubborn-sheep": 20_000,
    "sheep-and-garden": 5_000,
}
RATE_RATIO_AT_LEAST = 0.8  # server decisions/s over the baseline's
P99_RATIO_AT_MOST = 1.3  # server p99 over the baseline's
RATIO_LEVELS = (10, 100)
CPU_MS_PER_DECISION_AT_MOST = 0.25  # the server process's CPU per decision
CPU_LEVEL = 10
RAMP_RATIO_AT_MOST = 2.0  # time to join every match, over the baseline's
RAMP_LEVEL = 500
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
    """The `server` target (SQLite file) of every game against its baseline."""
    checks = []
    for game, players in dict.fromkeys((r.game, r.players) for r in results):
        mine = [r for r in results if (r.game, r.players) == (game, players)]
        checks += _game_checks(f"{game} {players}p" if game else "", mine)
    return checks


def _game_checks(name: str, results: Sequence[LoadResult]) -> list[Check]:
    def pick(target: str, level: int) -> LoadResult | None:
        return next((r for r in results if r.target == target and r.matches == level), None)

    prefix = f"{name}: " if name else ""
    checks = []
    for level in RATIO_LEVELS:
        server, base = pick("server", level), pick("baseline", level)
        if server is None or base is None:
            continue
        rate = server.decisions_per_second / base.decisions_per_second
        p99 = server.p99_ms / base.p99_ms
        checks.append(
            Check(
                f"{prefix}server/baseline decisions/s at {level} matches",
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
                    f"{prefix}baseline/server CPU per decision at {level} matches",
                    cost,
                    f">= {RATE_RATIO_AT_LEAST}",
                    cost >= RATE_RATIO_AT_LEAST,
                )
            )
        budget = cpu_budget(base)
        if server.server_cpu_ms_per_decision and budget is not None:
            cpu = server.server_cpu_ms_per_decision
            checks.append(
                Check(
                    f"{prefix}server CPU ms per decision at {level} matches, "
                    f"budget for {RATE_RATIO_AT_LEAST}x",
                    cpu,
                    f"<= {budget:.2f}",
                    cpu <= budget,
                )
            )
        checks.append(
            Check(
                f"{prefix}server/baseline p99 at {level} matches",
                p99,
                f"<= {P99_RATIO_AT_MOST}",
                p99 <= P99_RATIO_AT_MOST,
            )
        )
    server = pick("server", CPU_LEVEL)
    if server is not None and server.server_cpu_ms_per_decision is not None:
        cpu = server.server_cpu_ms_per_decision
        checks.append(
            Check(
                f"{prefix}server CPU ms per decision at {CPU_LEVEL} matches",
                cpu,
                f"<= {CPU_MS_PER_DECISION_AT_MOST}",
                cpu <= CPU_MS_PER_DECISION_AT_MOST,
            )
        )
    server, base = pick("server", RAMP_LEVEL), pick("baseline", RAMP_LEVEL)
    if server is not None and base is not None and base.ramp_seconds > 0:
        ramp = server.ramp_seconds / base.ramp_seconds
        checks.append(
            Check(
                f"{prefix}server/baseline time to join {RAMP_LEVEL} matches",
                ramp,
                f"<= {RAMP_RATIO_AT_MOST}",
                ramp <= RAMP_RATIO_AT_MOST,
            )
        )
    return checks


def cpu_budget(base: LoadResult) -> float | None:
    """The server CPU ms per decision at which the rate reaches RATE_RATIO_AT_LEAST
    of `base`'s, the bots sharing the machine with the server.

    Both runs are then bound by the machine's cores (the driver and the server
    together use all of them), so the rate ratio is what the two processes
    spend per decision: (baseline + driver) / (server + driver), with the
    driver's cost taken from the baseline run. None without a CPU figure."""
    if not base.server_cpu_ms_per_decision or base.decisions_per_second <= 0:
        return None
    driver = 1000 * base.driver_cpu_share / base.decisions_per_second
    return (base.server_cpu_ms_per_decision + driver) / RATE_RATIO_AT_LEAST - driver


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


# --ray with 2 CPUs against the local runner (one process) on a CPU-bound tournament.
RAY_TWO_CPU_SPEEDUP_AT_LEAST = 1.7


def ray_checks(results: Sequence[RayScalingResult]) -> list[Check]:
    return [
        Check(
            "--ray 2 CPUs games/s vs local runner",
            r.speedup,
            f">= {RAY_TWO_CPU_SPEEDUP_AT_LEAST}x",
            r.speedup >= RAY_TWO_CPU_SPEEDUP_AT_LEAST,
        )
        for r in results
        if r.runner == "ray" and r.cpus == 2
    ]


def duration_check(seconds: float) -> Check:
    return Check(
        "whole run, seconds", seconds, f"< {BENCH_SECONDS_AT_MOST}", seconds < BENCH_SECONDS_AT_MOST
    )


SANDBOX_RATIO_AT_LEAST = 0.8


def sandbox_check(result: SandboxResult) -> Check:
    return Check(
        "sandboxed / unsandboxed tournament games/s",
        result.ratio,
        f">= {SANDBOX_RATIO_AT_LEAST}",
        result.ratio >= SANDBOX_RATIO_AT_LEAST,
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
