"""Where a decision's own CPU goes, step by step, with no match loop and no store.

Plays seeded random games of one game in this process and makes every
decision as the server's match does: the engine's legal actions, the seat's
observation, the decision's bytes (observation and legal actions, from the
codec's memos), the move's label, `apply` (the final scoring included, on the
last move), and each event's encoding once per payload. The memos are warmed
on `--warm` games first; the figures are thread CPU per decision over the
next `--games` seeded games, which the memos have not seen (as a server meets
new games). The same seeds give the same work, so two trees can be compared
run for run. Prints one JSON object.

    python -m benchmarks.decision_steps --game sheep-and-garden
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict, dataclass, field

import games
from benchmarks.match_loop import check_players
from server import encoding

STEPS = ("legal_actions", "observation", "observation_bytes", "actions_bytes", "apply", "events")


@dataclass
class StepsResult:
    game: str
    players: int
    games: int
    decisions: int
    us_per_decision: float
    steps_us_per_decision: dict[str, float] = field(default_factory=dict)


def measure(game_name: str, players: int, warm: int, measured: int) -> StepsResult:
    game = games.get(game_name)
    codec = game.codec
    spent = dict.fromkeys(STEPS, 0)
    decisions = 0
    clock = time.thread_time_ns
    for seed in range(warm + measured):
        counted = seed >= warm
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        move = 0
        while not state.terminal:
            seat = state.to_move
            t0 = clock()
            actions = state.legal_actions()
            t1 = clock()
            observation = state.observation(seat)
            t2 = clock()
            observation_bytes = codec.observation_bytes(observation)
            t3 = clock()
            encoding.legal_actions_bytes(codec, actions)
            t4 = clock()
            action = actions[rng.randrange(len(actions))]
            _ = action.label, observation_bytes
            events = state.apply(action)
            t5 = clock()
            move += 1
            encoded: set[int] = set()
            for event in events:
                for viewer in range(players):
                    payload = event.visible_to(viewer)
                    if payload is not None and id(payload) not in encoded:
                        encoded.add(id(payload))
                        encoding.event_message(codec, move, payload)
            t6 = clock()
            if counted:
                decisions += 1
                for step, (start, end) in zip(
                    STEPS, ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6)), strict=True
                ):
                    spent[step] += end - start
    if not decisions:
        raise SystemExit("decision_steps: the measured games had no decision")
    steps = {step: ns / decisions / 1000 for step, ns in spent.items()}
    return StepsResult(game_name, players, measured, decisions, sum(steps.values()), steps)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.decision_steps",
        description="Thread CPU per decision, step by step (legal actions, observation, "
        "its bytes, the actions' bytes, apply, events), over seeded random games in "
        "this process, after warming the codec's memos on other games.",
    )
    parser.add_argument("--game", default="sheep-and-garden", choices=games.names())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--warm", type=int, default=150, help="games played first to fill the memos"
    )
    parser.add_argument("--games", type=int, default=150, help="seeded games measured")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    check_players(parser, args.game, args.players)
    if args.warm < 0 or args.games < 1:
        parser.error("--warm must be 0 or more and --games 1 or more")
    print(json.dumps(asdict(measure(args.game, args.players, args.warm, args.games))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
