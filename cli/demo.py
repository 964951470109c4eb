"""`sheepfold demo`: the newcomer's first command."""

from __future__ import annotations

import argparse
import asyncio

import games
from cli.play import bot_seed
from clients.bots import load_bot
from clients.matchplay import play_match
from server.app import ServerConfig
from server.inprocess import serving_here
from server.logs import configure_logging

DEMO_PLAYERS = {
    "sheep-showdown": 4,
    "sheep-n-sheep": 3,
    "stubborn-sheep": 3,
    "sheep-and-garden": 2,
}


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "demo",
        help="start a server and play a few matches of every game between built-in bots",
        description="Starts an in-process server on a free loopback port and plays a few "
        "matches of every game between the built-in bots, printing the results.",
    )
    parser.add_argument("--matches", type=int, default=3, help="matches per game (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    configure_logging("console", "warning")
    asyncio.run(_demo(args.seed, args.matches))
    return 0


async def _demo(first_seed: int, matches: int) -> None:
    async with serving_here(ServerConfig()) as address:
        print(f"Sheepfold demo: in-process server on {address}\n")
        for name in games.names():
            players = DEMO_PLAYERS.get(name, games.get(name).min_players)
            print(f"{games.get(name).title} ({name}), {players} random bots")
            for seed in range(first_seed, first_seed + matches):
                bots = [load_bot("random", bot_seed(seed, seat)) for seat in range(players)]
                outcome = await play_match(address, name, bots, seed=seed)
                scores = ", ".join(f"{score:g}" for score in outcome.result.scores)
                winners = ", ".join(f"seat {w}" for w in outcome.result.winners)
                print(f"  seed {seed}: scores [{scores}]  winner {winners}")
            print()
