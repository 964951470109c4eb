"""`sheepfold demo`: the newcomer's first command.

Starts an in-process server on a free loopback port and plays a short round
robin between the built-in bots on every game, printing each table.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping

import games
from cli.values import whole_number
from clients.interrupts import run_interruptible
from games.words import count
from server.app import ServerConfig
from server.inprocess import serving_here
from server.logs import configure_logging
from tournament.config import MAX_SEED
from tournament.demo import demo_round_robin
from tournament.progress import Ending, Progress, format_eta, rewrite_line
from tournament.store import GameRecord

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
        help="first seed (default %(default)s)",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=games.names(),
        help="only this game (repeatable; default: every game)",
    )
    parser.set_defaults(handler=run, interrupt_on_terminate=True)


def run(args: argparse.Namespace) -> int:
    configure_logging("console", "warning")
    run_interruptible(_demo(args.game or list(games.names()), args.games_per_pairing, args.seed))
    return 0


async def _demo(names: list[str], games_per_pairing: int, seed: int) -> None:
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


class GamesLine(Progress):
    """On a terminal, one line on stderr counting a game's round robin,
    `[done/total] ETA mm:ss`, blanked before its table is printed."""

    def __init__(self) -> None:
        self.stream = sys.stderr
        self.width = 0
        self.total = self.done = 0
        self.started = time.monotonic()

    def start(self, tournament: str, total: int, done: int) -> None:
        self.total, self.done = total, done
        self.started = time.monotonic()
        self._show()

    def game_started(self, key: str) -> None:
        return None

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        self.done += 1
        self._show()

    def game_error(self, key: str, error: str) -> None:
        return None

    def note(self, text: str) -> None:
        return None

    def finish(self, played: int, ending: Ending) -> None:
        self.width = rewrite_line(self.stream, "", self.width)
        self.stream.write("\r")
        self.stream.flush()

    def _show(self) -> None:
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else None
        text = f"[{self.done}/{self.total}] games played, ETA {format_eta(eta)}"
        self.width = rewrite_line(self.stream, text, self.width)
