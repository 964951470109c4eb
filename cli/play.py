"""`sheepfold match`, `sheepfold bot` and `sheepfold health`."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from contextlib import redirect_stdout
from typing import TYPE_CHECKING, Any

from sheepfold.message_size import DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES

import games
from cli import health
from cli.addresses import server_address
from cli.client_tls import add_tls_flags
from cli.command_bots import add_command_flags
from cli.environment import environment_default, naming_variable
from cli.values import (
    MATCH_SEEDS,
    add_clock_flags,
    add_game_option_flag,
    match_seed,
    message_bytes,
    positive_int,
    seconds_up_to,
    usage_error,
    whole_number,
)
from clients.rejoin import REJOIN_SECONDS

# The built-in bots (clients.bots.BUILTIN_BOTS, whose import loads the search
# bots: too slow for every command's start), named in --bots' and --bot's help.
BUILT_IN_BOTS = "greedy, mcts, random"

if TYPE_CHECKING:
    from clients.matchplay import MatchOutcome
    from clients.sdk import Bot

# The wire carries a seat as an int32.
MAX_SEAT = 2**31 - 1


def add_parsers(commands: argparse._SubParsersAction) -> None:
    _add_match(commands)
    _add_bot(commands)
    health.add_parser(commands)


# ---------------------------------------------------------------- match


def _add_match(commands: argparse._SubParsersAction) -> None:
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
    from cli.command_bots import COMMAND_BOT_TLS, command_bot, note_ignored_command_flags
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
        _check_bot_name(spec, "match", hint)
    seed = args.seed if args.seed is not None else new_match_seed()  # as the server draws
    bots: list[Bot | CommandBot] = []
    try:
        for seat, spec in enumerate(specs):
            if spec.startswith("cmd:"):
                bots.append(command_bot(spec, args, "match"))
            else:
                with _prints_to_stderr():
                    loaded = _load_here(spec, bot_seed(seed, seat))
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
        with _prints_to_stderr():
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


# ---------------------------------------------------------------- bot


def _add_bot(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "bot",
        help="run one bot for one seat against a server",
        description="Join one seat and play it to the end. Flags fall back to the environment "
        "variables SHEEPFOLD_SERVER, SHEEPFOLD_MATCH, SHEEPFOLD_TOKEN, SHEEPFOLD_SEAT and "
        "SHEEPFOLD_SEED, which the tournament runner sets for command-line bots.",
    )
    parser.add_argument(
        "--server",
        type=naming_variable(server_address),
        default=environment_default("SHEEPFOLD_SERVER"),
        metavar="ADDR",
        help="HOST:PORT or unix:PATH (default: $SHEEPFOLD_SERVER)",
    )
    add_tls_flags(parser)
    parser.add_argument(
        "--match",
        default=os.environ.get("SHEEPFOLD_MATCH"),
        help="match id (default: $SHEEPFOLD_MATCH)",
    )
    parser.add_argument(
        "--token",
        default=os.environ.get("SHEEPFOLD_TOKEN"),
        help="seat token (default: $SHEEPFOLD_TOKEN); every user of the machine can read a "
        "flag's value in the process list, and whoever holds the token plays the seat",
    )
    parser.add_argument(
        "--seat",
        type=naming_variable(whole_number(0, MAX_SEAT)),
        # A string default goes through `type` too: a bad variable is a usage error.
        default=environment_default("SHEEPFOLD_SEAT"),
        help="seat number (default: $SHEEPFOLD_SEAT, else the token's seat)",
    )
    parser.add_argument(
        "--bot",
        default="random",
        help=f"built-in name ({BUILT_IN_BOTS}), module:Class, or cmd:PROGRAM ARGS... to start "
        "that program for "
        "the seat (sandboxed unless --no-sandbox; then --server must be unix:PATH) "
        "(default: random)",
    )
    add_command_flags(parser)
    parser.add_argument(
        "--seed",
        type=naming_variable(whole_number(0, MAX_BOT_SEED)),
        default=environment_default("SHEEPFOLD_SEED", "0"),
        help="bot seed, 0 to 2**63 - 1 (default: $SHEEPFOLD_SEED, else 0)",
    )
    parser.add_argument(
        "--rejoin-seconds",
        type=seconds_up_to(MAX_REJOIN_SECONDS, zero=True),
        metavar="SECONDS",
        help="how long to keep joining the seat again once its server has gone (a restart), "
        f"0 to {MAX_REJOIN_SECONDS:,} (default {REJOIN_SECONDS:g}); built-in and "
        "module:Class bots only",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=message_bytes,
        metavar="BYTES",
        help=f"largest message received, at least {MIN_MAX_MESSAGE_BYTES} (a decision is one "
        "message): as large as the server's --max-message-bytes when that is larger "
        f"(default {DEFAULT_MAX_MESSAGE_BYTES}); built-in and module:Class bots only",
    )
    parser.set_defaults(handler=run_bot, interrupt_on_terminate=True)


# A day: a server away longer has left its matches to their clocks long before.
MAX_REJOIN_SECONDS = 86_400


# A command bot's SHEEPFOLD_SEED is at most this (docs/writing-a-bot.md): a bot in
# another language may read it as a signed 64-bit number.
MAX_BOT_SEED = 2**63 - 1

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


def _check_bot_name(spec: str, command: str, hint: str = "") -> None:
    """A usage error (exit 2) for a bot named by a word that is no built-in, as
    for an unknown --game, and as a tournament config's unknown builtin is; it
    was exit 1, the status of a bot that failed to load or play. `hint` ends
    the line."""
    from clients.bots import unknown_bot_name

    unknown = unknown_bot_name(spec)
    if unknown is not None:
        usage_error(f"sheepfold {command}: {unknown}{hint}")


def _prints_to_stderr() -> redirect_stdout[Any]:
    """While a `module:Class` bot loads and plays in this process, what it prints
    goes to stderr: stdout holds the command's result alone (`--json | jq`)."""
    return redirect_stdout(sys.stderr)


def _load_here(spec: str, seed: int) -> Bot:
    """`load_bot`, with the current folder importable too (last, so it shadows
    nothing): `sheepfold bot --bot mymodule:MyBot` beside mymodule.py finds it,
    as `python -m` would."""
    from clients.bots import load_bot

    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)
    return load_bot(spec, seed)


def run_bot(args: argparse.Namespace) -> int:
    from cli.botguard import BotRaised, GuardedBot, close_bots
    from cli.client_tls import client_credentials
    from cli.command_bots import COMMAND_BOT_TLS, note_ignored_command_flags
    from clients.bots import BotSpecError
    from clients.connect import Unreachable
    from clients.interrupts import run_interruptible
    from clients.sdk import SeatError, play
    from server.logs import configure_logging

    configure_logging("console" if sys.stderr.isatty() else "json", "warning")
    missing = [name for name in ("server", "match", "token") if not getattr(args, name)]
    if missing:
        usage_error(f"sheepfold bot: missing --{', --'.join(missing)} (or the environment)")
    _check_bot_name(args.bot, "bot")
    if args.bot.startswith("cmd:"):
        if args.tls or args.tls_ca:
            usage_error(COMMAND_BOT_TLS.format(command="bot"))
        return _run_command_bot(args)
    credentials = client_credentials(args, "bot", args.server)
    note_ignored_command_flags(args, "bot", "--bot is none")
    try:
        # decide on a daemon thread of its own, as `match` runs it: Ctrl-C stops the
        # event loop at once rather than after a decide that may think for minutes.
        with _prints_to_stderr():
            bot = GuardedBot(_load_here(args.bot, args.seed), args.seat, args.bot, threaded=True)
            try:
                result = run_interruptible(
                    play(
                        bot,
                        args.server,
                        args.match,
                        args.token,
                        args.seat,
                        credentials=credentials,
                        rejoin_seconds=(
                            REJOIN_SECONDS if args.rejoin_seconds is None else args.rejoin_seconds
                        ),
                        max_message_bytes=args.max_message_bytes or DEFAULT_MAX_MESSAGE_BYTES,
                    )
                )
            finally:
                close_bots([bot])
    except BotSpecError as error:
        # A bot that cannot be loaded is the user's mistake, as a tournament's is.
        usage_error(f"sheepfold bot: {error}")
    except (SeatError, Unreachable) as error:
        print(f"sheepfold bot: {error}", file=sys.stderr)
        return 1
    except BotRaised as error:
        print(error.report("bot"), file=sys.stderr)
        return 1
    print(json.dumps({"scores": list(result.scores), "ranks": list(result.ranks)}))
    return 0


def _run_command_bot(args: argparse.Namespace) -> int:
    import grpc

    from cli.command_bots import command_bot
    from clients.connect import Unreachable, refusal
    from clients.interrupts import run_interruptible
    from clients.launch import BotCommand, BotFailure, Launcher, SandboxUnavailable
    from clients.matchplay import match_to_join, run_until_match_over

    bot = command_bot(args.bot, args, "bot")
    if args.rejoin_seconds is not None:
        print(
            "sheepfold bot: --rejoin-seconds applies only to built-in and module:Class bots "
            "(a command bot's program rejoins as it was written to): ignored",
            file=sys.stderr,
        )
    if args.max_message_bytes is not None:
        print(
            "sheepfold bot: --max-message-bytes applies only to built-in and module:Class bots "
            "(a command bot's program receives what it was written to): ignored",
            file=sys.stderr,
        )
    socket = args.server.removeprefix("unix:") if args.server.startswith("unix:") else None
    if bot.sandbox and not socket:
        usage_error(
            "sheepfold bot: a sandboxed command bot reaches the server only through its Unix "
            "socket: pass --server unix:PATH (sheepfold serve --listen unix:PATH)"
        )
    env = {"SHEEPFOLD_MATCH": args.match, "SHEEPFOLD_TOKEN": args.token}
    env["SHEEPFOLD_SEED"] = str(args.seed)
    if args.seat is not None:
        env["SHEEPFOLD_SEAT"] = str(args.seat)
    command = BotCommand(bot.argv, bot.folder, args.server, env, bot.sandbox)
    try:
        # Not for a server that is not there, or a match it does not hold: the
        # program would retry (or wait) for as long as it chose to.
        run_interruptible(match_to_join(args.server, args.match))
    except Unreachable as error:
        print(f"sheepfold bot: {error}", file=sys.stderr)
        return 1
    except grpc.aio.AioRpcError as error:
        print(f"sheepfold bot: {refusal(error)}", file=sys.stderr)
        return 1
    try:
        process = Launcher(socket).process(command)
        run_interruptible(run_until_match_over(process, args.server, args.match, seat=args.seat))
    except SandboxUnavailable as error:
        raise SystemExit(f"sheepfold bot: {error}") from None
    except BotFailure as error:
        print(f"sheepfold bot: the bot failed: {error}", file=sys.stderr)
        return 1
    return 0
