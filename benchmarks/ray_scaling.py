"""Ray scaling: games/s of a CPU-bound tournament, local runner against --ray.

The bots are mcts with a fixed number of iterations and no time limit, so every
decision is the same work wherever it runs: games/s measures how many cores
the tournament uses. The local runner plays every in-process bot in one
process (one core, whatever the machine has); --ray plays each game in its own
Ray worker. Each measurement runs in a fresh process; the Ray ones inside a
private network namespace with only loopback up (`unshare --net`), so Ray's
traffic never leaves this machine. `seconds` is the tournament itself;
`startup` is the Ray instance starting and the cluster check before it.

    python -m benchmarks --only ray
    python -m benchmarks.ray_scaling --runner ray --cpus 2   # one measurement, JSON
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.procs import ROOT
from clients.bots.search import MCTSBot

__all__ = ["FixedMCTSBot", "RayScalingResult", "run"]

GAME = "sheep-showdown"
BOTS = 4
ITERATIONS = 400
CHILD_SECONDS = 900


class FixedMCTSBot(MCTSBot):
    """mcts with exactly ITERATIONS iterations per decision (no time budget)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, iterations=ITERATIONS, milliseconds=600_000.0)


@dataclass(frozen=True, slots=True)
class RayScalingResult:
    runner: str
    cpus: int
    games: int
    errors: int
    seconds: float
    startup_seconds: float
    game_seconds: float  # mean time from CreateMatch to the result, per game
    parallel: float  # games in play at once, on average (sum of game times / seconds)
    games_per_second: float
    speedup: float  # against the local runner's games/s


def _config(folder: Path, runner: str, cpus: int, games_per_pairing: int) -> dict[str, object]:
    raw: dict[str, object] = {
        "name": f"ray-scaling-{runner}-{cpus}",
        "game": GAME,
        "players": 2,
        "options": {"rounds": 1},
        "bots": [
            {"name": f"mcts{i}", "class": "benchmarks.ray_scaling:FixedMCTSBot"}
            for i in range(BOTS)
        ],
        "games_per_pairing": games_per_pairing,
        "concurrency": 2,
        "decision_seconds": 600.0,
        "bootstrap": 0,
        "database": str(folder / "bench.sqlite"),
    }
    if runner == "ray":
        raw["executor"] = {"kind": "ray", "num_cpus": cpus}
    return raw


def measure(runner: str, cpus: int, games_per_pairing: int) -> dict[str, float]:
    """One measurement in this process (the Ray one needs a private namespace)."""
    from server.logs import configure_logging
    from tournament.config import parse_config
    from tournament.runner import run_tournament
    from tournament.store import Store

    configure_logging("console", "warning")
    with tempfile.TemporaryDirectory(prefix="sheepfold-ray-bench-") as folder:
        config = parse_config(_config(Path(folder), runner, cpus, games_per_pairing), folder)
        started = time.perf_counter()
        summary = run_tournament(config)
        wall = time.perf_counter() - started
        with Store(config.database) as store:
            games = store.games(store.tournament(None).id)
            busy = sum(game.duration_seconds for game in games)
    return {
        "game_seconds": busy / len(games) if games else 0.0,
        "parallel": busy / summary.seconds if summary.seconds > 0 else 0.0,
        "games": summary.played,
        "errors": summary.errors,
        "seconds": summary.seconds,
        "startup_seconds": max(wall - summary.seconds, 0.0),
    }


def _child(runner: str, cpus: int, games_per_pairing: int) -> dict[str, float]:
    command = [
        sys.executable,
        "-m",
        "benchmarks.ray_scaling",
        "--runner",
        runner,
        "--cpus",
        str(cpus),
        "--games-per-pairing",
        str(games_per_pairing),
    ]
    if runner == "ray":
        if shutil.which("unshare") is None or shutil.which("ip") is None:
            raise RuntimeError("the ray section needs unshare and ip (util-linux, iproute2)")
        namespace = ["unshare", "--net"] if os.geteuid() == 0 else ["unshare", "-rn"]
        script = 'ip link set lo up && exec "$@"'
        command = [*namespace, "sh", "-c", script, "sh", *command]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=CHILD_SECONDS, check=False
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        raise RuntimeError(f"{runner} ({cpus} CPUs) failed:\n{result.stderr[-3000:]}")
    return json.loads(lines[-1])


def run(games_per_pairing: int, cpus: Sequence[int] = (1, 2)) -> list[RayScalingResult]:
    plan = [("local", 1), *(("ray", n) for n in cpus)]
    measured = [(runner, n, _child(runner, n, games_per_pairing)) for runner, n in plan]
    local_rate = measured[0][2]["games"] / measured[0][2]["seconds"]
    results = []
    for runner, n, data in measured:
        rate = data["games"] / data["seconds"] if data["seconds"] > 0 else 0.0
        results.append(
            RayScalingResult(
                runner=runner,
                cpus=n,
                games=int(data["games"]),
                errors=int(data["errors"]),
                seconds=data["seconds"],
                startup_seconds=data["startup_seconds"],
                game_seconds=data["game_seconds"],
                parallel=data["parallel"],
                games_per_second=rate,
                speedup=rate / local_rate if local_rate > 0 else 0.0,
            )
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ray_scaling")
    parser.add_argument("--runner", choices=("local", "ray"), required=True)
    parser.add_argument("--cpus", type=int, default=1)
    parser.add_argument("--games-per-pairing", type=int, default=2)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.runner, args.cpus, args.games_per_pairing)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
