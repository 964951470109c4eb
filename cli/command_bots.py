"""The command bots (`cmd:PROGRAM ARGS...`) that `sheepfold match` and
`sheepfold bot` start: their flags (--bot-dir, --no-sandbox, --limit,
--read-only), the checks of the folder and program they name, and the
sandbox they run in."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli.values import KeyOnce, host_path, sandbox_limit, usage_error
from clients.bot_limits import LimitsError, parse_limits

if TYPE_CHECKING:
    from clients.launch import SandboxPolicy
    from clients.matchplay import CommandBot

__all__ = [
    "COMMAND_BOT_TLS",
    "add_command_flags",
    "command_bot",
    "command_policy",
    "note_ignored_command_flags",
]

COMMAND_BOT_TLS = (
    "sheepfold {command}: --tls and --tls-ca are for this command's own calls; a command "
    "bot connects to the server by itself (sandboxed ones through a Unix socket)"
)


def add_command_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot-dir",
        type=host_path,
        default=None,  # ".": None tells a folder given apart (ignored_command_flags)
        help="a command bot's folder: its working folder and, sandboxed, all of the host's "
        "files it sees besides the runtime (default: the current folder; never your home "
        "folder or one holding it)",
    )
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run command bots unsandboxed, with your rights: only for code you trust",
    )
    parser.add_argument(
        "--limit",
        action=KeyOnce,
        default=[],
        type=sandbox_limit,
        metavar="KEY=VALUE",
        help="a sandbox limit, repeatable, as in a tournament's [sandbox] table "
        "(e.g. --limit memory_mb=2048 --limit cpus=1)",
    )
    parser.add_argument(
        "--read-only",
        action="append",
        type=host_path,
        default=[],
        metavar="PATH",
        help="another host folder or file the sandboxed bot may read, repeatable",
    )


def note_ignored_command_flags(args: argparse.Namespace, command: str, bots: str) -> None:
    """One line on stderr naming the command-bot flags given when no bot is a
    command bot: they would otherwise do nothing without a word (a --read-only
    path that does not exist included), and a user may think them in force."""
    given = [
        flag
        for flag, value in (
            ("--bot-dir", args.bot_dir is not None),
            ("--no-sandbox", args.no_sandbox),
            ("--limit", bool(args.limit)),
            ("--read-only", bool(args.read_only)),
        )
        if value
    ]
    if given:
        flags = " and ".join([", ".join(given[:-1]), given[-1]] if len(given) > 1 else given)
        verb = "applies" if len(given) == 1 else "apply"
        print(
            f"sheepfold {command}: {flags} {verb} only to command bots (cmd:PROGRAM), and "
            f"{bots}: ignored",
            file=sys.stderr,
        )


def command_policy(args: argparse.Namespace, command: str) -> SandboxPolicy | None:
    """The sandbox for command bots from --no-sandbox and --limit; a usage error
    (exit 2) for a limit or --read-only path it cannot take, as a tournament config's
    [sandbox] is a config error."""
    # The launcher (asyncio, the sandbox) is loaded by the commands that start bots.
    from clients.launch import SandboxPolicy
    from clients.launch.sandbox import held_home, held_temp, host_state

    if args.no_sandbox:
        return None
    try:
        limits = parse_limits(dict(args.limit))  # each one checked by its argparse type
    except LimitsError as error:
        usage_error(f"sheepfold {command}: --limit {error}")
    read_only = tuple(os.path.abspath(path) for path in args.read_only)
    for path in read_only:
        if not os.path.exists(path):
            usage_error(f"sheepfold {command}: --read-only {path} does not exist")
        home = held_home(path)
        if home is not None:
            usage_error(
                f"sheepfold {command}: --read-only {path} would show the bot the home folder {home}"
            )
        temp = held_temp(path)
        if temp is not None:
            usage_error(
                f"sheepfold {command}: --read-only {path} would show the bot the temporary "
                f"folder {temp}, with other programs' Unix sockets"
            )
        host = host_state(path)
        if host is not None:
            usage_error(
                f"sheepfold {command}: --read-only {path} is the host's {host}: a sandbox "
                "has its own /proc and /dev, and none of the host's /sys or /run (the host's "
                "/proc shows every process on the machine and their command lines)"
            )
    return SandboxPolicy(limits=limits, read_only=read_only)


def refuse_databases(bot: CommandBot, command: str) -> None:
    """A usage error when a sandboxed bot's folder or a --read-only path is or
    holds a Sheepfold database: `bot` and `match --server` know nothing of
    their server's, which `serve` keeps by default (sheepfold.db) in the folder
    it was started in, and a bot's folder is by default the current one. Made
    after every other check of the flags: it reads the folders."""
    from clients.launch.host_view import held_database

    if bot.sandbox is None:
        return
    paths = [("--bot-dir", bot.folder), *(("--read-only", p) for p in bot.sandbox.read_only)]
    for flag, path in paths:
        database = held_database(path)
        if database is not None:
            usage_error(
                f"sheepfold {command}: {flag} {path} would show the bot the Sheepfold database "
                f"{database}, with the seed of every match in it: give it a folder of its own"
            )


def command_bot(spec: str, args: argparse.Namespace, command: str) -> CommandBot:
    from clients.launch.host_view import python_program
    from clients.launch.programs import program_problem, script_problem
    from clients.launch.sandbox import held_home, held_temp, host_state
    from clients.launch.sandbox_view import unseen_program
    from clients.matchplay import CommandBot

    # {python}: the interpreter running sheepfold, as in a tournament config
    try:
        words = shlex.split(spec[4:])
    except ValueError as error:  # an unclosed quote
        usage_error(f"sheepfold {command}: {spec!r}: {error}")
    argv = [arg.replace("{python}", python_program()) for arg in words]
    if not argv:
        usage_error(f"sheepfold {command}: {spec!r} names no program")
    folder = os.path.abspath(args.bot_dir or ".")
    if not os.path.isdir(folder):
        usage_error(f"sheepfold {command}: --bot-dir {args.bot_dir} is not a folder")
    if os.path.realpath(folder) == "/" and not args.no_sandbox:
        usage_error(f"sheepfold {command}: --bot-dir / would show the bot the whole host")
    host = host_state(folder)
    if host is not None and not args.no_sandbox:
        usage_error(
            f"sheepfold {command}: --bot-dir {folder} is in the host's {host}: "
            "a sandbox has its own /proc and /dev"
        )
    home = held_home(folder)
    if home is not None and not args.no_sandbox:
        usage_error(
            f"sheepfold {command}: --bot-dir {folder} would show the bot the home folder "
            f"{home}: give it a folder of its own"
        )
    temp = held_temp(folder)
    if temp is not None and not args.no_sandbox:
        usage_error(
            f"sheepfold {command}: --bot-dir {folder} would show the bot the temporary folder "
            f"{temp}, with other programs' Unix sockets: give it a folder of its own"
        )
    problem = program_problem(argv[0], Path(folder), os.environ.get("PATH"))
    if problem is not None:
        usage_error(f"sheepfold {command}: {spec!r}: {problem}")
    script = script_problem(argv, Path(folder))
    if script is not None:
        usage_error(f"sheepfold {command}: {spec!r}: {script[1]}")
    policy = command_policy(args, command)
    unseen = None if policy is None else unseen_program(argv[0], folder, policy.read_only)
    if unseen is not None:
        usage_error(
            f"sheepfold {command}: {spec!r}: {argv[0]!r} needs {unseen}, which the bot's "
            "sandbox does not see (only --bot-dir, --read-only and the system's runtime): "
            "name a program there, such as {python}, or pass --no-sandbox for a bot you trust"
        )
    return CommandBot(tuple(argv), folder, policy)
