"""`sheepfold tournament run|report`, and the round robin `sheepfold demo` prints.

The root command line (cli/main.py) calls `add_parser`; `python -m tournament`
runs the same commands on their own.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from server.metrics_http import MetricsPortError
from tournament.config import BotSpec, ConfigError, TournamentConfig, load_config
from tournament.metrics import TournamentMetrics
from tournament.progress import Progress, choose_progress
from tournament.report import FORMATS, report
from tournament.runner import RunError, run_tournament, run_tournament_async
from tournament.store import StoreError

__all__ = ["add_parser", "demo_round_robin", "main"]

RUN_HELP = """\
Play (or resume) the round robin described by a TOML config file. Every finished
game is written to the SQLite database at once; running the same command again
plays exactly the games still missing. Without --server an in-process server is
started on a free loopback port. Progress is a live line on a terminal and
structlog lines otherwise. See docs/tournament.md for the config format.
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
        help="round-robin tournaments with Elo ratings (run, report)",
        description="Round-robin tournaments between bots through a Sheepfold server, "
        "stored in SQLite, rated with Bradley-Terry Elo and bootstrap intervals.",
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
        help="play on this server (HOST:PORT) instead of an in-process one",
    )
    run.add_argument(
        "--db", metavar="FILE", help="SQLite database (default: `database` from the config)"
    )
    run.add_argument(
        "--admin-token",
        default=os.environ.get("SHEEPFOLD_ADMIN_TOKEN", ""),
        help="admin token for CreateMatch on --server (default: $SHEEPFOLD_ADMIN_TOKEN)",
    )
    run.add_argument(
        "--no-report", action="store_true", help="do not print the standings at the end"
    )
    run.add_argument(
        "--metrics-port",
        type=int,
        metavar="PORT",
        help="serve Prometheus metrics (games done, in flight, errors, bot crashes) "
        "at http://HOST:PORT/metrics while the run lasts (0 = any free port)",
    )
    run.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        help="address for --metrics-port (default %(default)s)",
    )
    run.set_defaults(handler=_run)

    rep = sub.add_parser(
        "report",
        help="print the standings, crosstable and mean scores of a stored tournament",
        description=REPORT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rep.add_argument("--db", metavar="FILE", required=True, help="the tournament's database")
    rep.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default), json (same content, for programs), csv or markdown",
    )
    rep.add_argument(
        "--tournament", metavar="NAME", help="which tournament in the database (default: latest)"
    )
    rep.add_argument(
        "--bootstrap",
        type=int,
        metavar="N",
        help="bootstrap samples for the intervals (default: the config's, 1000)",
    )
    rep.add_argument(
        "--anchor",
        metavar="BOT",
        help="rate relative to this bot (Elo 0), or 'mean' for a mean of 0 "
        "(default: the config's anchor)",
    )
    rep.set_defaults(handler=_report)
    return parser


def _configure_logging() -> None:
    try:
        from server.logs import configure_logging
    except ImportError:  # pragma: no cover - the server package is part of sheepfold
        return
    configure_logging("auto", "warning" if sys.stderr.isatty() else "info")


def _run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"sheepfold tournament: {args.config}: {error}", file=sys.stderr)
        return 2
    _configure_logging()
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
        return _run_and_report(args, config, progress)
    finally:
        if metrics is not None:
            metrics.close()


def _run_and_report(args: argparse.Namespace, config: TournamentConfig, progress: Progress) -> int:
    try:
        summary = run_tournament(
            config,
            server=args.server,
            database=args.db,
            progress=progress,
            admin_token=args.admin_token,
        )
    except (RunError, StoreError) as error:
        print(f"sheepfold tournament: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "sheepfold tournament: interrupted; finished games are stored, "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    print(
        f"{summary.played} games played in {summary.seconds:.1f} s "
        f"({summary.games_per_second:.2f} games/s), "
        f"{summary.already_done + summary.played}/{summary.scheduled} done"
        + (f", {summary.errors} not played (see the log)" if summary.errors else ""),
        file=sys.stderr,
    )
    if not args.no_report and summary.already_done + summary.played:
        print(report(summary.database, "text", tournament=config.name))
    return 0 if not summary.errors else 1


def _report(args: argparse.Namespace) -> int:
    try:
        print(
            report(
                args.db,
                args.format,
                tournament=args.tournament,
                samples=args.bootstrap,
                anchor=args.anchor,
            ),
            end="" if args.format != "json" else "\n",
        )
    except (StoreError, FileNotFoundError, ValueError) as error:
        print(f"sheepfold tournament: {error}", file=sys.stderr)
        return 1
    return 0


async def demo_round_robin(
    address: str,
    game: str,
    bots: list[str],
    games_per_pairing: int,
    seed: int,
    players: int = 2,
    decision_seconds: float = 10.0,
    options: Mapping[str, str] | None = None,
) -> str:
    """A short round robin of bot specs on a running server; returns the printable table
    (what `sheepfold demo` prints per game).

    `bots` are built-in names or module:Class specs; a spec listed twice gets a
    suffix (random, random-2). Results go to a throwaway database.
    """
    names: list[str] = []
    specs: list[BotSpec] = []
    for spec in bots:
        base = spec.rsplit(":", 1)[-1] if ":" in spec else spec
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}-{n}"
        names.append(name)
        specs.append(
            BotSpec(
                name=name,
                builtin=spec if ":" not in spec else None,
                cls=spec if ":" in spec else None,
            )
        )
    config = TournamentConfig(
        name=f"demo-{game}",
        game=game,
        players=players,
        bots=tuple(specs),
        options=tuple(sorted((options or {}).items())),
        games_per_pairing=games_per_pairing,
        seed=seed,
        concurrency=2,
        decision_seconds=decision_seconds,
        bootstrap=200,
    )
    with tempfile.TemporaryDirectory(prefix="sheepfold-demo-") as folder:
        database = str(Path(folder) / "demo.sqlite")
        await run_tournament_async(config, address, database)
        return report(database, "text")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tournament")
    commands = parser.add_subparsers(dest="command", required=True)
    add_parser(commands)
    args = parser.parse_args(["tournament", *(sys.argv[1:] if argv is None else argv)])
    return int(args.handler(args) or 0)
