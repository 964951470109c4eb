"""`sheepfold match`: one match between named bots, run from here."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import TYPE_CHECKING, Any

import games
from cli.addresses import server_address
from cli.client_tls import add_tls_flags
from cli.command_bots import add_command_flags
from cli.local_bots import BUILT_IN_BOTS, check_bot_name, load_here, prints_to_stderr
from cli.values import (
    MATCH_SEEDS,
    add_clock_flags,
    add_game_option_flag,
    match_seed,
    positive_int,
    usage_error,
)

if TYPE_CHECKING:
    from clients.matchplay import MatchOutcome
    from clients.sdk import Bot


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "match",
        help="play one match between named bots and print the result",
        description="Play one match through gRPC, one SDK client per seat. Without --server "
        "an in-process server is started on a free loopback port.",
    )
    parser.add_argument("--game", required=True, choices=games.names(), help="which game")
    parser.add_argument("--players", type=positive_int, required=True, help="number of seats")
    seats = parser.add_mutually_exclusive_group(required=True)
    seats.add_argument(
        "--bots",
        help=f"comma-separated bot specs, one per seat: a built-in name ({BUILT_IN_BOTS}), "
        "module:Class, "
        "or cmd:PROGRAM ARGS... for a program started like a tournament's command bot "
        "(sandboxed unless --no-sandbox)",
    )
    seats.add_argument(
        "--bot",
        action="append",
        dest="bot_specs",
        metavar="SPEC",
        help="one seat's bot spec, as in --bots, repeatable: the seats in order, instead "
        "of --bots; for a cmd: bot whose arguments hold a comma, which --bots splits",
    )
    add_command_flags(parser)
    parser.add_argument(
        "--seed", type=match_seed, help=f"match seed, {MATCH_SEEDS} (default: random, and printed)"
    )
    add_game_option_flag(parser)
    parser.add_argument(
        "--server",
        metavar="ADDR",
        type=server_address,
        help="play on this server instead (HOST:PORT or unix:PATH)",
    )
    add_tls_flags(parser)
    parser.add_argument(
        "--admin-token",
        help="with --server: its admin token, for CreateMatch (default: $SHEEPFOLD_ADMIN_TOKEN)",
    )
    add_clock_flags(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run_match, interrupt_on_terminate=True)


# Said after a refusal of a --bots list that names a cmd: bot, which the comma
# in its arguments may have cut in two.
SPLIT_AT_COMMAS = (
    " (--bots is split at every comma, a cmd: bot's arguments too: give each seat "
    "its own --bot SPEC instead, e.g. --bot random --bot 'cmd:./mybot --teams a,b')"
)


def _seat_specs(args: argparse.Namespace) -> tuple[list[str], str]:
    """The bot spec of each seat, from --bots or the --bot flags, and what to add
    to a refusal of them (SPLIT_AT_COMMAS, or nothing): a usage error for an
    empty one or a count that is not --players."""
    from games.words import count

    hint = ""
    if args.bot_specs is not None:
        specs = [spec.strip() for spec in args.bot_specs]
        if "" in specs:
            usage_error("sheepfold match: --bot '' is empty: give one bot spec per --bot")
        named = f"the --bot flags name {count(len(specs), 'bot')}"
    else:
        specs = [spec.strip() for spec in args.bots.split(",")]
        if not args.bots.strip():
            usage_error("sheepfold match: --bots is empty: give one bot spec per seat")
        if any(spec.startswith("cmd:") for spec in specs):
            hint = SPLIT_AT_COMMAS
        if "" in specs:
            # Dropped, "random," was counted as naming 1 bot, the empty entry unsaid.
            usage_error(f"sheepfold match: --bots {args.bots!r}: {_empty_entries(specs)}{hint}")
        named = f"--bots names {count(len(specs), 'bot')}"
    if len(specs) != args.players:
        usage_error(f"sheepfold match: --players is {args.players} but {named}{hint}")
    return specs, hint


def _empty_entries(specs: list[str]) -> str:
    """Which comma-separated entries of --bots are empty, counted from 1."""
    empty = [str(number) for number, spec in enumerate(specs, 1) if not spec]
    which = f"entries {', '.join(empty)} are" if len(empty) > 1 else f"entry {empty[0]} is"
    return f"{which} empty (of {len(specs)}): give one bot spec per seat"


def bot_seed(match_seed: int, seat: int) -> int:
    """Each seat's bot gets its own seed derived from the match seed."""
    return random.Random(f"{match_seed}:bot:{seat}").getrandbits(32)


def run_match(args: argparse.Namespace) -> int:
    # What plays a match (gRPC, a server of its own, the bots) is imported only to
    # play it: it was a third of every command's start-up, `--help` included.
    import asyncio
    import secrets
    from contextlib import AbstractAsyncContextManager, nullcontext

    import grpc
    from sheepfold.v1 import arena_pb2

    from cli.botguard import BotRaised, GuardedBot, close_bots
    from cli.client_tls import client_credentials
    from cli.command_bots import (
        COMMAND_BOT_TLS,
        command_bot,
        note_ignored_command_flags,
        refuse_databases,
    )
    from clients.bots import BotSpecError
    from clients.connect import Unreachable, refusal
    from clients.interrupts import run_interruptible
    from clients.launch import Launcher, SandboxUnavailable
    from clients.matchplay import CommandBot, play_match_with_commands
    from clients.sdk import SeatError
    from server.app import ServerConfig
    from server.logs import configure_logging
    from server.records import new_match_seed
    from tournament.bot_sockets import serving_bots

    configure_logging("console", "warning")
    specs, hint = _seat_specs(args)
    options = dict(args.option)
    game = games.get(args.game)
    try:
        game.new_state(args.players, 0, options)  # fail fast with the engine's own message
    except games.InvalidOptions as error:  # --option or --players: a usage error
        usage_error(f"sheepfold match: {error}")
    for spec in specs:
        check_bot_name(spec, "match", hint)
    seed = args.seed if args.seed is not None else new_match_seed()  # as the server draws
    bots: list[Bot | CommandBot] = []
    try:
        for seat, spec in enumerate(specs):
            if spec.startswith("cmd:"):
                bots.append(command_bot(spec, args, "match"))
            else:
                with prints_to_stderr():
                    loaded = load_here(spec, bot_seed(seed, seat))
                # Off the loop: every seat plays on it, and so may the server.
                bots.append(GuardedBot(loaded, seat, spec, threaded=True))
    except BotSpecError as error:
        # A bot that cannot be loaded is the user's mistake, as a tournament's is.
        usage_error(f"sheepfold match: {error}{hint}")
    if (args.tls or args.tls_ca) and any(isinstance(bot, CommandBot) for bot in bots):
        usage_error(COMMAND_BOT_TLS.format(command="match"))
    if (args.tls or args.tls_ca) and not args.server:
        usage_error("sheepfold match: --tls and --tls-ca need --server")
    if args.admin_token is not None and not args.server:
        usage_error(
            "sheepfold match: --admin-token needs --server (without it, match plays on "
            "a server of its own, which makes its own token)"
        )
    credentials = client_credentials(args, "match", args.server)
    bots_run_commands = any(isinstance(bot, CommandBot) for bot in bots)
    sandboxed = any(isinstance(bot, CommandBot) and bot.sandbox for bot in bots)
    caps = [
        bot.sandbox.limits.cpus
        for bot in bots
        if isinstance(bot, CommandBot) and bot.sandbox and bot.sandbox.limits.cpus is not None
    ]
    caps_cores = max(caps, default=None)
    socket = args.server.removeprefix("unix:") if (args.server or "").startswith("unix:") else None
    if sandboxed and args.server and not socket:
        usage_error(
            "sheepfold match: sandboxed command bots reach the server only through its Unix "
            "socket: pass --server unix:PATH (sheepfold serve --listen unix:PATH)"
        )
    for bot in bots:
        if isinstance(bot, CommandBot):
            refuse_databases(bot, "match")
    if not bots_run_commands:
        # Said once every check has passed, so that a refusal stays one line.
        note_ignored_command_flags(
            args, "match", "--bots names none" if args.bot_specs is None else "--bot names none"
        )
    clock = arena_pb2.ClockSettings(
        decision_seconds=args.decision_seconds,
        time_bank_seconds=args.time_bank_seconds,
        max_strikes=args.max_strikes,
    )

    async def play_it() -> tuple[MatchOutcome, dict[int, str]]:
        admin_token = args.admin_token
        if admin_token is None:
            admin_token = os.environ.get("SHEEPFOLD_ADMIN_TOKEN", "")
        # The server's address, and the Unix sockets sandboxed seats reach it by.
        server: AbstractAsyncContextManager[tuple[str, tuple[str, ...]]]
        if args.server:
            server = nullcontext((args.server, (socket,) if socket else ()))
        else:
            # Its own server takes the one match from this command only, not from a
            # bot, and gives each sandboxed seat a socket of its own, as a run's does.
            admin_token = secrets.token_hex(16)
            server = serving_bots(ServerConfig(admin_token=admin_token), args.players, sandboxed)
        async with server as (address, sockets):
            launcher = Launcher(sockets)
            if sandboxed:
                await asyncio.to_thread(launcher.check, caps_cores)
            return await play_match_with_commands(
                address,
                args.game,
                bots,
                launcher,
                seed=seed,
                options=options,
                clock=clock,
                admin_token=admin_token,
                credentials=credentials,
            )

    try:
        with prints_to_stderr():
            outcome, crashed = run_interruptible(play_it())
    except SandboxUnavailable as error:
        raise SystemExit(f"sheepfold match: {error}") from None
    except SeatError as error:
        # Which seat: one of several bots lost it (answers refused till the
        # server ended its stream), or saw the server go first.
        which = "" if error.seat is None else f"seat {error.seat} ({specs[error.seat]}): "
        raise SystemExit(f"sheepfold match: {which}{error}") from None
    except Unreachable as error:
        raise SystemExit(f"sheepfold match: {error}") from None
    except BotRaised as error:
        print(error.report("match"), file=sys.stderr)
        return 1
    except grpc.aio.AioRpcError as error:
        raise SystemExit(f"sheepfold match: {refusal(error)}") from None
    finally:
        close_bots(bots)
    summary = match_summary(args.game, specs, seed, outcome, crashed)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(format_summary(summary))
    return 1 if crashed else 0


def match_summary(
    game: str,
    specs: list[str],
    seed: int,
    outcome: MatchOutcome,
    crashed: dict[int, str] | None = None,
) -> dict[str, Any]:
    """The match as `match` prints it. A failed seat (its program crashed, or the
    server disqualified it) is ranked last as in a tournament, whatever its random
    stand-in scored, and is never a winner; `server_ranks` are the server's."""
    from tournament.outcome import forfeit_ranks

    result = outcome.result
    crashed = crashed or {}
    disqualified = [seat.seat for seat in result.seats if seat.disqualified]
    failed = sorted({*crashed, *disqualified})
    ranks = forfeit_ranks(list(result.ranks), [seat in failed for seat in range(len(specs))])
    return {
        "match_id": outcome.match_id,
        "game": game,
        "players": len(specs),
        "bots": specs,
        "seed": seed,
        "options": dict(outcome.options),
        "scores": [_number(score) for score in result.scores],
        "ranks": list(ranks),
        "server_ranks": list(result.ranks),
        "winners": [seat for seat, rank in enumerate(ranks) if rank == 1 and seat not in failed],
        "failed": failed,
        "details": json.loads(result.details_json or "{}"),
        "strikes": [seat.strikes for seat in result.seats],
        "disqualified": disqualified,
        "crashed": {str(seat): why for seat, why in sorted(crashed.items())},
        "end_reason": result.end_reason,
    }


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def format_summary(summary: dict[str, Any]) -> str:
    from games.options import options_line
    from games.solo_title import solo_title

    options = options_line(summary.get("options", {}))
    played = f"  options {options}" if options else ""
    lines = [f"{summary['game']}  seed {summary['seed']}{played}  match {summary['match_id']}"]
    disqualified = set(summary["disqualified"])
    crashed = {int(seat) for seat in summary.get("crashed", {})}
    width = max(12, *(len(spec) for spec in summary["bots"]))
    for seat, spec in enumerate(summary["bots"]):
        strikes = summary["strikes"][seat]
        notes = "  DISQUALIFIED (ranked last)" if seat in disqualified else ""
        notes += "  FAILED: crashed (ranked last)" if seat in crashed - disqualified else ""
        notes += f"  strikes {strikes}" if strikes else ""
        lines.append(
            f"  seat {seat}  {spec:<{width}} score {summary['scores'][seat]:>6}  "
            f"rank {summary['ranks'][seat]}{notes}"
        )
    winners = ", ".join(f"seat {w} ({summary['bots'][w]})" for w in summary["winners"])
    nobody = "every seat was disqualified" if not crashed else "every seat failed"
    lines.append(f"  winner: {winners or f'none ({nobody})'}")
    title = solo_title(summary.get("details"))
    if title:
        lines.append(f"  solo rating: {title}")
    if disqualified:
        lines.append(
            "  a disqualified seat missed its deadline too often: the server played its "
            "moves at random and ranks it last, whatever its score"
        )
    for seat, why in summary.get("crashed", {}).items():
        if int(seat) in disqualified:  # its program lived on past a sandbox limit
            lines.append(f"  seat {seat} was disqualified: its program hit its {why}")
        else:
            lines.append(
                f"  seat {seat} crashed (a random stand-in finished it; ranked last): {why}"
            )
    return "\n".join(lines)
