"""Load through a real server and through the baseline, side by side.

For each concurrency level a fresh server subprocess is started (so matches
left over from one level never load the next), then one bot-driver
subprocess (`benchmarks.driver`) plays random bots against it. The same is
done with the baseline server (`benchmarks.baseline_server`), which replays
the same game's recorded traffic with no engine behind it.

Targets: `server` stores in a SQLite file (WAL), as a deployment does;
`server-memory` with `--db :memory:`; `server-metrics` is `server` with
Prometheus metrics on; `before` is `server` run from another checkout (an
older commit), for before/after comparisons in one run; `baseline`.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import procs


@dataclass(frozen=True, slots=True)
class LoadResult:
    target: str  # "server", "server-memory", "server-metrics", "before" or "baseline"
    matches: int
    decisions_per_second: float
    p50_ms: float
    p99_ms: float
    mean_ms: float
    decisions: int
    seconds: float
    ramp_seconds: float
    matches_finished: int
    server_cpu_ms_per_decision: float | None
    server_cpu_share: float | None  # of one core, during the window
    driver_cpu_share: float
    server_rss_idle: int
    server_rss_loaded: int | None
    game: str = ""
    players: int = 0
    runs: int = 1  # measurements this row is the median of
    events_in_decisions: bool = False  # the seats asked for their events in decisions

    @property
    def rss_growth_per_match(self) -> float | None:
        if self.server_rss_loaded is None:
            return None
        return (self.server_rss_loaded - self.server_rss_idle) / self.matches


def server_command(db: str = ":memory:") -> list[str]:
    # Matches must not start without their seats during a long ramp.
    return [*procs.sheepfold_serve_command(db), "--start-timeout", "300"]


def baseline_command(game: str, players: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "benchmarks.baseline_server",
        "--game",
        game,
        "--players",
        str(players),
    ]


def measure(
    target: str,
    game: str,
    players: int,
    matches: int,
    seconds: float,
    warmup: float,
    ramp_timeout: float = 120.0,
    before: Path | None = None,
    events_in_decisions: bool = False,
) -> LoadResult:
    """One target at one level. With `events_in_decisions` the bots' seats ask
    for their events inside their decisions (against the baseline too)."""
    with tempfile.TemporaryDirectory(prefix="sheepfold-bench-") as scratch:
        command, cwd = _target_command(target, game, players, before, Path(scratch))
        server = procs.start(command, cwd=cwd)
        try:
            time.sleep(0.2)
            idle = procs.sample(server.pid).rss_bytes
            driver = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "benchmarks.driver",
                    "--address",
                    server.address,
                    "--mode",
                    "baseline" if target == "baseline" else "server",
                    "--game",
                    game,
                    "--players",
                    str(players),
                    "--matches",
                    str(matches),
                    "--seconds",
                    str(seconds),
                    "--warmup",
                    str(warmup),
                    "--ramp-timeout",
                    str(ramp_timeout),
                    "--server-pid",
                    str(server.pid),
                    *(["--events-in-decisions"] if events_in_decisions else []),
                ],
                cwd=procs.ROOT,
                capture_output=True,
                text=True,
                timeout=ramp_timeout + warmup + seconds + 60,
                check=False,
            )
            if driver.returncode != 0 or not driver.stdout.strip():
                raise RuntimeError(
                    f"bot driver failed against the {target} ({matches} matches):\n"
                    + driver.stderr[-3000:]
                    + "".join(server.log_lines[-10:])
                )
            data: dict[str, Any] = json.loads(driver.stdout.strip().splitlines()[-1])
        finally:
            procs.stop(server)
    window = data["seconds"]
    cpu = data["server_cpu_seconds"]
    decisions = data["decisions"]
    return LoadResult(
        target=target,
        matches=matches,
        events_in_decisions=events_in_decisions,
        decisions_per_second=data["decisions_per_second"],
        p50_ms=data["p50_ms"],
        p99_ms=data["p99_ms"],
        mean_ms=data["mean_ms"],
        decisions=decisions,
        seconds=window,
        ramp_seconds=data["ramp_seconds"],
        matches_finished=data["matches_finished"],
        server_cpu_ms_per_decision=(cpu * 1000 / decisions)
        if cpu is not None and decisions
        else None,
        server_cpu_share=(cpu / window) if cpu is not None else None,
        driver_cpu_share=data["driver_cpu_seconds"] / window,
        server_rss_idle=idle,
        server_rss_loaded=data["server_rss_after"],
        game=game,
        players=players,
    )


def _target_command(
    target: str, game: str, players: int, before: Path | None, scratch: Path
) -> tuple[list[str], Path | None]:
    """The command that starts `target`, and the checkout it runs in (None: this one)."""
    if target == "baseline":
        return baseline_command(game, players), None
    if target == "server-memory":
        return server_command(":memory:"), None
    command = server_command(str(scratch / "sheepfold.db"))
    if target == "server-metrics":
        command += ["--metrics-port", "0"]
    if target != "before":
        return command, None
    if before is None:
        raise ValueError("the 'before' target needs the path of another checkout")
    return command, before


def run(
    game: str,
    players: int,
    levels: tuple[int, ...],
    seconds: float,
    warmup: float,
    targets: tuple[str, ...] = ("server", "baseline"),
    before: Path | None = None,
    errors: list[str] | None = None,
    repeats: int = 1,
    events_in_decisions: bool = False,
) -> list[LoadResult]:
    """Every level against every target, interleaved so drift hits both alike.

    With `repeats` above 1 every target is measured that many times, taking
    turns with the others, and each row holds the median of each figure: one
    measuring window on a shared machine swings by a quarter. With `errors`, a
    run that fails is noted there and the others go on."""
    results = []
    for matches in levels:
        measured: dict[str, list[LoadResult]] = {}
        for _ in range(repeats):
            for target in targets:
                try:
                    result = measure(
                        target,
                        game,
                        players,
                        matches,
                        seconds,
                        warmup,
                        before=before,
                        events_in_decisions=events_in_decisions,
                    )
                except RuntimeError as error:
                    if errors is None:
                        raise
                    errors.append(f"{game} {players}p {target} at {matches} matches: {error}")
                    continue
                if repeats == 1:
                    results.append(result)
                else:
                    measured.setdefault(target, []).append(result)
        results += [median(runs) for runs in measured.values()]
    return results


def median(runs: list[LoadResult]) -> LoadResult:
    """One row with the median of each figure of `runs` (of one target and level)."""
    first = runs[0]
    figures: dict[str, Any] = {}
    for field in dataclasses.fields(LoadResult):
        values = [getattr(r, field.name) for r in runs]
        if field.name in ("target", "matches", "game", "players", "events_in_decisions"):
            continue
        if any(v is None for v in values):
            figures[field.name] = None
        else:
            middle = statistics.median(values)
            figures[field.name] = round(middle) if isinstance(values[0], int) else middle
    figures["runs"] = len(runs)
    return dataclasses.replace(first, **figures)
