"""Sheepfold's own work per decision, with gRPC taken out.

Runs `--matches` matches of one game through the server's real `Match` and its
store (a SQLite file in WAL mode, or `--db :memory:`) in this process, each
seat a random bot reading its `SeatStream` directly: no network, no gRPC, no
second process. What the event loop's thread spends per decision, minus what
the bots spend decoding their messages and choosing, is what Sheepfold's own
Python costs a decision (engine, encoding, committed insert, match loop):
the part of the server's CPU per decision that the bare-gRPC baseline does
not have. It is quieter than the server section, as nothing else shares the
measuring window, so it tells a 5% change to the match path from noise in a
few seconds. Prints one JSON object.

    python -m benchmarks.match_loop --game sheep-n-sheep --players 2 --matches 10

`--metrics` counts the server's Prometheus metrics as `serve --metrics-port`
does (deployments run with them; the server section of the benchmarks without).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from sheepfold.v1 import arena_pb2

import games
from server.logs import configure_logging
from server.loops import add_loop_argument, run
from server.match import Match
from server.metrics import NO_METRICS, ServerMetrics
from server.records import ClockConfig, MatchRecord, hash_token, new_seat_token
from server.seats import SeatStream
from server.sqlite_store import SqliteStore
from server.storage import StoreWorker
from server.streams import StreamClosed


@dataclass
class MatchLoopResult:
    game: str
    players: int
    matches: int
    db: str
    metrics: bool  # the Prometheus metrics counted (--metrics)
    seconds: float
    decisions: int
    decisions_per_second: float
    thread_us_per_decision: float  # the loop's thread: Sheepfold's work and the bots'
    bots_us_per_decision: float  # the bots' share: decoding messages, choosing
    sheepfold_us_per_decision: float  # the difference
    process_us_per_decision: float  # every thread (the store's writer too), bots included


class Tally:
    def __init__(self) -> None:
        self.decisions = 0
        self.bot_seconds = 0.0


async def _seat(
    match: Match, seat: int, stream: SeatStream, rng: random.Random, tally: Tally
) -> None:
    while True:
        message = await stream.get()
        if isinstance(message, StreamClosed):
            return
        started = time.thread_time()
        response = (
            arena_pb2.PlayResponse.FromString(message) if isinstance(message, bytes) else message
        )
        if response.HasField("decision"):
            decision = response.decision
            choice = rng.randrange(len(decision.actions))
            tally.decisions += 1
            tally.bot_seconds += time.thread_time() - started
            match.answer(seat, decision.decision_id, choice, stream)
        else:
            tally.bot_seconds += time.thread_time() - started


async def _one_match(
    store: StoreWorker,
    metrics: ServerMetrics,
    game_name: str,
    players: int,
    seed: int,
    tally: Tally,
) -> None:
    game = games.get(game_name)
    record = MatchRecord(
        secrets.token_hex(8),
        game_name,
        players,
        {},
        seed,
        ClockConfig(),
        tuple(hash_token(new_seat_token()) for _ in range(players)),
        time.time(),
        game.rules_version,
    )
    await store.create_match(record)
    match = Match(record, game, store, metrics=metrics.for_game(game_name))
    match.metrics.match_created()
    match.start()
    rng = random.Random(seed)
    seats = []
    for seat in range(players):
        stream: SeatStream = SeatStream()
        match.join(seat, stream, events_in_decisions=True)
        seats.append(_seat(match, seat, stream, rng, tally))
    await asyncio.gather(*seats)


async def _slot(
    store: StoreWorker,
    metrics: ServerMetrics,
    args: argparse.Namespace,
    slot: int,
    tally: Tally,
) -> None:
    for played in range(sys.maxsize):
        seed = slot * 1_000_003 + played
        await _one_match(store, metrics, args.game, args.players, seed, tally)


async def measure(args: argparse.Namespace, db: str) -> MatchLoopResult:
    tally = Tally()
    metrics = ServerMetrics() if args.metrics else NO_METRICS
    store = StoreWorker(SqliteStore(db, serving=True), on_written=metrics.db_written)
    slots = [
        asyncio.create_task(_slot(store, metrics, args, i, tally)) for i in range(args.matches)
    ]
    try:
        await asyncio.sleep(args.warmup)
        decisions, bots = tally.decisions, tally.bot_seconds
        thread, process = time.thread_time(), time.process_time()
        await asyncio.sleep(args.seconds)
        decisions = tally.decisions - decisions
        bots = tally.bot_seconds - bots
        thread = time.thread_time() - thread
        process = time.process_time() - process
    finally:
        for task in slots:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*slots)
    if not decisions:
        raise SystemExit("match_loop: no decision was played in the measuring window")
    return MatchLoopResult(
        game=args.game,
        players=args.players,
        matches=args.matches,
        db=args.db,
        metrics=args.metrics,
        seconds=args.seconds,
        decisions=decisions,
        decisions_per_second=decisions / args.seconds,
        thread_us_per_decision=thread / decisions * 1e6,
        bots_us_per_decision=bots / decisions * 1e6,
        sheepfold_us_per_decision=(thread - bots) / decisions * 1e6,
        process_us_per_decision=process / decisions * 1e6,
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.match_loop",
        description="Sheepfold's own CPU per decision with gRPC taken out: matches "
        "played through the server's Match and store by in-process random bots.",
    )
    parser.add_argument("--game", default="sheep-n-sheep", choices=games.names())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", type=int, default=10, help="matches kept playing at once")
    parser.add_argument("--seconds", type=float, default=4.0, help="the measuring window")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds before measuring")
    add_loop_argument(parser, "as `sheepfold serve` runs")
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="count the Prometheus metrics, as `serve --metrics-port` does (off by default)",
    )
    parser.add_argument(
        "--db",
        default="file",
        choices=("file", ":memory:"),
        help="file: a new SQLite file in WAL mode, as `sheepfold serve` keeps (default)",
    )
    return parser


def check_players(parser: argparse.ArgumentParser, game_name: str, players: int) -> None:
    """A usage error (exit 2) when `game_name` is not played by `players`."""
    game = games.get(game_name)
    if not game.min_players <= players <= game.max_players:
        parser.error(
            f"{game_name} takes {game.min_players} to {game.max_players} players, not {players}"
        )


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    check_players(_parser(), args.game, args.players)
    if args.matches < 1 or args.seconds <= 0 or args.warmup < 0:
        _parser().error("--matches must be 1 or more, --seconds above 0, --warmup 0 or more")
    configure_logging("json", "warning")
    with tempfile.TemporaryDirectory(prefix="sheepfold-match-loop-") as folder:
        db = ":memory:" if args.db == ":memory:" else str(Path(folder) / "matches.db")
        result = run(measure(args, db), args.loop)
    print(json.dumps(asdict(result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
