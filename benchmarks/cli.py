"""`python -m benchmarks`: run the benchmarks, print tables, write JSON."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc

from benchmarks import (
    engine,
    memory,
    metrics_cost,
    ray_scaling,
    report,
    sandbox,
    serving,
    soak,
    targets,
    tournament,
)
from benchmarks.procs import ROOT
from cli.values import file_path, seconds_up_to, whole_number
from server.logs import configure_logging

SECTIONS = (
    "engine",
    "server",
    "baseline",
    "memory",
    "tournament",
    "metrics",
    "soak",
    "ray",
    "sandbox",
)
# Off and on alternate this many times per level; the table shows medians.
METRICS_RUNS = 3
# Short matches: one round of Sheep Showdown between two random bots.
SOAK_GAME, SOAK_PLAYERS, SOAK_OPTIONS = "sheep-showdown", 2, {"rounds": "1"}
DEFAULT_JSON = ROOT / "benchmarks" / "results" / "latest.json"
# The server table's games, each at its most common table (two players: most bot
# matches are duels). The first also gets the whole cost curve and the in-memory
# store's row; the others are measured at the levels the targets name.
LOAD_GAMES = (
    ("sheep-n-sheep", 2),
    ("sheep-showdown", 2),
    ("sheep-and-garden", 2),
    ("stubborn-sheep", 2),
)

DESCRIPTION = """\
Measure Sheepfold side by side with bare gRPC, print tables and write JSON.

sections (all by default; pick with --only):
  engine      random full games per second and decisions per second, one core,
              for every game and player count (and notable options)
  server      decisions/s and p50/p99 decision round trip (a seat answers ->
              the match's next decision arrives) through `sheepfold serve`
              (a subprocess storing in a SQLite file, WAL) at 1, 10, 100 and
              500 concurrent matches of random bots run by a separate
              bot-driver process, for every game (2 players; sheep-n-sheep
              also with --db :memory:, the others at 10 and 100 only)
  baseline    the same through a bare grpc.aio Play server that replays the
              same game's recorded messages with no engine: server/baseline is
              the figure to steer by
  memory      resident memory per live match, 1,000 matches per game
  tournament  games per second of a round robin at concurrency 1 and 2
  sandbox     the bot sandbox's start-up per bot and its per-decision overhead,
              and a tournament of command bots sandboxed vs unsandboxed
              (goal: >= 0.8x the games/s)
  metrics     the server section's load with Prometheus metrics off and on
              (`serve --metrics-port`), alternating three times per level:
              median decisions/s and CPU per decision
  soak        thousands of short matches through `sheepfold serve` with a SQLite
              file (3,000, at most 300 s; quick 500, 60 s): resident memory and
              open files per 1,000 matches after a warm-up, database bytes per match
  ray         games/s of a CPU-bound round robin (mcts, fixed iterations) with
              the local runner and with --ray given 1 and 2 CPUs (needs unshare
              and ip: Ray runs in a private network namespace)

Targets are printed, never asserted (exit status 0 even when one is missed;
1 only when a section could not run). Absolute figures are noisy; ratios
measured in one run are not.
"""

QUICK = {
    "engine_seconds": 0.3,
    "levels": (1, 10, 100),
    "seconds": 1.5,
    "warmup": 0.3,
    "memory_matches": 200,
    "games_per_pairing": 1,
    "sandbox_games": 1,
    "soak_matches": 500,
    "soak_seconds": 60.0,
}
FULL = {
    "engine_seconds": 1.0,
    "levels": (1, 10, 100, 500),
    "seconds": 5.0,
    "warmup": 1.0,
    "memory_matches": 1000,
    "games_per_pairing": 2,
    "sandbox_games": 4,
    "soak_matches": 3000,
    "soak_seconds": 300.0,
}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="tiny configuration (short windows, levels 1/10/100, 200 matches for memory): "
        "several minutes (every section, the Ray one in a private network namespace)",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="SECTION",
        help=f"run only these sections: {', '.join(SECTIONS)} "
        "(repeat or comma-separate; default: all)",
    )
    parser.add_argument(
        "--json",
        type=lambda text: Path(file_path(text)),
        default=DEFAULT_JSON,
        metavar="PATH",
        help="where to write the results (default benchmarks/results/latest.json)",
    )
    parser.add_argument(
        "--game",
        help="only this game in the server and baseline sections (default: every game, "
        "2 players) and the game of the tournament and metrics sections "
        "(default sheep-n-sheep)",
    )
    parser.add_argument(
        "--players",
        type=whole_number(1, 64),
        default=2,
        help="players per match there (default 2)",
    )
    parser.add_argument(
        "--before",
        type=Path,
        metavar="CHECKOUT",
        help="also run the server section's `sheepfold serve` from this other checkout "
        "(e.g. `git worktree add /tmp/old <commit>`): before/after in one run",
    )
    parser.add_argument(
        "--levels",
        help="concurrent matches, comma-separated (default 1,10,100,500; quick 1,10,100)",
    )
    parser.add_argument(
        "--seconds",
        type=seconds_up_to(3600),
        help="measuring window per level, more than 0 and at most 3,600 (default 5; quick 1.5)",
    )
    parser.add_argument(
        "--events-in-decisions",
        action="store_true",
        help="server and baseline sections: the bots' seats join with events_in_decisions "
        "(each seat's events inside its next decision, one message per decision; default: "
        "every event a message of its own, as the targets were set)",
    )
    parser.add_argument(
        "--repeat",
        type=whole_number(1, 1000),
        default=1,
        metavar="N",
        help="server and baseline sections: measure every row N times, the targets taking "
        "turns, and report each figure's median (one window swings by a quarter on a "
        "shared machine; default 1)",
    )
    parser.add_argument(
        "--engine-seconds",
        type=seconds_up_to(3600, zero=True),
        help="time per engine row, 0 (one game) to 3,600 (default 1; quick 0.3)",
    )
    parser.add_argument(
        "--engine-games",
        help="only these games in the engine section, comma-separated (default: every game)",
    )
    parser.add_argument(
        "--memory-matches",
        type=whole_number(1, 1_000_000),
        help="matches to create for memory (default 1000; quick 200)",
    )
    parser.add_argument(
        "--soak-matches",
        type=whole_number(1, 1_000_000),
        help="matches for the soak (default 3000; quick 500)",
    )
    parser.add_argument(
        "--soak-seconds",
        type=seconds_up_to(86_400),
        help="time limit of the soak (default 300; quick 60)",
    )
    args = parser.parse_args(argv)
    only = [s.strip() for chunk in args.only or [] for s in chunk.split(",") if s.strip()]
    unknown = sorted(set(only) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section {unknown[0]!r} (sections: {', '.join(SECTIONS)})")
    args.sections = tuple(s for s in SECTIONS if not only or s in only)
    preset = QUICK if args.quick else FULL
    if args.levels:
        counts = [x.strip() for x in args.levels.split(",")]
        if not all(x.isascii() and x.isdigit() and int(x) >= 1 for x in counts):
            parser.error(
                f"--levels {args.levels}: concurrent matches are whole numbers of 1 or more, "
                "comma-separated (e.g. 1,10,100)"
            )
        args.levels = tuple(int(x) for x in counts)
    else:
        args.levels = preset["levels"]
    for name in ("seconds", "engine_seconds", "memory_matches", "soak_matches", "soak_seconds"):
        if getattr(args, name) is None:
            setattr(args, name, preset[name])
    args.warmup = preset["warmup"]
    args.games_per_pairing = preset["games_per_pairing"]
    args.sandbox_games = preset["sandbox_games"]
    args.engine_games = tuple(args.engine_games.split(",")) if args.engine_games else None
    _check_games(parser, args)
    _check_json_path(parser, args.json)
    if args.before is not None and not (args.before / "cli" / "serve.py").is_file():
        parser.error(f"--before {args.before}: not a Sheepfold checkout")
    args.load_games = LOAD_GAMES if args.game is None else ((args.game, args.players),)
    if args.game is None:
        args.game = LOAD_GAMES[0][0]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # Our own and the in-process server's logs would drown the tables.
    configure_logging("console", "warning")
    started = time.perf_counter()
    out: dict[str, Any] = {"meta": _meta(args), "errors": {}}
    checks: list[targets.Check] = []

    def section(name: str, work: Callable[[], Any]) -> Any:
        print(f"... {name}", file=sys.stderr, flush=True)
        try:
            return work()
        except Exception:  # a broken section is reported; the others still run
            out["errors"][name] = traceback.format_exc()
            print(f"{name} failed:\n{out['errors'][name]}", file=sys.stderr, flush=True)
            return None

    tables: list[str] = []
    if "engine" in args.sections:
        results = section("engine", lambda: engine.run(args.engine_seconds, args.engine_games))
        if results is not None:
            out["engine"] = [dataclasses.asdict(r) for r in results]
            tables.append(report.engine(results))
            checks += targets.engine_checks(results)
    load_targets = tuple(t for t in ("server", "baseline") if t in args.sections)
    if load_targets:
        failed: list[str] = []
        results = section("+".join(load_targets), lambda: _load(args, load_targets, failed))
        if failed:
            out["errors"]["+".join(load_targets)] = "\n\n".join(failed)
            print("\n\n".join(failed), file=sys.stderr, flush=True)
        if results is not None:
            out["load"] = [
                {**dataclasses.asdict(r), "rss_growth_per_match": r.rss_growth_per_match}
                for r in results
            ]
            tables.append(report.load(results))
            checks += targets.server_checks(results)
    if "metrics" in args.sections:
        results = section(
            "metrics",
            lambda: serving.run(
                args.game,
                args.players,
                args.levels,
                args.seconds,
                args.warmup,
                ("server", "server-metrics") * METRICS_RUNS,
            ),
        )
        if results is not None:
            per_decision = metrics_cost.per_decision_seconds()
            out["metrics_cost"] = [dataclasses.asdict(r) for r in results]
            out["metrics_calls_us_per_decision"] = per_decision * 1e6
            tables.append(
                report.metrics_cost(results, args.game, args.players)
                + f"\nmetrics calls per answered decision, timed in-process: "
                f"{per_decision * 1e6:.1f} us of CPU"
            )
    if "memory" in args.sections:
        cases = _memory_cases(args)
        results = section("memory", lambda: memory.run(cases, args.memory_matches))
        if results is not None:
            out["memory"] = [dataclasses.asdict(r) for r in results]
            tables.append(report.memory(results))
            checks += targets.memory_checks(results)
    if "tournament" in args.sections:
        results = section(
            "tournament",
            lambda: tournament.run(args.game, args.players, args.games_per_pairing),
        )
        if results is not None:
            out["tournament"] = [dataclasses.asdict(r) for r in results]
            tables.append(report.tournament(results))
    if "sandbox" in args.sections:
        result = section("sandbox", lambda: sandbox.run(args.sandbox_games))
        if result is not None:
            out["sandbox"] = dataclasses.asdict(result)
            tables.append(report.sandbox(result))
            checks.append(targets.sandbox_check(result))
    if "soak" in args.sections:
        matches = args.soak_matches
        result = section(
            "soak",
            lambda: soak.run(
                SOAK_GAME,
                SOAK_PLAYERS,
                SOAK_OPTIONS,
                matches,
                args.soak_seconds,
                warmup=matches // 3,
                every=max(1, matches // 12),
            ),
        )
        if result is not None:
            out["soak"] = {
                **dataclasses.asdict(result),
                "rss_growth_per_1000": result.rss_growth_per_1000,
                "open_files_growth_per_1000": result.open_files_growth_per_1000,
                "db_bytes_per_match": result.db_bytes_per_match,
            }
            tables.append(report.soak(result))
            checks += targets.soak_checks(result)
    if "ray" in args.sections:
        results = section("ray", lambda: ray_scaling.run(args.games_per_pairing))
        if results is not None:
            out["ray"] = [dataclasses.asdict(r) for r in results]
            tables.append(report.ray_scaling(results))
            checks += targets.ray_checks(results)
    elapsed = time.perf_counter() - started
    if not args.quick and set(args.sections) == set(SECTIONS):
        checks.append(targets.duration_check(elapsed))
    out["targets"] = [dataclasses.asdict(c) for c in checks]
    out["elapsed_seconds"] = elapsed
    tables.append(report.checks(checks))
    print("\n\n".join(tables))
    command = " ".join(sys.argv[1:] if argv is None else argv)
    load = out["meta"]["load_average"][0], os.getloadavg()[0]
    print(
        f"\n{elapsed:.0f} s; load average {load[0]:.1f} at the start, {load[1]:.1f} at the end "
        f"on {os.cpu_count()} cpus; command: python -m benchmarks {command}"
    )
    try:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2, default=str) + "\n", encoding="utf-8")
    except OSError as error:
        # The tables above are the results too: say why the file is missing, in one line.
        print(
            f"python -m benchmarks: cannot write {args.json}: {error.strerror or error}",
            file=sys.stderr,
        )
        return 1
    print(f"results written to {args.json}")
    if out["errors"]:
        print(f"sections that failed: {', '.join(out['errors'])}", file=sys.stderr)
        return 1
    return 0


def _check_games(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a game name or player count no section could play, before any runs
    (a typo would otherwise surface as a failed section minutes later)."""
    import games

    known = games.names()
    for name in (args.game, *(args.engine_games or ())):
        if name is not None and name not in known:
            parser.error(f"unknown game {name!r} (games: {', '.join(known)})")
    game = games.get(args.game or LOAD_GAMES[0][0])
    if not game.min_players <= args.players <= game.max_players:
        parser.error(
            f"--players {args.players}: {game.name} takes "
            f"{game.min_players} to {game.max_players} players"
        )


def _check_json_path(parser: argparse.ArgumentParser, path: Path) -> None:
    """Refuse a --json path the results could never be written to before the run
    that produces them, not after it: open it for appending (which changes no
    file already there) and remove it again if it is new."""
    if path.is_dir():
        parser.error(f"--json {path}: is a folder; name a file")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        parser.error(f"--json {path}: {folder} is not a folder")
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        parser.error(f"--json {path}: cannot write it: {error.strerror or error}")
    if not existed:
        path.unlink(missing_ok=True)


def _load(args: argparse.Namespace, wanted: tuple[str, ...], failed: list[str]) -> list[Any]:
    """The load rows of every game; a run that fails is noted in `failed` and
    the others still run."""
    results = []
    for n, (game, players) in enumerate(args.load_games):
        load_targets: tuple[str, ...] = ()
        if "server" in wanted:
            load_targets += ("server",)
            if n == 0:
                load_targets += ("server-memory",)
            if args.before is not None:
                load_targets += ("before",)
        if "baseline" in wanted:
            load_targets += ("baseline",)
        levels = args.levels
        if n > 0:
            levels = tuple(x for x in levels if x in targets.RATIO_LEVELS) or levels
        results += serving.run(
            game,
            players,
            levels,
            args.seconds,
            args.warmup,
            load_targets,
            before=args.before,
            errors=failed,
            repeats=args.repeat,
            events_in_decisions=args.events_in_decisions,
        )
    return results


def _memory_cases(args: argparse.Namespace) -> list[tuple[str, int]]:
    """The benchmark game in quick mode; every game at its largest table otherwise."""
    if args.quick:
        return [(args.game, args.players)]
    import games

    return [(name, games.get(name).max_players) for name in games.names()]


def _meta(args: argparse.Namespace) -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "server", "games", "clients"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "commit": commit,
        "uncommitted_changes_in_server_games_clients": bool(dirty),
        "python": platform.python_version(),
        "grpcio": grpc.__version__,
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "quick": args.quick,
        "sections": list(args.sections),
        "game": args.game,
        "players": args.players,
        "load_games": [list(g) for g in args.load_games],
        "before": None if args.before is None else str(args.before),
        "load_average": list(os.getloadavg()),
        "levels": list(args.levels),
        "seconds": args.seconds,
        "repeat": args.repeat,
        "events_in_decisions": args.events_in_decisions,
        "engine_seconds": args.engine_seconds,
        "memory_matches": args.memory_matches,
        "soak_matches": args.soak_matches,
        "soak_seconds": args.soak_seconds,
    }
