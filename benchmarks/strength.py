"""Quick bot-strength check on the local engine (no server): head-to-head win
rates and time per decision, for tuning bots before a real tournament.

    python -m benchmarks.strength --game sheep-n-sheep mcts,random greedy,random --games 20
    python -m benchmarks.strength --game stubborn-sheep solo,mcts solo,random --games 20
    python -m benchmarks.strength --game sheep-n-sheep mybots:Clever,greedy

`A,B` plays 2-player games with seats swapped every other game; `solo,A` plays
solo games. A bot is a built-in name or module:Class (`A:B` still works when
both are built-in names). The bots receive exactly what a seat receives over gRPC (the
codec's observation and the legal actions), so this measures the real bots.
The tournament runner (`sheepfold tournament`) is what rates bots; this is the
fast loop for development.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from sheepfold.v1 import arena_pb2

import games
from cli.values import whole_number
from clients.bots import BotSpecError, load_bot
from clients.sdk import DecisionView, action_index
from server import convert


def play_local(game_name: str, specs: Sequence[str], seed: int) -> tuple:
    game = games.get(game_name)
    state = game.new_state(len(specs), seed)
    bots = [load_bot(spec, seed * 10 + seat) for seat, spec in enumerate(specs)]
    spent = [0.0] * len(specs)
    decisions = [0] * len(specs)
    decision_id = 0
    while not state.terminal:
        seat = state.to_move
        assert seat is not None  # a state that is not terminal has a seat to move
        actions = state.legal_actions()
        decision_id += 1
        view = DecisionView(
            decision_id=decision_id,
            seat=seat,
            game=game_name,
            prompt=state.prompt(),
            observation=game.codec.observation_to_proto(state.observation(seat)),
            actions=convert.legal_actions(game.codec, actions),
            clock=arena_pb2.Clock(),
        )
        started = time.perf_counter()
        choice = bots[seat].decide(view)
        spent[seat] += time.perf_counter() - started
        decisions[seat] += 1
        state.apply(actions[_chosen(specs[seat], seat, choice, len(actions))])
    result = state.result()
    return tuple(specs), tuple(result.scores), tuple(result.ranks), spent, decisions


class BadAnswer(Exception):
    """A bot answered with no index of the decision's actions."""


def _chosen(spec: str, seat: int, choice: object, count: int) -> int:
    """The index `choice` names, as a server would take it; BadAnswer otherwise.
    Never a list's index from the end: -1 is no action, not the last one."""
    try:
        index = action_index(choice)
    except (TypeError, ValueError) as error:
        raise BadAnswer(f"{spec} (seat {seat}): {error}") from None
    if not 0 <= index < count:
        raise BadAnswer(
            f"{spec} (seat {seat}): decide returned {index}, not one of the {count} "
            f"actions (0 to {count - 1})"
        )
    return index


def _job(args: tuple) -> tuple:
    return play_local(*args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.strength",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("pairs", nargs="+", metavar="A,B", help="bot pairs, or solo,BOT")
    parser.add_argument("--game", required=True, choices=games.names(), help="the game to play")
    parser.add_argument(
        "--games", type=whole_number(1, 100_000), default=20, help="games per pair (default 20)"
    )
    parser.add_argument("--seed", type=int, default=1000, help="first seed (default 1000)")
    parser.add_argument(
        "--workers", type=whole_number(1, 256), default=2, help="processes (default 2)"
    )
    args = parser.parse_args(argv)
    game = games.get(args.game)
    try:
        pairs = [split_pair(pair) for pair in args.pairs]
        for pair, (first, second) in zip(args.pairs, pairs, strict=True):
            if second == "solo":
                raise ValueError(f"{pair!r}: a solo pair names solo first (solo,{first})")
            if first == "solo" and game.min_players > 1:
                raise ValueError(
                    f"{pair!r}: {args.game} has no solo game "
                    f"({game.min_players} to {game.max_players} players)"
                )
            for spec in (first, second):
                if spec != "solo":
                    load_bot(spec)  # every bot loads before any game runs
    except (ValueError, BotSpecError) as error:
        parser.error(str(error))
    with ProcessPoolExecutor(args.workers) as pool:
        for pair, (first, second) in zip(args.pairs, pairs, strict=True):
            jobs: list[tuple[str, tuple[str, ...], int]]
            if first == "solo":
                jobs = [(args.game, (second,), args.seed + g) for g in range(args.games)]
            else:
                jobs = [
                    (
                        args.game,
                        (first, second) if g % 2 == 0 else (second, first),
                        args.seed + g // 2,
                    )
                    for g in range(args.games)
                ]
            try:
                outcomes = list(pool.map(_job, jobs))
            except BadAnswer as error:
                pool.shutdown(cancel_futures=True)  # not the rest of the pair's games
                print(f"python -m benchmarks.strength: {error}", file=sys.stderr)
                return 1
            _report(pair, first, second, outcomes)
    return 0


def split_pair(pair: str) -> tuple[str, str]:
    """`A,B` (or `A:B` when neither bot is module:Class) as (A, B)."""
    if "," in pair:
        first, _, second = pair.partition(",")
    elif pair.count(":") == 1:
        first, _, second = pair.partition(":")
    else:
        raise ValueError(f"{pair!r}: write a pair as A,B (a bot may be module:Class)")
    if not first or not second:
        raise ValueError(f"{pair!r}: write a pair as A,B or solo,BOT")
    return first.strip(), second.strip()


def _report(pair: str, first: str, second: str, outcomes: list[tuple]) -> None:
    time_per: dict[str, list[float]] = {}
    scores: dict[str, list[float]] = {}
    points = 0.0
    for specs, result_scores, ranks, spent, decisions in outcomes:
        for seat, spec in enumerate(specs):
            time_per.setdefault(spec, [0.0, 0])
            time_per[spec][0] += spent[seat]
            time_per[spec][1] += decisions[seat]
            scores.setdefault(f"{spec}@{seat}" if specs[0] == specs[-1] else spec, []).append(
                result_scores[seat]
            )
        if first != "solo":
            mine, theirs = ranks[specs.index(first)], ranks[specs.index(second)]
            points += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    ms = {spec: round(1000 * t / max(n, 1), 1) for spec, (t, n) in time_per.items()}
    means = {spec: round(statistics.mean(values), 1) for spec, values in scores.items()}
    if first == "solo":
        print(f"solo {second}: mean score {means}  ms/decision {ms}", flush=True)
    else:
        print(
            f"{first} vs {second}: {first} scores {points:.1f}/{len(outcomes)}  "
            f"mean scores {means}  ms/decision {ms}",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
