"""`sheepfold create`: create a match and print its id and seat tokens.

So a bot written in any language can be tried by hand: create a match here,
then start one bot per seat with the match id and that seat's token.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
from typing import TYPE_CHECKING, Any

import games
from cli.addresses import server_address
from cli.client_tls import add_tls_flags, client_credentials
from cli.environment import environment_default, naming_variable
from cli.values import (
    MATCH_SEEDS,
    add_clock_flags,
    add_game_option_flag,
    match_seed,
    positive_int,
)
from games.words import count

if TYPE_CHECKING:
    import grpc
    from sheepfold.v1 import arena_pb2

DEFAULT_SERVER = "127.0.0.1:50051"


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "create",
        help="create a match and print its id and seat tokens (for bots in any language)",
        description="Create a match on a running server and print its id and one secret "
        "token per seat; then start one bot per seat with the id and its seat's token "
        "(`sheepfold bot --server ADDR --match ID --token T`, or your own program).",
    )
    # Checked here as `match --game` is: the server ships with this Sheepfold,
    # and an unknown name is then said before any server is looked for.
    parser.add_argument("--game", required=True, choices=games.names(), help="which game")
    parser.add_argument("--players", type=positive_int, required=True, help="number of seats")
    add_game_option_flag(parser)
    parser.add_argument(
        "--seed", type=match_seed, help=f"match seed, {MATCH_SEEDS} (default: random)"
    )
    add_clock_flags(parser)
    parser.add_argument(
        "--server",
        metavar="ADDR",
        type=naming_variable(server_address),
        default=environment_default("SHEEPFOLD_SERVER", DEFAULT_SERVER),
        help=f"HOST:PORT or unix:PATH (default: $SHEEPFOLD_SERVER or {DEFAULT_SERVER})",
    )
    add_tls_flags(parser)
    parser.add_argument(
        "--admin-token",
        default=os.environ.get("SHEEPFOLD_ADMIN_TOKEN", ""),
        help="admin token for CreateMatch (default: $SHEEPFOLD_ADMIN_TOKEN)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


async def create_and_read(
    args: argparse.Namespace, credentials: grpc.ChannelCredentials | None
) -> tuple[arena_pb2.CreateMatchResponse, dict[str, str]]:
    """Creates the match, then asks the server for the options it stored: every
    option with its value, defaults filled in and bools as "true"/"false", as
    `Joined.options` and `GetMatch` give them (not the flags as typed)."""
    from sheepfold.v1 import arena_pb2

    from clients.matchplay import create_match, match_to_join

    created = await create_match(
        args.server,
        args.game,
        args.players,
        seed=args.seed,
        options=dict(args.option),
        clock=arena_pb2.ClockSettings(
            decision_seconds=args.decision_seconds,
            time_bank_seconds=args.time_bank_seconds,
            max_strikes=args.max_strikes,
        ),
        admin_token=args.admin_token,
        credentials=credentials,
    )
    info = await match_to_join(args.server, created.match_id, credentials)
    return created, dict(info.options)


def run(args: argparse.Namespace) -> int:
    import asyncio

    import grpc

    from clients.connect import Unreachable, refusal

    credentials = client_credentials(args, "create", args.server)
    try:
        created, options = asyncio.run(create_and_read(args, credentials))
    except Unreachable as error:
        raise SystemExit(f"sheepfold create: {error}") from None
    except grpc.aio.AioRpcError as error:
        # A deadline passed with no answer is no refusal.
        unanswered = error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        refused = "" if unanswered else "the server refused: "
        raise SystemExit(f"sheepfold create: {refused}{refusal(error)}") from None
    data = {
        "server": args.server,
        "match_id": created.match_id,
        "game": args.game,
        "players": args.players,
        "options": options,
        "seed": created.seed,
        "seat_tokens": list(created.seat_tokens),
    }
    print(json.dumps(data, sort_keys=True) if args.json else format_created(data, tls_flags(args)))
    return 0


def tls_flags(args: argparse.Namespace) -> list[str]:
    """The flags that connected `create`, which `bot` needs to reach the same server."""
    if args.tls_ca is not None:
        return ["--tls-ca", args.tls_ca]
    return ["--tls"] if args.tls else []


def format_created(data: dict[str, Any], tls: list[str]) -> str:
    lines = [
        f"match {data['match_id']}  {data['game']}, {count(data['players'], 'player')}, "
        f"seed {data['seed']}, on {data['server']}",
    ]
    lines += [f"seat {seat} token {token}" for seat, token in enumerate(data["seat_tokens"])]
    bot = ["sheepfold", "bot", "--server", data["server"], *tls, "--match", data["match_id"]]
    lines.append(
        f"play a seat: {shlex.join(bot)} --token TOKEN (or your own bot with the same three values)"
    )
    return "\n".join(lines)
