"""The short round robin `sheepfold demo` plays on a running server, per game."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path

from tournament.config import BotSpec, TournamentConfig
from tournament.progress import Progress
from tournament.report import report
from tournament.runner import run_tournament_async

__all__ = ["demo_round_robin"]


async def demo_round_robin(
    address: str,
    game: str,
    bots: list[str],
    games_per_pairing: int,
    seed: int,
    players: int = 2,
    decision_seconds: float = 10.0,
    options: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> str:
    """A short round robin of bot specs on a running server; returns the printable table
    (what `sheepfold demo` prints per game).

    `bots` are built-in names or module:Class specs; a spec listed twice gets a
    suffix (random, random-2). Results go to a throwaway database. `progress`
    follows the games (none by default).
    """
    names: list[str] = []
    specs: list[BotSpec] = []
    for spec in bots:
        base = spec.rsplit(":", 1)[-1] if ":" in spec else spec
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}-{n}"
        names.append(name)
        specs.append(
            BotSpec(
                name=name,
                builtin=spec if ":" not in spec else None,
                cls=spec if ":" in spec else None,
            )
        )
    config = TournamentConfig(
        name=f"demo-{game}",
        game=game,
        players=players,
        bots=tuple(specs),
        options=tuple(sorted((options or {}).items())),
        games_per_pairing=games_per_pairing,
        seed=seed,
        concurrency=2,
        decision_seconds=decision_seconds,
        bootstrap=200,
    )
    with tempfile.TemporaryDirectory(prefix="sheepfold-demo-") as folder:
        database = str(Path(folder) / "demo.sqlite")
        await run_tournament_async(config, address, database, progress)
        return report(database, "text")
