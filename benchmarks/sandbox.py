"""What the bot sandbox costs: start-up per bot, and a tournament of command bots
sandboxed against the same tournament unsandboxed (the goal: >= 0.8x the games/s).

Per-decision overhead is derived: the difference in mean game duration, minus
the difference in start-up, spread over the decisions of a game (counted by
playing the same seeds with random actions on the engine).
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import games
from benchmarks.procs import ROOT
from clients.launch import BotCommand, Launcher, SandboxPolicy
from tournament.config import parse_config
from tournament.runner import run_tournament
from tournament.store import Store

GAME = "stubborn-sheep"
TURNS = 4
BOT_FOLDER = ROOT / "examples" / "command-bot"


@dataclass(frozen=True, slots=True)
class SandboxResult:
    startups: int
    startup_ms_sandboxed: float
    startup_ms_plain: float
    games: int
    games_per_second_sandboxed: float
    games_per_second_plain: float
    ratio: float
    game_seconds_sandboxed: float
    game_seconds_plain: float
    decisions_per_game: float
    overhead_ms_per_decision: float


def startup_ms(launcher: Launcher, folder: str, sandboxed: bool, count: int) -> float:
    """Mean wall time to start and end `true` (sandboxed: bwrap + prlimit + true)."""
    policy = SandboxPolicy() if sandboxed else None
    command = BotCommand(argv=("true",), folder=folder, server="", sandbox=policy)

    async def once() -> float:
        started = time.perf_counter()
        await launcher.process(command).run()
        return time.perf_counter() - started

    async def all_of_them() -> list[float]:
        return [await once() for _ in range(count)]

    return 1000 * sum(asyncio.run(all_of_them())) / count


def tournament(
    sandboxed: bool, games_per_pairing: int, folder: str, turn: int
) -> tuple[int, float, list[float]]:
    """Games played, seconds and game durations of a solo tournament of two command bots."""
    database = str(Path(folder) / f"bench-{sandboxed}-{turn}.sqlite")
    bot = {"command": ["{python}", "command_bot.py"], "cwd": str(BOT_FOLDER), "sandbox": sandboxed}
    config = parse_config(
        {
            "name": f"sandbox-{sandboxed}-{turn}",
            "game": GAME,
            "players": 1,
            "bots": [{"name": "a", **bot}, {"name": "b", **bot}],
            "games_per_pairing": games_per_pairing,
            "concurrency": 2,
            "bootstrap": 0,
            "database": database,
        },
        base_dir=folder,
    )
    started = time.perf_counter()
    summary = run_tournament(config, database=database)
    elapsed = time.perf_counter() - started
    with Store(database) as store:
        durations = [game.duration_seconds for game in store.games(store.tournament().id)]
    return summary.played, elapsed, durations


def decisions_per_game(seeds: int) -> float:
    engine = games.get(GAME)
    total = 0
    for seed in range(1, seeds + 1):
        state, rng = engine.new_state(1, seed, {}), random.Random(seed)
        while not state.terminal:
            state.apply(rng.choice(state.legal_actions()))
            total += 1
    return total / seeds


def run(games_per_pairing: int, startups: int = 20) -> SandboxResult:
    with tempfile.TemporaryDirectory(prefix="sheepfold-bench-") as folder:
        socket = Path(folder) / "arena.sock"
        socket.touch()
        launcher = Launcher(str(socket))
        launcher.check()
        empty = Path(folder) / "bot"
        empty.mkdir()
        boxed_ms = startup_ms(launcher, str(empty), True, startups)
        plain_ms = startup_ms(launcher, str(empty), False, startups)
        # Short tournaments taking turns, so that a machine busy with other work
        # slows both sides alike rather than whichever ran during the busy spell.
        totals: dict[bool, tuple[int, float, list[float]]] = {
            False: (0, 0.0, []),
            True: (0, 0.0, []),
        }
        for turn in range(TURNS):
            for sandboxed in (False, True) if turn % 2 == 0 else (True, False):
                played, seconds, durations = tournament(sandboxed, games_per_pairing, folder, turn)
                so_far_n, so_far_s, so_far_d = totals[sandboxed]
                totals[sandboxed] = (so_far_n + played, so_far_s + seconds, so_far_d + durations)
    (plain_n, plain_s, plain_d), (played, boxed_s, boxed_d) = totals[False], totals[True]
    plain_rate, boxed_rate = plain_n / plain_s, played / boxed_s
    plain_game, boxed_game = sum(plain_d) / len(plain_d), sum(boxed_d) / len(boxed_d)
    per_game = decisions_per_game(games_per_pairing)
    overhead = (boxed_game - plain_game - (boxed_ms - plain_ms) / 1000) / per_game
    return SandboxResult(
        startups=startups,
        startup_ms_sandboxed=boxed_ms,
        startup_ms_plain=plain_ms,
        games=played,
        games_per_second_sandboxed=boxed_rate,
        games_per_second_plain=plain_rate,
        ratio=boxed_rate / plain_rate,
        game_seconds_sandboxed=boxed_game,
        game_seconds_plain=plain_game,
        decisions_per_game=per_game,
        overhead_ms_per_decision=1000 * overhead,
    )
