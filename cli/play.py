"""`sheepfold match`, `sheepfold bot` and `sheepfold health`."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2

import games
from clients.bots import BotSpecError, load_bot
from clients.matchplay import MatchOutcome, play_match
from clients.sdk import SeatError, play
from server.app import ServerConfig
from server.inprocess import serving_here
from server.logs import configure_logging


def add_parsers(commands: argparse._SubParsersAction) -> None:
    _add_match(commands)
    _add_bot(commands)
    _add_health(commands)


# ---------------------------------------------------------------- match


def _add_match(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "match",
        help="play one match between named bots and print the result",
        description="Play one match through gRPC, one SDK client per seat. Without --server "
        "an in-process server is started on a free loopback port.",
    )
    parser.add_argument("--game", required=True, choices=games.names(), help="which game")
    parser.add_argument("--players", type=int, required=True, help="number of seats")
    parser.add_argument(
        "--bots",
        required=True,
        help="comma-separated bot specs, one per seat: a built-in name (random) or module:Class",
    )
    parser.add_argument("--seed", type=int, help="match seed (default: random, and printed)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, repeatable (e.g. --option rounds=1)",
    )
    parser.add_argument("--server", metavar="ADDR", help="play on this server instead (HOST:PORT)")
    parser.add_argument(
        "--admin-token",
        default=os.environ.get("SHEEPFOLD_ADMIN_TOKEN", ""),
        help="admin token for CreateMatch (default: $SHEEPFOLD_ADMIN_TOKEN)",
    )
    parser.add_argument(
        "--decision-seconds",
        type=float,
        default=0.0,
        help="deadline per decision (0: server default)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_match)


def parse_key_values(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"sheepfold: option {pair!r} must look like key=value")
        options[key.strip()] = value.strip()
    return options


def bot_seed(match_seed: int, seat: int) -> int:
    """Each seat's bot gets its own seed derived from the match seed."""
    return random.Random(f"{match_seed}:bot:{seat}").getrandbits(32)


def run_match(args: argparse.Namespace) -> int:
    configure_logging("console", "warning")
    specs = [spec.strip() for spec in args.bots.split(",") if spec.strip()]
    if len(specs) != args.players:
        raise SystemExit(
            f"sheepfold match: --players is {args.players} but --bots names {len(specs)} bots"
        )
    options = parse_key_values(args.option)
    game = games.get(args.game)
    try:
        game.new_state(args.players, 0, options)  # fail fast with the engine's own message
    except games.InvalidOptions as error:
        raise SystemExit(f"sheepfold match: {error}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    try:
        bots = [load_bot(spec, bot_seed(seed, seat)) for seat, spec in enumerate(specs)]
    except BotSpecError as error:
        raise SystemExit(f"sheepfold match: {error}") from None
    clock = arena_pb2.ClockSettings(decision_seconds=args.decision_seconds)

    async def play_it() -> MatchOutcome:
        server = nullcontext(args.server) if args.server else serving_here(ServerConfig())
        async with server as address:
            return await play_match(
                address,
                args.game,
                bots,
                seed=seed,
                options=options,
                clock=clock,
                admin_token=args.admin_token,
            )

    try:
        outcome = asyncio.run(play_it())
    except SeatError as error:
        raise SystemExit(f"sheepfold match: {error}") from None
    except grpc.aio.AioRpcError as error:
        raise SystemExit(f"sheepfold match: {error.code().name}: {error.details()}") from None
    summary = match_summary(args.game, specs, seed, options, outcome)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(format_summary(summary))
    return 0


def match_summary(
    game: str, specs: list[str], seed: int, options: dict[str, str], outcome: MatchOutcome
) -> dict[str, Any]:
    result = outcome.result
    return {
        "game": game,
        "players": len(specs),
        "bots": specs,
        "seed": seed,
        "options": options,
        "scores": [_number(score) for score in result.scores],
        "ranks": list(result.ranks),
        "winners": list(result.winners),
        "details": json.loads(result.details_json or "{}"),
        "strikes": [seat.strikes for seat in result.seats],
        "disqualified": [seat.seat for seat in result.seats if seat.disqualified],
    }


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def format_summary(summary: dict[str, Any]) -> str:
    lines = [f"{summary['game']}  seed {summary['seed']}"]
    for seat, spec in enumerate(summary["bots"]):
        lines.append(
            f"  seat {seat}  {spec:<12} score {summary['scores'][seat]:>6}  "
            f"rank {summary['ranks'][seat]}"
        )
    winners = ", ".join(f"seat {w} ({summary['bots'][w]})" for w in summary["winners"])
    lines.append(f"  winner: {winners}")
    return "\n".join(lines)


# ---------------------------------------------------------------- bot


def _add_bot(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "bot",
        help="run one bot for one seat against a server",
        description="Join one seat and play it to the end. Flags fall back to the environment "
        "variables SHEEPFOLD_SERVER, SHEEPFOLD_MATCH and SHEEPFOLD_TOKEN, which the tournament "
        "runner sets for command-line bots.",
    )
    parser.add_argument("--server", default=os.environ.get("SHEEPFOLD_SERVER"), help="HOST:PORT")
    parser.add_argument("--match", default=os.environ.get("SHEEPFOLD_MATCH"), help="match id")
    parser.add_argument("--token", default=os.environ.get("SHEEPFOLD_TOKEN"), help="seat token")
    parser.add_argument("--seat", type=int, help="seat number (default: the token's seat)")
    parser.add_argument("--bot", default="random", help="built-in name or module:Class")
    parser.add_argument("--seed", type=int, default=0, help="bot seed (default %(default)s)")
    parser.set_defaults(handler=run_bot)


# Options whose value may start with "-" (a token is random text).
VALUE_OPTIONS = ("--token", "--admin-token")


def join_option_values(argv: Sequence[str]) -> list[str]:
    """`--token -abc` as `--token=-abc`: argparse would read `-abc` as an option
    and exit 2, so a token that starts with "-" could never be passed."""
    out: list[str] = []
    rest = iter(argv)
    for arg in rest:
        if arg == "--":
            out.append(arg)
            out.extend(rest)
            break
        if arg in VALUE_OPTIONS:
            value = next(rest, None)
            out.append(arg if value is None else f"{arg}={value}")
        else:
            out.append(arg)
    return out


def run_bot(args: argparse.Namespace) -> int:
    configure_logging("console" if sys.stderr.isatty() else "json", "warning")
    missing = [name for name in ("server", "match", "token") if not getattr(args, name)]
    if missing:
        raise SystemExit(f"sheepfold bot: missing --{', --'.join(missing)} (or the environment)")
    try:
        bot = load_bot(args.bot, args.seed)
        result = asyncio.run(play(bot, args.server, args.match, args.token, args.seat))
    except BotSpecError as error:
        raise SystemExit(f"sheepfold bot: {error}") from None
    except SeatError as error:
        print(f"sheepfold bot: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"scores": list(result.scores), "ranks": list(result.ranks)}))
    return 0


# ---------------------------------------------------------------- health


def _add_health(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "health",
        help="ask a server whether it is serving (exit 0 only when SERVING)",
        description="Query grpc.health.v1.Health; exit 0 when the server reports SERVING, "
        "1 otherwise (not serving, unreachable or timed out).",
    )
    parser.add_argument(
        "--addr",
        default=os.environ.get(
            "SHEEPFOLD_HEALTH_ADDR",
            "127.0.0.1:"
            + (
                os.environ.get("SHEEPFOLD_HEALTH_PORT")
                or os.environ.get("SHEEPFOLD_PORT")
                or "50051"
            ),
        ),
        help="HOST:PORT (default: $SHEEPFOLD_HEALTH_ADDR, else 127.0.0.1 and "
        "$SHEEPFOLD_HEALTH_PORT, $SHEEPFOLD_PORT or 50051)",
    )
    parser.add_argument("--service", default="", help="service name (default: the whole server)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds (default %(default)s)")
    parser.set_defaults(handler=run_health)


def run_health(args: argparse.Namespace) -> int:
    try:
        with grpc.insecure_channel(args.addr) as channel:
            response = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout
            )
    except grpc.RpcError as error:
        print(f"{args.addr}: {error.code().name}: {error.details()}", file=sys.stderr)
        return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    print(f"{args.addr}: {status}")
    return 0 if response.status == health_pb2.HealthCheckResponse.SERVING else 1
