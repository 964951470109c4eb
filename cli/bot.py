"""`sheepfold bot`: one bot plays one seat of a match on a server."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from sheepfold.message_size import DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES

from cli.addresses import server_address
from cli.client_tls import add_tls_flags
from cli.command_bots import add_command_flags
from cli.environment import environment_default, naming_variable
from cli.local_bots import BUILT_IN_BOTS, check_bot_name, load_here, prints_to_stderr
from cli.values import message_bytes, seconds_up_to, usage_error, whole_number
from clients.rejoin import REJOIN_SECONDS

# The wire carries a seat as an int32.
MAX_SEAT = 2**31 - 1


def add_parser(commands: argparse._SubParsersAction) -> None:
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
    check_bot_name(args.bot, "bot")
    if args.bot.startswith("cmd:"):
        if args.tls or args.tls_ca:
            usage_error(COMMAND_BOT_TLS.format(command="bot"))
        return _run_command_bot(args)
    credentials = client_credentials(args, "bot", args.server)
    note_ignored_command_flags(args, "bot", "--bot is none")
    try:
        # decide on a daemon thread of its own, as `match` runs it: Ctrl-C stops the
        # event loop at once rather than after a decide that may think for minutes.
        with prints_to_stderr():
            bot = GuardedBot(load_here(args.bot, args.seed), args.seat, args.bot, threaded=True)
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

    from cli.command_bots import command_bot, refuse_databases
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
    refuse_databases(bot, "bot")
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
