"""`sheepfold demo`: the newcomer's first command.

Starts an in-process server on a free loopback port and plays a short round
robin between the built-in bots on every game, printing each table.
"""

from __future__ import annotations

import argparse
import sys
import time

import games
from cli.values import whole_number
from clients.bot_limits import shown
from tournament.config import MAX_SEED

DEMO_BOTS = ["random", "greedy", "mcts"]
# A demo is a look at the bots, not a tournament: `sheepfold tournament` plays more.
MAX_DEMO_GAMES_PER_PAIRING = 100
# Quick settings per game: the demo should finish in well under two minutes.
DEMO_OPTIONS: dict[str, dict[str, str]] = {"sheep-showdown": {"rounds": "1"}}


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "demo",
        help="start a server and run a short round robin of the built-in bots on every game",
        description="Starts an in-process server on a free loopback port and runs a short "
        "2-player round robin between the built-in bots (random, greedy, mcts) on every "
        "game, printing each standings table with Elo ratings. On a terminal a line on "
        "stderr counts each round robin's games as they finish.",
    )
    parser.add_argument(
        "--games-per-pairing",
        type=whole_number(1, MAX_DEMO_GAMES_PER_PAIRING),
        default=2,
        help="seeds per pair of bots, each played from both seats, 1 to "
        f"{MAX_DEMO_GAMES_PER_PAIRING} (default %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        default=1,
        help=f"first seed, 0 to {shown(MAX_SEED)} (default %(default)s)",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=games.names(),
        help="only this game (repeatable; default: every game)",
    )
    parser.set_defaults(handler=run, interrupt_on_terminate=True)


def run(args: argparse.Namespace) -> int:
    from clients.interrupts import run_interruptible
    from server.logs import configure_logging

    configure_logging("console", "warning")
    run_interruptible(_demo(args.game or list(games.names()), args.games_per_pairing, args.seed))
    return 0


async def _demo(names: list[str], games_per_pairing: int, seed: int) -> None:
    from cli.demo_line import GamesLine
    from games.words import count
    from server.app import ServerConfig
    from server.inprocess import serving_here
    from tournament.demo import demo_round_robin

    started = time.monotonic()
    async with serving_here(ServerConfig()) as address:
        print(f"Sheepfold demo: in-process server on {address}")
        print(f"bots: {', '.join(DEMO_BOTS)}; {count(games_per_pairing, 'seed')} per pairing\n")
        for name in names:
            options = DEMO_OPTIONS.get(name, {})
            shown = " ".join(f"{k}={v}" for k, v in options.items())
            print(f"== {games.get(name).title} ({name}) {shown}".rstrip())
            table = await demo_round_robin(
                address,
                name,
                DEMO_BOTS,
                games_per_pairing,
                seed,
                options=options,
                progress=GamesLine() if sys.stderr.isatty() else None,
            )
            print(table, flush=True)
    print(f"done in {time.monotonic() - started:.0f} s")
