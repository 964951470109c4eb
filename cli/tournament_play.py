"""What `sheepfold tournament run` and `tournament sprt` share: the config's
problems told once, TLS to a --server, logging while games play, the wait for
another process's lock, the database a run uses, and how a run that could not
go on is told (one line, and its exit status)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from cli.client_tls import server_tls
from cli.lock_wait import lock_wait
from cli.values import usage_error
from clients.interrupts import ignore_further_interrupts
from tournament.config import FILE_FIELD, ConfigError, TournamentConfig, resolve_path
from tournament.store_lock import LockWait

if TYPE_CHECKING:
    from clients.connect import ServerTls
    from tournament.progress import Progress

__all__ = [
    "add_admin_token_flag",
    "config_problem",
    "configure_run_logging",
    "database_of",
    "lock_wait_for",
    "log_queued",
    "server_tls_for",
    "stopped",
]


def add_admin_token_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--admin-token",
        help="the --server's admin token, for CreateMatch (and to fetch each game's record "
        "from a server with --private-replays) (default: $SHEEPFOLD_ADMIN_TOKEN)",
    )


def config_problem(path: str, error: ConfigError) -> str:
    """One line naming the config file once: a problem with the file itself
    (unreadable, not TOML) already names it; a field's problem is put after it,
    and a flag's (`sprt --candidate`) is the flag's alone."""
    if error.field == FILE_FIELD:
        return error.message
    return str(error) if error.field.startswith("--") else f"{path}: {error}"


def server_tls_for(args: argparse.Namespace, config: TournamentConfig) -> ServerTls | None:
    """What --tls and --tls-ca ask for (None: plaintext); a flag that cannot
    apply ends the command with one line and exit status 2, a usage error as
    every other bad flag or config of `run` and `sprt` is (a SystemExit with
    the line alone exited 1, the status of games that could not be played).
    --admin-token is checked here too, and set from $SHEEPFOLD_ADMIN_TOKEN
    when not given."""
    if args.admin_token is not None and not args.server:
        # It was taken and unused: the run's own server makes its own token.
        usage_error(
            "sheepfold tournament: --admin-token is for --server (the "
            "in-process server makes its own token)"
        )
    if args.admin_token is None:
        args.admin_token = os.environ.get("SHEEPFOLD_ADMIN_TOKEN", "")
    if not (args.tls or args.tls_ca):
        return None
    name = "tournament"  # as every other line of run and sprt names the command
    if not args.server:
        usage_error(
            f"sheepfold {name}: --tls and --tls-ca are for --server (the in-process "
            "server needs no TLS)"
        )
    commands = [bot.name for bot in config.bots if bot.command is not None]
    if commands:
        usage_error(
            f"sheepfold {name}: --tls and --tls-ca are for the runner's own calls and its "
            f"in-process bots; command bots ({', '.join(commands)}) connect to the server "
            "by themselves (sandboxed ones through a Unix socket, which never uses TLS)"
        )
    # A CA file it cannot use, TLS over a Unix socket: usage errors there too.
    return server_tls(args, name, args.server.split(","))


def lock_wait_for(args: argparse.Namespace, database: str, progress: Progress | None) -> LockWait:
    """`--wait` for a run's database, said where the run says its other notes:
    through a live progress line (which the notice ends rather than lands in),
    or as a warning in its log (a plain line once broke a stream of JSON lines)."""
    from tournament.progress import note_on

    if progress is None:
        return lock_wait("sheepfold tournament", args, database)
    return lock_wait("sheepfold tournament", args, database, lambda text: note_on(progress, text))


def _log_level() -> str:
    return "warning" if sys.stderr.isatty() else "info"


def configure_run_logging() -> None:
    # Logging (structlog) is set up by the commands that play, not by their parsers.
    from server.logs import configure_logging

    configure_logging("auto", _log_level())


def _print_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextmanager
def log_queued(progress: Progress | None = None) -> Iterator[Callable[[str], None]]:
    """While a run or an SPRT plays, its log lines (its in-process server's too)
    are written to stderr by a thread of their own, as `serve`'s are: a reader
    of stderr that stops reading without closing it once blocked the first line
    past the pipe's 64 KB, and with it every game and the stop signals. Lines
    wait (at most server.logs.QUEUED_LINES, then are lost and counted). Yields
    how to write a line of the command's own the same way. After, once the lines
    waiting are written (FLUSH_SECONDS at most), lines are written directly
    again, so the command's last lines come after them. The lines go around
    `progress`'s live line, when it draws one."""
    from server.logs import FLUSH_SECONDS, configure_logging
    from tournament.progress import terminal_line

    queue = configure_logging("auto", _log_level(), queued=True)
    line = terminal_line(progress)
    if queue is not None and line is not None:
        queue.around = line.lines_between
    try:
        yield _print_line if queue is None else queue.put
    finally:
        if queue is not None:
            queue.flush(FLUSH_SECONDS)
        configure_run_logging()


def database_of(args: argparse.Namespace, config: TournamentConfig) -> str:
    """The database a run or an SPRT uses: --db, or the config's."""
    return args.db or resolve_path(config, config.database)


def stopped(args: argparse.Namespace, error: BaseException) -> int:
    """The exit code, and one clear line (one per bot problem), for a run or an
    SPRT that could not go on."""
    from tournament.botcheck import BotCheckError

    if isinstance(error, BotCheckError):
        for problem in error.problems:
            print(f"sheepfold tournament: {args.config}: {problem}", file=sys.stderr)
        return 2
    if isinstance(error, ConfigError):  # found once the database was looked at
        print(f"sheepfold tournament: {config_problem(args.config, error)}", file=sys.stderr)
        return 2
    if isinstance(error, KeyboardInterrupt):
        ignore_further_interrupts()  # a second Ctrl-C would break into the exit
        print(
            "sheepfold tournament: interrupted; finished games are stored, "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    print(f"sheepfold tournament: {error}", file=sys.stderr)
    return 2 if _is_ray_address_error(error) else 1


def _is_ray_address_error(error: BaseException) -> bool:
    """A --ray ADDRESS (or [executor] address) that is not a Ray cluster: a usage error."""
    from tournament.executors.ray_address import RayAddressError

    return isinstance(error, RayAddressError)
