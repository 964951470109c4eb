"""Tournament throughput: a round robin of random bots through the tournament
runner and an in-process server (what `sheepfold tournament run` does)."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tournament.config import parse_config
from tournament.runner import run_tournament

BOTS = 4


@dataclass(frozen=True, slots=True)
class TournamentResult:
    game: str
    players: int
    bots: int
    concurrency: int
    games: int
    errors: int
    seconds: float
    games_per_second: float


def measure(game: str, players: int, concurrency: int, games_per_pairing: int) -> TournamentResult:
    with tempfile.TemporaryDirectory(prefix="sheepfold-bench-") as folder:
        config = parse_config(
            {
                "name": f"bench-c{concurrency}",
                "game": game,
                "players": players,
                "bots": [{"name": f"random{i}", "builtin": "random"} for i in range(BOTS)],
                "games_per_pairing": games_per_pairing,
                "concurrency": concurrency,
                "bootstrap": 0,
                "database": str(Path(folder) / "bench.sqlite"),
            },
            base_dir=folder,
        )
        started = time.perf_counter()
        summary = run_tournament(config, database=str(Path(folder) / "bench.sqlite"))
        elapsed = time.perf_counter() - started
    return TournamentResult(
        game=game,
        players=players,
        bots=BOTS,
        concurrency=concurrency,
        games=summary.played,
        errors=summary.errors,
        seconds=elapsed,
        games_per_second=summary.played / elapsed,
    )


def run(
    game: str, players: int, games_per_pairing: int, levels: tuple[int, ...] = (1, 2)
) -> list[TournamentResult]:
    return [measure(game, players, c, games_per_pairing) for c in levels]
