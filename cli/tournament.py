"""`sheepfold tournament run|sprt|report|forget`: the tournament commands.

The root command line (cli/main.py) calls `add_parser`. `sprt` is in
cli/tournament_sprt.py; what it shares with `run` is in cli/tournament_play.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from collections.abc import Callable
from contextlib import redirect_stdout
from typing import TYPE_CHECKING

from cli.addresses import ray_address, server_addresses
from cli.client_tls import add_tls_flags
from cli.lock_wait import add_wait_argument, lock_wait, wait_notice
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
from cli.tournament_sprt import add_sprt_parser, play_sprt, sprt_config
from cli.values import (
    file_path,
    port,
    refuse_metrics_host_alone,
    refuse_unknown_host,
    seconds_up_to,
    whole_number,
)
from games.words import count
from tournament.config import MAX_BOOTSTRAP, ConfigError, TournamentConfig, load_config
from tournament.executors.settings import (
    HEAD_TIMEOUT_SECONDS,
    MAX_NUM_CPUS,
    ExecutorSettings,
    server_list_refusal,
)
from tournament.report_formats import FORMATS

if TYPE_CHECKING:
    from clients.connect import ServerTls
    from tournament.metrics import TournamentMetrics
    from tournament.progress import Progress

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
        # --ray alone: False, as argparse would pass a str const through `type`,
        # which refuses "" (an unset `--ray "$HEAD"`); every use below reads it as "".
        const=False,
        type=ray_address,
        metavar="ADDRESS",
        help="play every game as a Ray task: on a Ray instance started on this machine, "
        "or on the cluster at ADDRESS (HOST:PORT or auto); needs sheepfold[ray]. "
        "--server may then list several servers, comma-separated",
    )
    run.add_argument(
        "--ray-cpus",
        type=whole_number(1, MAX_NUM_CPUS),
        metavar="N",
        help=f"CPUs of the Ray instance --ray starts on this machine, 1 to {MAX_NUM_CPUS:,} "
        "(default: all)",
    )
    least, most = HEAD_TIMEOUT_SECONDS
    run.add_argument(
        "--ray-head-timeout",
        type=seconds_up_to(most, least=least),
        metavar="SECONDS",
        help="stop the run when the Ray cluster's head has not answered for this long, "
        f"{least:g} to {most:g} (default: the config's head_timeout_seconds, 5)",
    )
    add_admin_token_flag(run)
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
        help=f"address for --metrics-port (default {METRICS_HOST})",
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
    add_sprt_parser(sub)

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


# Where --metrics-port listens unless --metrics-host says otherwise.
METRICS_HOST = "127.0.0.1"


def _run(args: argparse.Namespace) -> int:
    from tournament.metrics import TournamentMetrics
    from tournament.progress import choose_progress

    refuse_metrics_host_alone("tournament", args)
    if (host := args.metrics_host) is not None:
        refuse_unknown_host("tournament", f"--metrics-host {host!r}", host)
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"sheepfold tournament: {config_problem(args.config, error)}", file=sys.stderr)
        return 2
    tls = server_tls_for(args, config)
    configure_run_logging()
    executor = _executor(args, config)
    if executor is None:
        return 2
    refused = _run_refusal(args, config, executor)
    if refused is not None:
        print(f"sheepfold tournament: {refused}", file=sys.stderr)
        return 2
    progress: Progress = choose_progress(game=config.game, tournament=config.name)
    metrics: TournamentMetrics | None = None
    if args.metrics_port is not None:
        metrics = TournamentMetrics(progress)
        progress = metrics
    try:
        return _run_and_report(args, config, progress, executor, tls, _serving(args, metrics))
    finally:
        if metrics is not None:
            metrics.close()


def _serving(args: argparse.Namespace, metrics: TournamentMetrics | None) -> Callable[[], None]:
    """What the run calls once its checks passed: --metrics-port's endpoint
    starts then, not for a run that a bot or its database stops (a RunError
    when the port cannot be had)."""

    def serve() -> None:
        from server.metrics_http import MetricsPortError
        from tournament.run_error import RunError

        if metrics is None:
            return
        try:
            host = args.metrics_host or METRICS_HOST
            port = metrics.serve(host, args.metrics_port)
        except MetricsPortError as error:
            raise RunError(str(error)) from None
        print(
            f"sheepfold tournament: metrics at http://{host}:{port}/metrics",
            file=sys.stderr,
        )

    return serve


def _run_refusal(
    args: argparse.Namespace, config: TournamentConfig, executor: ExecutorSettings
) -> str | None:
    """Why `run` cannot play this config with these flags, or None: an SPRT's
    or a local run's refusals, which are usage errors (exit 2), made before
    the database is created."""
    from tournament.bot_launch import sandboxed_server_refusal

    sprt = config.schedule == "sprt"
    if refused := server_list_refusal(args.server, sprt=sprt, on_ray=executor.is_ray):
        return refused
    # As `match` and `bot` say it: it once exited 1, as a run whose games failed.
    on_ray = executor.is_ray
    if args.server and (refused := sandboxed_server_refusal(config, args.server, on_ray=on_ray)):
        return refused
    if not sprt:
        return None
    if executor.is_ray:
        return (
            "an SPRT plays on this machine; "
            "--ray and [executor] are for round-robin and gauntlet schedules"
        )
    if args.rerun_crashed:
        # An SPRT's verdict is recomputed from every stored block: it has no
        # crashed games to pick out and play again.
        return (
            "--rerun-crashed is for round-robin and gauntlet "
            "schedules; to play an SPRT's games again, delete them with "
            "`sheepfold tournament forget BOT`"
        )
    return None


def _executor(args: argparse.Namespace, config: TournamentConfig) -> ExecutorSettings | None:
    """The config's [executor] as --ray, --ray-cpus and --ray-head-timeout change
    it (None: bad flags, said)."""
    executor = config.executor
    if args.ray is not None:
        executor = dataclasses.replace(executor, kind="ray", address=args.ray or None)
        if args.ray:
            executor = dataclasses.replace(executor, num_cpus=None)
    refused = None
    if args.ray_cpus is not None:
        if not executor.is_ray or executor.address is not None or args.ray_cpus < 1:
            refused = (
                "--ray-cpus N (N >= 1) is for the Ray instance --ray starts here, "
                "without an ADDRESS"
            )
        executor = dataclasses.replace(executor, num_cpus=args.ray_cpus)
    if args.ray_head_timeout is not None:
        if not executor.is_ray:
            refused = (
                "--ray-head-timeout SECONDS is for a run on Ray "
                '(--ray, or kind = "ray" in the config\'s [executor])'
            )
        executor = dataclasses.replace(executor, head_timeout_seconds=args.ray_head_timeout)
    if refused is not None:
        print(f"sheepfold tournament: {refused}", file=sys.stderr)
        return None
    return executor


def _run_and_report(
    args: argparse.Namespace,
    config: TournamentConfig,
    progress: Progress,
    executor: ExecutorSettings,
    tls: ServerTls | None,
    checked: Callable[[], None],
) -> int:
    from tournament.botcheck import BotCheckError
    from tournament.progress import SampleProgress
    from tournament.report import report
    from tournament.runner import RunError, run_tournament
    from tournament.store import StoreError

    if config.schedule == "sprt":
        return play_sprt(args, sprt_config(args, config), progress, tls, checked)
    database = database_of(args, config)
    try:
        # A class bot's prints go to stderr: stdout is the report's.
        with log_queued(progress), redirect_stdout(sys.stderr):
            summary = run_tournament(
                config,
                server=args.server,
                database=database,
                progress=progress,
                admin_token=args.admin_token,
                executor=executor,
                rerun_crashed=args.rerun_crashed,
                tls=tls,
                lock_wait=lock_wait_for(args, database, progress),
                checked=checked,
            )
    except (BotCheckError, ConfigError, RunError, StoreError, KeyboardInterrupt) as error:
        return stopped(args, error)
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
            f"{_same_run(args)} --rerun-crashed` plays those games again",
            file=sys.stderr,
        )
    return 0 if not summary.errors and not summary.always_crashed else 1


def _same_run(args: argparse.Namespace) -> str:
    """The config and the flags that say where this run played and stored its
    games, to run it again (not the admin token: the hint is no place for it)."""
    words = [args.config]
    for flag, value in (("--db", args.db), ("--server", args.server), ("--tls-ca", args.tls_ca)):
        if value:
            words += [flag, str(value)]
    words += ["--tls"] if args.tls and not args.tls_ca else []
    words += [] if args.ray is None else ["--ray", *([args.ray] if args.ray else [])]
    return " ".join(shlex.quote(word) for word in words)


def _report(args: argparse.Namespace) -> int:
    from tournament.progress import SampleProgress
    from tournament.report import report
    from tournament.store import StoreError

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
    from tournament.claims import claimed
    from tournament.store import Store, StoreError, check_existing

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
