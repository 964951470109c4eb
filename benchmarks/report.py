"""Plain-text tables of the results."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.engine import EngineResult
from benchmarks.memory import MemoryResult
from benchmarks.ray_scaling import RayScalingResult
from benchmarks.sandbox import SandboxResult
from benchmarks.serving import LoadResult
from benchmarks.soak import SoakResult
from benchmarks.targets import Check
from benchmarks.tournament import TournamentResult


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(h) for h in headers], *[[_cell(v) for v in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        return f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def engine(results: Sequence[EngineResult]) -> str:
    rows = []
    for r in results:
        options = ",".join(f"{k}={v}" for k, v in sorted(r.options.items()))
        rows.append(
            (
                r.game,
                r.players,
                options or "",
                r.games_per_second,
                r.decisions_per_second,
                r.decisions_per_game,
            )
        )
    return "Engine (random full games, one core)\n" + table(
        ("game", "players", "options", "games/s", "decisions/s", "decisions/game"), rows
    )


def load(results: Sequence[LoadResult]) -> str:
    """One table per game; every server-like row is compared with the baseline
    measured at the same level in the same run."""
    tables = []
    for game, players in dict.fromkeys((r.game, r.players) for r in results):
        rows = []
        mine = [r for r in results if (r.game, r.players) == (game, players)]
        for r in mine:
            base = next(
                (b for b in mine if b.target == "baseline" and b.matches == r.matches), None
            )
            ratio = p99_ratio = ramp_ratio = None
            if r.target != "baseline" and base is not None:
                ratio = r.decisions_per_second / base.decisions_per_second
                p99_ratio = r.p99_ms / base.p99_ms
                ramp_ratio = r.ramp_seconds / base.ramp_seconds if base.ramp_seconds else None
            rows.append(
                (
                    r.target,
                    r.matches,
                    r.decisions_per_second,
                    r.p50_ms,
                    r.p99_ms,
                    ratio,
                    p99_ratio,
                    r.server_cpu_ms_per_decision,
                    r.server_cpu_share,
                    r.driver_cpu_share,
                    r.rss_growth_per_match / 1024 if r.rss_growth_per_match is not None else None,
                    r.ramp_seconds,
                    ramp_ratio,
                )
            )
        runs = max(r.runs for r in mine)
        medians = f"; medians of {runs} runs, targets taking turns" if runs > 1 else ""
        if any(r.events_in_decisions for r in mine):
            medians += "; seats take their events inside their decisions"
        tables.append(
            f"Server vs baseline ({game}, {players} players, random bots in a separate "
            f"process; server = SQLite file in WAL mode, server-memory = --db :memory:{medians})\n"
            + table(
                (
                    "target",
                    "matches",
                    "decisions/s",
                    "p50 ms",
                    "p99 ms",
                    "rate/base",
                    "p99/base",
                    "srv cpu ms/dec",
                    "srv cpu",
                    "bots cpu",
                    "RSS KB/match",
                    "ramp s",
                    "ramp/base",
                ),
                rows,
            )
        )
    return "\n\n".join(tables)


def memory(results: Sequence[MemoryResult]) -> str:
    rows = [
        (
            r.game,
            r.players,
            r.matches,
            r.rss_before / 2**20,
            r.rss_after / 2**20,
            r.bytes_per_match / 1024,
        )
        for r in results
    ]
    return "Memory (sheepfold serve, matches created and waiting for seats)\n" + table(
        ("game", "players", "matches", "RSS before MB", "RSS after MB", "KB/match"), rows
    )


def tournament(results: Sequence[TournamentResult]) -> str:
    rows = [
        (r.game, r.players, r.bots, r.concurrency, r.games, r.errors, r.seconds, r.games_per_second)
        for r in results
    ]
    return (
        "Tournament (round robin of random bots, tournament runner, in-process server)\n"
        + table(
            ("game", "players", "bots", "concurrency", "games", "errors", "seconds", "games/s"),
            rows,
        )
    )


def ray_scaling(results: Sequence[RayScalingResult]) -> str:
    rows = [
        (
            "local runner" if r.runner == "local" else f"--ray, {r.cpus} CPU{'s' * (r.cpus > 1)}",
            r.games,
            r.errors,
            r.seconds,
            r.startup_seconds,
            r.game_seconds,
            r.parallel,
            r.games_per_second,
            f"{r.speedup:.2f}x",
        )
        for r in results
    ]
    return (
        "Ray scaling (round robin of mcts bots with fixed iterations; startup: Ray and the "
        "cluster check, not in games/s)\n"
        + table(
            (
                "runner",
                "games",
                "errors",
                "seconds",
                "startup s",
                "s/game",
                "in parallel",
                "games/s",
                "vs local",
            ),
            rows,
        )
    )


def checks(results: Sequence[Check]) -> str:
    rows = [(c.name, c.measured, c.target, "met" if c.met else "MISSED") for c in results]
    return "Targets (reported, never asserted)\n" + table(("check", "measured", "target", ""), rows)


def sandbox(r: SandboxResult) -> str:
    rows = [
        ("start-up per bot (ms, `true`)", r.startup_ms_plain, r.startup_ms_sandboxed),
        (
            "games/s (solo tournament, 2 command bots)",
            r.games_per_second_plain,
            r.games_per_second_sandboxed,
        ),
        ("mean game (s)", r.game_seconds_plain, r.game_seconds_sandboxed),
    ]
    return (
        f"Bot sandbox ({r.games} games each; {r.decisions_per_game:.0f} decisions/game)\n"
        + table(("", "unsandboxed", "sandboxed"), rows)
        + f"\nsandboxed/unsandboxed games/s: {r.ratio:.2f}; "
        f"overhead per decision: {r.overhead_ms_per_decision:.2f} ms (derived)"
    )


def metrics_cost(results: Sequence[LoadResult], game: str, players: int) -> str:
    """Decisions/s and CPU per decision with metrics off and on at each level: the
    median of the runs of each (off and on alternate, so drift hits both alike)."""

    def median(values: Sequence[float]) -> float:
        ordered = sorted(values)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    rows = []
    for matches in sorted({r.matches for r in results}):
        off = [r for r in results if r.target == "server" and r.matches == matches]
        on = [r for r in results if r.target == "server-metrics" and r.matches == matches]
        if not off or not on:
            continue
        off_rate = median([r.decisions_per_second for r in off])
        on_rate = median([r.decisions_per_second for r in on])
        off_cpu = median([r.server_cpu_ms_per_decision or 0.0 for r in off])
        on_cpu = median([r.server_cpu_ms_per_decision or 0.0 for r in on])
        rows.append(
            (
                matches,
                len(off),
                off_rate,
                on_rate,
                on_rate / off_rate,
                off_cpu,
                on_cpu,
                on_cpu / off_cpu if off_cpu else None,
            )
        )
    return f"Metrics cost ({game}, {players} players; --metrics-port off vs on, medians)\n" + table(
        (
            "matches",
            "runs",
            "off dec/s",
            "on dec/s",
            "on/off",
            "off cpu ms/dec",
            "on cpu ms/dec",
            "cpu on/off",
        ),
        rows,
    )


def soak(result: SoakResult) -> str:
    options = ",".join(f"{k}={v}" for k, v in sorted(result.options.items()))
    ends = [(result.end, " (end)")] if result.end else []
    rows = [
        (f"{s.matches:,}{note}", s.seconds, s.rss_bytes / 2**20, s.open_files, s.db_bytes / 2**20)
        for s, note in [(s, "") for s in result.samples] + ends
    ]
    growth = result.rss_growth_per_1000
    files = result.open_files_growth_per_1000
    per_match = result.db_bytes_per_match
    summary = [
        f"after the warm-up ({result.warmup_matches:,} matches): resident memory "
        + ("-" if growth is None else f"{growth / 2**20:+.2f} MB")
        + " and open files "
        + ("-" if files is None else f"{files:+.1f}")
        + " per 1,000 matches",
        "database: "
        + ("-" if per_match is None else f"{per_match:,.0f} bytes per match")
        + f" ({result.final_db_bytes / 2**20:.1f} MB for {result.matches:,} matches)",
    ]
    return (
        f"Soak ({result.game}, {result.players} players"
        + (f", {options}" if options else "")
        + ", SQLite file, random bots)\n"
        + table(("matches", "seconds", "RSS MB", "open files", "db+WAL MB"), rows)
        + "\n"
        + "\n".join(summary)
    )
