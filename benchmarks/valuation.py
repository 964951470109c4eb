"""How long the search bots take to value every legal action of a position:
the game's `evaluate_after` where it has one, against applying each action to
a copy and evaluating it (what the bots do without it). This is greedy's whole
decision, and one step of an mcts greedy rollout.

    python -m benchmarks.valuation
    python -m benchmarks.valuation --game sheep-and-garden --players 2 --positions 200

Positions come from seeded random games (every position of each game until
`--positions` are collected); both ways value the same positions, and the
values are checked to agree.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Sequence

import games
from clients.bots.search import action_values
from games.ai import get_ai
from games.contract import State


def positions(game_name: str, players: int, count: int, seed: int) -> list[State]:
    game = games.get(game_name)
    found: list[State] = []
    while len(found) < count:
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        while not state.terminal and len(found) < count:
            found.append(state.clone())
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        seed += 1
    return found


def time_valuation(game_name: str, states: list[State], fast: bool) -> tuple[float, list]:
    """Seconds per position, and the values found."""
    ai = get_ai(game_name)
    if not fast:
        ai = dataclasses.replace(ai, evaluate_after=None)
    values = []
    started = time.perf_counter()
    for state in states:
        seat = state.to_move
        assert seat is not None
        values.append(action_values(state, ai, seat, 0.0))
    return (time.perf_counter() - started) / len(states), values


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.valuation",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", choices=games.names(), help="one game (default: every game)")
    parser.add_argument("--players", type=int, default=2, help="players (default 2)")
    parser.add_argument("--positions", type=int, default=300, help="positions (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed (default 1)")
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error("--positions must be at least 1")
    names = [args.game] if args.game else list(games.names())
    print(f"{'game':<20} {'actions':>8} {'evaluate_after':>15} {'apply each':>12} {'speed-up':>9}")
    for name in names:
        states = positions(name, args.players, args.positions, args.seed)
        actions = sum(len(s.legal_actions()) for s in states) / len(states)
        has_fast = get_ai(name).evaluate_after is not None
        slow, slow_values = time_valuation(name, states, fast=False)
        if not has_fast:
            print(f"{name:<20} {actions:>8.1f} {'-':>15} {1000 * slow:>10.2f}ms {'-':>9}")
            continue
        fast, fast_values = time_valuation(name, states, fast=True)
        for mine, theirs in zip(fast_values, slow_values, strict=True):
            if any(abs(a - b) > 1e-6 for a, b in zip(mine, theirs, strict=True)):
                print(f"{name}: evaluate_after disagrees with applying", file=sys.stderr)
                return 1
        print(
            f"{name:<20} {actions:>8.1f} {1000 * fast:>13.2f}ms {1000 * slow:>10.2f}ms "
            f"{slow / fast:>8.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
