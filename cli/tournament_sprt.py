"""`sheepfold tournament sprt`: play blocks of games until a sequential
probability ratio test decides whether a candidate bot is stronger; also what
`tournament run` does with a config whose schedule is "sprt"."""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from typing import TYPE_CHECKING

from cli.addresses import server_address
from cli.client_tls import add_tls_flags
from cli.lock_wait import add_wait_argument
from cli.tournament_play import (
    add_admin_token_flag,
    config_problem,
    configure_run_logging,
    database_of,
    lock_wait_for,
    log_queued,
    server_tls_for,
    stopped,
)
from cli.values import file_path, finite_float, whole_number
from games.words import count
from tournament.config import (
    MAX_GAMES,
    ConfigError,
    SprtSettings,
    TournamentConfig,
    check_sprt,
    load_config,
)
from tournament.executors.settings import server_list_refusal

if TYPE_CHECKING:
    from clients.connect import ServerTls
    from tournament.progress import Progress
    from tournament.sprt import SprtStatus
    from tournament.sprt_run import SprtOutcome

__all__ = ["add_sprt_parser", "play_sprt", "sprt_config"]


SPRT_HELP = """\
Test whether CANDIDATE is stronger than BASELINE with a sequential probability
ratio test: H0 says the candidate is elo0 Elo stronger, H1 that it is elo1
stronger. Games are played in blocks on one seed (2 players: the seat-swapped
pair, scored with the pentanomial model; k players: every seat rotation with
k - 2 other bots of the config, twice, the two tested bots trading seats the
second time; solo: both bots on the same deal), and the
test stops as soon as the log-likelihood ratio crosses a bound. It prints
LLR, bounds, games and the Elo estimate with its 95% interval after every
look. The games are stored like a round robin's: running it again resumes.
Like `run`, it holds the tournament while it plays (no second run or sprt of
it, no `forget`). Exit status: 0 H1 accepted, 3 H0 accepted, 4 game limit
reached undecided, 1 games could not be played, a bot crashed in every game
it played (or another process holds the tournament), 2 bad config or options,
130 interrupted.
"""


def add_sprt_parser(sub: argparse._SubParsersAction) -> None:
    sprt = sub.add_parser(
        "sprt",
        help="is the candidate stronger? play until a sequential test decides",
        description=SPRT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sprt.add_argument("config", metavar="CONFIG", help="the TOML file (its [sprt] table, if any)")
    sprt.add_argument("--candidate", metavar="BOT", help="default: [sprt] candidate, or bot 1")
    sprt.add_argument("--baseline", metavar="BOT", help="default: [sprt] baseline, or bot 2")
    default = SprtSettings(candidate="", baseline="")  # what a config without [sprt] gets
    for name, what in (
        ("elo0", "H0's Elo difference"),
        ("elo1", "H1's Elo difference"),
        ("alpha", "false H1 rate"),
        ("beta", "false H0 rate"),
    ):
        sprt.add_argument(
            f"--{name}",
            type=finite_float,
            help=f"{what} (default: [sprt] {name}, or {getattr(default, name):g})",
        )
    sprt.add_argument(
        "--max-games",
        type=whole_number(1, MAX_GAMES),
        metavar="N",
        help=f"stop undecided after this many games, 1 to {MAX_GAMES:,} "
        f"(default: [sprt] max_games, or {default.max_games:,})",
    )
    sprt.add_argument(
        "--server",
        metavar="ADDR",
        type=server_address,
        help="play on this server (HOST:PORT or unix:PATH)",
    )
    sprt.add_argument(
        "--db", metavar="FILE", type=file_path, help="SQLite database (default: the config's)"
    )
    add_admin_token_flag(sprt)
    add_tls_flags(sprt)
    add_wait_argument(sprt)
    sprt.set_defaults(handler=_sprt, interrupt_on_terminate=True)


def sprt_config(args: argparse.Namespace, config: TournamentConfig) -> TournamentConfig:
    names = list(config.bot_names)
    settings = config.sprt or SprtSettings(
        candidate=names[0], baseline=names[1] if len(names) > 1 else names[0]
    )
    overrides = {
        key: getattr(args, key, None)
        for key in ("candidate", "baseline", "elo0", "elo1", "alpha", "beta", "max_games")
    }
    settings = dataclasses.replace(
        settings, **{key: value for key, value in overrides.items() if value is not None}
    )
    try:
        check_sprt(settings, names, config.players)
    except ConfigError as error:
        key = error.field.removeprefix("sprt.")
        if overrides.get(key) is None:
            raise
        # The flag's value, not the file's: the file may have no [sprt] table at all.
        raise ConfigError(f"--{key.replace('_', '-')}", error.message) from None
    return dataclasses.replace(config, schedule="sprt", sprt=settings)


def _sprt(args: argparse.Namespace) -> int:
    from tournament.progress import ProblemsProgress

    try:
        config = sprt_config(args, load_config(args.config))
    except ConfigError as error:
        print(f"sheepfold tournament: {config_problem(args.config, error)}", file=sys.stderr)
        return 2
    # --server's type refuses HOST:PORT,HOST:PORT but passes a unix: path
    # whole; one holding a comma is a list all the same (gRPC reads it so).
    from tournament.bot_launch import sandboxed_server_refusal

    if refused := server_list_refusal(args.server, sprt=True, on_ray=False) or (
        args.server and sandboxed_server_refusal(config, args.server, on_ray=False)
    ):
        print(f"sheepfold tournament: {refused}", file=sys.stderr)
        return 2
    tls = server_tls_for(args, config)
    configure_run_logging()
    # Its own line after every look, and a line for each game it could not count.
    return play_sprt(args, config, ProblemsProgress(config.name), tls)


def play_sprt(
    args: argparse.Namespace,
    config: TournamentConfig,
    progress: Progress | None,
    tls: ServerTls | None,
    checked: Callable[[], None] = lambda: None,
) -> int:
    from tournament.botcheck import BotCheckError
    from tournament.runner import RunError
    from tournament.sprt_blocks import format_status, max_blocks, result_lines
    from tournament.sprt_run import run_sprt
    from tournament.store import StoreError

    settings = config.sprt
    assert settings is not None
    database = database_of(args, config)
    try:
        # A class bot's prints go to stderr: stdout is the result's.
        with log_queued(progress) as write_line, redirect_stdout(sys.stderr):

            def show(status: SprtStatus, games: int) -> None:
                write_line(format_status(settings, status, games))

            outcome = run_sprt(
                config,
                server=args.server,
                database=database,
                on_status=show,
                progress=progress,
                admin_token=args.admin_token,
                tls=tls,
                lock_wait=lock_wait_for(args, database, progress),
                checked=checked,
            )
    except (BotCheckError, ConfigError, RunError, StoreError, KeyboardInterrupt) as error:
        return stopped(args, error)
    lines = result_lines(settings, outcome.status, outcome.games, outcome.score_difference)
    undecided = outcome.verdict == "inconclusive"
    # Blocks, not games: the limit is whole blocks, often fewer games than
    # max_games (9,996 of 10,000 in 6-game blocks at 3 players).
    if undecided and outcome.errors and outcome.status.blocks < max_blocks(config, settings):
        print("\n".join(lines), file=sys.stderr)
        print(
            f"sheepfold tournament: {count(outcome.errors, 'game')} could not be played; "
            "the test stopped undecided (see the log)",
            file=sys.stderr,
        )
        _crashed_lines(args, config, outcome)
        return 1
    verdict = {
        "H1": f"H1 accepted: {settings.candidate} is stronger than {settings.baseline} "
        f"(by elo1 = {settings.elo1:g} rather than elo0 = {settings.elo0:g})",
        "H0": f"H0 accepted: {settings.candidate} is not stronger than {settings.baseline} "
        f"by elo1 = {settings.elo1:g}",
        "inconclusive": f"undecided after the game limit ({count(settings.max_games, 'game')})",
    }[outcome.verdict]
    lines.append(f"{verdict}; {count(outcome.played, 'game')} played this run")
    print("\n".join(lines))
    if outcome.always_crashed:
        # Its random stand-ins played, so the verdict says nothing of the bot: a
        # baseline that crashed every game once passed as an accepted H1 (exit 0).
        _crashed_lines(args, config, outcome)
        return 1
    return outcome.exit_code


def _crashed_lines(
    args: argparse.Namespace, config: TournamentConfig, outcome: SprtOutcome
) -> None:
    """One line per bot that crashed in every game it played, and how to test again."""
    for failed in outcome.always_crashed:
        print(f"sheepfold tournament: {failed.line()}", file=sys.stderr)
    if not outcome.always_crashed:
        return
    database = database_of(args, config)
    bots = [failed.bot for failed in outcome.always_crashed]
    forget = [
        f"sheepfold tournament forget {shlex.quote(bot)} --db {shlex.quote(database)} "
        f"--tournament {shlex.quote(config.name)}"
        for bot in bots
    ]
    one = len(bots) == 1
    # A bot seated beside the two tested (3 or more players) is not what the
    # verdict measured: it measured the two at tables of random stand-ins, which
    # the line once called measuring the stand-ins instead of that bot.
    settings = config.sprt
    assert settings is not None
    tested = (settings.candidate, settings.baseline)
    measured = [bot for bot in bots if bot in tested]
    beside = [bot for bot in bots if bot not in tested]
    if measured:
        what = f"the verdict measured random stand-ins, not {_names(measured)}"
    else:
        what = f"the verdict compared {_names(tested)}"
    if beside:
        what += f" beside random stand-ins, not {_names(beside)}"
    print(
        f"sheepfold tournament: {what}: fix the {'bot' if one else 'bots'}, "
        f"delete {'its' if one else 'their'} games (`{'`, `'.join(forget)}`), then test again",
        file=sys.stderr,
    )


def _names(bots: Sequence[str]) -> str:
    return " and ".join(repr(bot) for bot in bots)
