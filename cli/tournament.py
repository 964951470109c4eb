"""`sheepfold tournament run|sprt|report|forget`: the tournament commands.

The root command line (cli/main.py) calls `add_parser`.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout

from cli.addresses import server_address, server_addresses
from cli.client_tls import add_tls_flags, server_tls
from cli.lock_wait import add_wait_argument, lock_wait, wait_notice
from cli.values import file_path, finite_float, port, whole_number
from clients.connect import ServerTls
from clients.interrupts import ignore_further_interrupts
from games.words import count
from server.logs import FLUSH_SECONDS, configure_logging
from server.metrics_http import MetricsPortError
from tournament.botcheck import BotCheckError
from tournament.claims import claimed
from tournament.config import (
    FILE_FIELD,
    MAX_BOOTSTRAP,
    MAX_GAMES,
    ConfigError,
    SprtSettings,
    TournamentConfig,
    check_sprt,
    load_config,
    resolve_path,
)
from tournament.executors.settings import MAX_NUM_CPUS, ExecutorSettings
from tournament.metrics import TournamentMetrics
from tournament.progress import (
    ProblemsProgress,
    Progress,
    SampleProgress,
    choose_progress,
    draws_a_line,
)
from tournament.report import FORMATS, report
from tournament.runner import RunError, run_tournament
from tournament.sprt import SprtStatus
from tournament.sprt_blocks import format_status, max_blocks
from tournament.sprt_run import run_sprt
from tournament.store import Store, StoreError, check_existing
from tournament.store_lock import LockWait

__all__ = ["add_parser"]

FORGET_COMMAND = "tournament forget"  # who holds the claim, as a refused command names it


RUN_HELP = """\
Play (or resume) the round robin described by a TOML config file. Every finished
game is written to the SQLite database at once; running the same command again
plays exactly the games still missing. Without --server an in-process server is
started on a free loopback port. Progress is a live line on a terminal and
structlog lines otherwise. See docs/tournament.md for the config format.

One run (or sprt) of a tournament at a time: while one plays, another run of
the same tournament on the same database, and `tournament forget` on it, stop
with one line naming the process that holds it (exit 1). Other tournaments in
the database are not held up. The hold ends with the process, even a killed one.
"""

REPORT_HELP = """\
Print the standings of a stored tournament: rank, bot, Elo (Bradley-Terry,
maximum likelihood) with a 95% bootstrap interval, likelihood of superiority
over the next bot, games, score %, pairwise wins/draws/losses, mean score with
a 95% interval, timeouts, disqualifications and crashes; then a crosstable of
score % between every two bots. Solo tournaments are ranked by mean score.
"""


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "tournament",
        help="round robins, gauntlets and SPRTs with Elo ratings (run, sprt, report, forget)",
        description="Round robins, gauntlets and SPRTs between bots through a Sheepfold "
        "server, stored in SQLite, rated with Bradley-Terry Elo and bootstrap intervals.",
    )
    sub = parser.add_subparsers(dest="tournament_command", required=True, metavar="SUBCOMMAND")

    run = sub.add_parser(
        "run",
        help="play or resume a tournament from a TOML config",
        description=RUN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("config", metavar="CONFIG", help="the tournament's TOML file")
    run.add_argument(
        "--server",
        metavar="ADDR",
        type=server_addresses,
        help="play on this server (HOST:PORT or unix:PATH) instead of an in-process one; "
        "with --ray, on several (HOST:PORT,HOST:PORT...), the games spread over them",
    )
    run.add_argument(
        "--db",
        metavar="FILE",
        type=file_path,
        help="SQLite database (default: `database` from the config)",
    )
    run.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play every game as a Ray task: on a Ray instance started on this machine, "
        "or on the cluster at ADDRESS (HOST:PORT or auto); needs sheepfold[ray]. "
        "--server may then list several servers, comma-separated",
    )
    run.add_argument(
        "--ray-cpus",
        type=whole_number(1, MAX_NUM_CPUS),
        metavar="N",
        help=f"CPUs of the Ray instance --ray starts on this machine, 1 to {MAX_NUM_CPUS} "
        "(default: all)",
    )
    _add_admin_token_flag(run)
    add_tls_flags(run)
    run.add_argument(
        "--no-report", action="store_true", help="do not print the standings at the end"
    )
    run.add_argument(
        "--rerun-crashed",
        action="store_true",
        help="first delete the stored games in which a bot crashed, then play them again "
        "(after fixing the bot; round-robin and gauntlet schedules)",
    )
    run.add_argument(
        "--metrics-port",
        type=port,
        metavar="PORT",
        help="serve Prometheus metrics (games done, in flight, errors, bot crashes) "
        "at http://HOST:PORT/metrics while the run lasts (0 = any free port)",
    )
    run.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        help="address for --metrics-port (default %(default)s)",
    )
    add_wait_argument(run)
    run.set_defaults(handler=_run, interrupt_on_terminate=True)

    forget = sub.add_parser(
        "forget",
        help="delete every stored game a bot played in",
        description="Delete every stored game BOT played in (results and records), e.g. "
        "after a bug fix or to drop a bot: `tournament run` plays them again while BOT "
        "is in the config, and the report no longer counts them. Refused (exit 1, naming "
        "the process) while a `tournament run` or `sprt` of that tournament is playing.",
    )
    forget.add_argument("bot", metavar="BOT", help="the bot's name in the config")
    forget.add_argument(
        "--db", metavar="FILE", type=file_path, required=True, help="the tournament's database"
    )
    forget.add_argument(
        "--tournament", metavar="NAME", help="which tournament in the database (default: latest)"
    )
    add_wait_argument(forget)
    forget.set_defaults(handler=_forget)
    _add_sprt_parser(sub)

    rep = sub.add_parser(
        "report",
        help="print the standings, crosstable and mean scores of a stored tournament",
        description=REPORT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rep.add_argument(
        "--db", metavar="FILE", type=file_path, required=True, help="the tournament's database"
    )
    rep.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default), json (same content, for programs), csv, markdown, or html "
        "(one self-contained page with the Elo plot and the crosstable heat map)",
    )
    rep.add_argument(
        "--tournament", metavar="NAME", help="which tournament in the database (default: latest)"
    )
    rep.add_argument(
        "--bootstrap",
        type=whole_number(0, MAX_BOOTSTRAP),
        metavar="N",
        help=f"bootstrap samples for the intervals, 0 to {MAX_BOOTSTRAP:,} "
        "(default: the config's, 1000)",
    )
    rep.add_argument(
        "--anchor",
        metavar="BOT",
        help="rate relative to this bot (Elo 0), or 'mean' for a mean of 0 "
        "(default: the config's anchor)",
    )
    rep.add_argument(
        "--include-removed",
        action="store_true",
        help="also rate the stored games of bots no longer in the config "
        "(default: a bot removed from the config leaves the ratings with its games)",
    )
    add_wait_argument(rep)
    rep.set_defaults(handler=_report)
    return parser


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
reached undecided, 1 games could not be played (or another process holds the
tournament), 2 bad config or options.
"""


def _add_sprt_parser(sub: argparse._SubParsersAction) -> None:
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
    _add_admin_token_flag(sprt)
    add_tls_flags(sprt)
    add_wait_argument(sprt)
    sprt.set_defaults(handler=_sprt, interrupt_on_terminate=True)


def _add_admin_token_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--admin-token",
        default=os.environ.get("SHEEPFOLD_ADMIN_TOKEN", ""),
        help="the --server's admin token, for CreateMatch (and to fetch each game's record "
        "from a server with --private-replays) (default: $SHEEPFOLD_ADMIN_TOKEN)",
    )


def _sprt_config(args: argparse.Namespace, config: TournamentConfig) -> TournamentConfig:
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
    check_sprt(settings, names, config.players)
    return dataclasses.replace(config, schedule="sprt", sprt=settings)


def _sprt(args: argparse.Namespace) -> int:
    try:
        config = _sprt_config(args, load_config(args.config))
    except ConfigError as error:
        print(f"sheepfold tournament: {_config_problem(args.config, error)}", file=sys.stderr)
        return 2
    tls = _server_tls(args, config, "sprt")
    _configure_logging()
    # Its own line after every look, and a line for each game it could not count.
    return _play_sprt(args, config, ProblemsProgress(), tls)


def _config_problem(path: str, error: ConfigError) -> str:
    """One line naming the config file once: a problem with the file itself
    (unreadable, not TOML) already names it; a field's problem is put after it."""
    return error.message if error.field == FILE_FIELD else f"{path}: {error}"


def _server_tls(
    args: argparse.Namespace, config: TournamentConfig, command: str
) -> ServerTls | None:
    """What --tls and --tls-ca ask for (None: plaintext); a flag that cannot
    apply ends the command with one line."""
    if not (args.tls or args.tls_ca):
        return None
    name = f"tournament {command}"
    if not args.server:
        raise SystemExit(
            f"sheepfold {name}: --tls and --tls-ca are for --server (the in-process "
            "server needs no TLS)"
        )
    commands = [bot.name for bot in config.bots if bot.command is not None]
    if commands:
        raise SystemExit(
            f"sheepfold {name}: --tls and --tls-ca are for the runner's own calls and its "
            f"in-process bots; command bots ({', '.join(commands)}) connect to the server "
            "by themselves (sandboxed ones through a Unix socket, which never uses TLS)"
        )
    return server_tls(args, name, args.server.split(","))


def _play_sprt(
    args: argparse.Namespace,
    config: TournamentConfig,
    progress: Progress | None,
    tls: ServerTls | None,
) -> int:
    settings = config.sprt
    assert settings is not None
    database = _database(args, config)
    try:
        # A class bot's prints go to stderr: stdout is the result's.
        with _log_queued() as write_line, redirect_stdout(sys.stderr):

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
                lock_wait=_lock_wait(args, database, progress),
            )
    except (BotCheckError, RunError, StoreError, KeyboardInterrupt) as error:
        return _stopped(args, error)
    lines = [format_status(settings, outcome.status, outcome.games)]
    if outcome.score_difference is not None:
        mean, low, high = outcome.score_difference
        interval = "(one deal)" if low is None or high is None else f"[{low:+.2f}, {high:+.2f}]"
        lines.append(f"mean score difference on the same deals: {mean:+.2f} {interval}")
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
    return outcome.exit_code


def _lock_wait(args: argparse.Namespace, database: str, progress: Progress | None) -> LockWait:
    """`--wait` for a run's database: said through a live progress line, when
    one is drawn, so that the notice ends it rather than lands in it."""
    if progress is not None and draws_a_line(progress):
        return lock_wait("sheepfold tournament", args, database, progress.note)
    return lock_wait("sheepfold tournament", args, database)


def _log_level() -> str:
    return "warning" if sys.stderr.isatty() else "info"


def _configure_logging() -> None:
    configure_logging("auto", _log_level())


def _print_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextmanager
def _log_queued() -> Iterator[Callable[[str], None]]:
    """While a run or an SPRT plays, its log lines (its in-process server's too)
    are written to stderr by a thread of their own, as `serve`'s are: a reader
    of stderr that stops reading without closing it once blocked the first line
    past the pipe's 64 KB, and with it every game and the stop signals. Lines
    wait (at most server.logs.QUEUED_LINES, then are lost and counted). Yields
    how to write a line of the command's own the same way. After, once the lines
    waiting are written (FLUSH_SECONDS at most), lines are written directly
    again, so the command's last lines come after them."""
    queue = configure_logging("auto", _log_level(), queued=True)
    try:
        yield _print_line if queue is None else queue.put
    finally:
        if queue is not None:
            queue.flush(FLUSH_SECONDS)
        _configure_logging()


def _run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"sheepfold tournament: {_config_problem(args.config, error)}", file=sys.stderr)
        return 2
    tls = _server_tls(args, config, "run")
    _configure_logging()
    executor = _executor(args, config)
    if executor is None:
        return 2
    progress: Progress = choose_progress()
    metrics: TournamentMetrics | None = None
    if args.metrics_port is not None:
        metrics = TournamentMetrics(progress)
        try:
            port = metrics.serve(args.metrics_host, args.metrics_port)
        except MetricsPortError as error:
            print(f"sheepfold tournament: {error}", file=sys.stderr)
            return 1
        print(
            f"sheepfold tournament: metrics at http://{args.metrics_host}:{port}/metrics",
            file=sys.stderr,
        )
        progress = metrics
    try:
        return _run_and_report(args, config, progress, executor, tls)
    finally:
        if metrics is not None:
            metrics.close()


def _executor(args: argparse.Namespace, config: TournamentConfig) -> ExecutorSettings | None:
    """The config's [executor] as --ray and --ray-cpus change it (None: bad flags)."""
    executor = config.executor
    if args.ray is not None:
        executor = dataclasses.replace(executor, kind="ray", address=args.ray or None)
        if args.ray:
            executor = dataclasses.replace(executor, num_cpus=None)
    if args.ray_cpus is not None:
        if not executor.is_ray or executor.address is not None or args.ray_cpus < 1:
            print(
                "sheepfold tournament: --ray-cpus N (N >= 1) is for the Ray instance "
                "--ray starts here, without an ADDRESS",
                file=sys.stderr,
            )
            return None
        executor = dataclasses.replace(executor, num_cpus=args.ray_cpus)
    return executor


def _run_and_report(
    args: argparse.Namespace,
    config: TournamentConfig,
    progress: Progress,
    executor: ExecutorSettings,
    tls: ServerTls | None,
) -> int:
    if config.schedule == "sprt":
        if executor.is_ray:
            print(
                "sheepfold tournament: an SPRT plays on this machine; "
                "--ray and [executor] are for round-robin and gauntlet schedules",
                file=sys.stderr,
            )
            return 2
        if args.rerun_crashed:
            # An SPRT's verdict is recomputed from every stored block: it has no
            # crashed games to pick out and play again.
            print(
                "sheepfold tournament: --rerun-crashed is for round-robin and gauntlet "
                "schedules; to play an SPRT's games again, delete them with "
                "`sheepfold tournament forget BOT`",
                file=sys.stderr,
            )
            return 2
        return _play_sprt(args, _sprt_config(args, config), progress, tls)
    database = _database(args, config)
    try:
        # A class bot's prints go to stderr: stdout is the report's.
        with _log_queued(), redirect_stdout(sys.stderr):
            summary = run_tournament(
                config,
                server=args.server,
                database=database,
                progress=progress,
                admin_token=args.admin_token,
                executor=executor,
                rerun_crashed=args.rerun_crashed,
                tls=tls,
                lock_wait=_lock_wait(args, database, progress),
            )
    except (BotCheckError, RunError, StoreError, KeyboardInterrupt) as error:
        return _stopped(args, error)
    print(
        f"{count(summary.played, 'game')} played in {summary.seconds:.1f} s "
        f"({summary.games_per_second:.2f} games/s), "
        f"{summary.done}/{summary.scheduled} done"
        + (f", {summary.errors} not played (see the log)" if summary.errors else ""),
        file=sys.stderr,
    )
    for server, why in summary.dropped_servers:
        print(
            f"sheepfold tournament: the server at {server} was dropped mid-run ({why}); "
            "its games were played on the others",
            file=sys.stderr,
        )
    if summary.forgotten:
        print(
            f"{count(summary.forgotten, 'game')} with a crash were deleted and played again",
            file=sys.stderr,
        )
    if not args.no_report and summary.done:
        bootstrap = SampleProgress(prefix="sheepfold tournament: bootstrap")
        print(report(summary.database, "text", tournament=config.name, on_samples=bootstrap))
    for failed in summary.always_crashed:
        print(f"sheepfold tournament: {failed.line()}", file=sys.stderr)
    if summary.always_crashed:
        print(
            "sheepfold tournament: fix the bot, then `sheepfold tournament run "
            f"{args.config} --rerun-crashed` plays those games again",
            file=sys.stderr,
        )
    return 0 if not summary.errors and not summary.always_crashed else 1


def _report(args: argparse.Namespace) -> int:
    try:
        print(
            report(
                args.db,
                args.format,
                tournament=args.tournament,
                samples=args.bootstrap,
                anchor=args.anchor,
                include_removed=args.include_removed,
                on_samples=SampleProgress(prefix="sheepfold tournament: bootstrap"),
                wait=args.wait,
                on_wait=wait_notice("sheepfold tournament", args.db),
            ),
            end="" if args.format != "json" else "\n",
        )
    except (StoreError, FileNotFoundError, ValueError) as error:
        print(f"sheepfold tournament: {error}", file=sys.stderr)
        return 1
    return 0


def _forget(args: argparse.Namespace) -> int:
    try:
        check_existing(args.db)
        lock = lock_wait("sheepfold tournament", args, args.db)
        with Store(args.db, lock.seconds, lock.on_wait) as store:
            record = store.tournament(args.tournament)
            # No run may count (or be about to play) the games deleted here.
            with claimed(store.path, record.name, FORGET_COMMAND):
                forgotten = store.forget(record.id, store.keys_of_bot(record.id, args.bot))
    except StoreError as error:
        print(f"sheepfold tournament: {error}", file=sys.stderr)
        return 1
    if not forgotten:
        print(
            f"sheepfold tournament: bot {args.bot!r} played no stored game of "
            f"tournament {record.name!r}",
            file=sys.stderr,
        )
        return 1
    print(f"forgot {count(forgotten, 'game')} of {args.bot!r} in tournament {record.name!r}")
    return 0


def _database(args: argparse.Namespace, config: TournamentConfig) -> str:
    """The database a run or an SPRT uses: --db, or the config's."""
    return args.db or resolve_path(config, config.database)


def _stopped(args: argparse.Namespace, error: BaseException) -> int:
    """The exit code, and one clear line (one per bot problem), for a run or an
    SPRT that could not go on."""
    if isinstance(error, BotCheckError):
        for problem in error.problems:
            print(f"sheepfold tournament: {args.config}: {problem}", file=sys.stderr)
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
