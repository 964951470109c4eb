"""The largest messages the server sends, over random seeded games of each game
at its most seats and its longest options, encoded as the server encodes them:
a decision with the events its seat held for it (64 at most), an event, a
Watch message, the result, a finished match's MatchInfo and its Replay.
docs/operations.md quotes the figures, all far below gRPC's 4 MiB.

    python -m benchmarks.message_sizes [SECONDS_PER_CASE]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from sheepfold.v1 import arena_pb2

import games
from games.options import options_to_strings, parse_options
from server import convert, encoding
from server.client_limits import MatchLimits
from server.clock_limits import MAX_DECISION_SECONDS
from server.records import ClockConfig, MatchRecord, RecordedMove
from server.spectators import public_messages, snapshot
from server.summaries import info_head, replay_message

CASES: tuple[tuple[str, int, Mapping[str, str]], ...] = (
    ("sheep-showdown", 6, {}),
    ("sheep-showdown", 5, {}),
    ("sheep-showdown", 2, {"double_trouble": "true"}),
    ("sheep-n-sheep", 4, {}),
    ("sheep-and-garden", 4, {}),
    ("stubborn-sheep", 5, {}),
    ("stubborn-sheep", 5, {"wolf": "true", "bonus_actions": "true"}),
    ("stubborn-sheep", 4, {"wolf": "true", "bonus_actions": "true"}),
)


@dataclass
class Largest:
    """The largest size seen of each kind of message, in bytes."""

    games: int = 0
    sizes: dict[str, int] = field(default_factory=dict)

    def keep(self, kind: str, size: int) -> None:
        if size > self.sizes.get(kind, 0):
            self.sizes[kind] = size


def measure(name: str, players: int, options: Mapping[str, str], seconds: float) -> Largest:
    game = games.get(name)
    codec = game.codec
    held_events = MatchLimits().held_events
    largest = Largest()
    rng = random.Random(777)
    seat_info = [
        arena_pb2.SeatInfo(
            seat=seat,
            connected=True,
            strikes=1_000,
            disqualified=True,
            time_bank_seconds=86_400.0,
            thinking_seconds=1e6,
            joined=True,
        )
        for seat in range(players)
    ]
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or not largest.games:
        state = game.new_state(players, largest.games, dict(options))
        record = MatchRecord(
            match_id="f" * 16,
            game=name,
            players=players,
            options=options_to_strings(
                game.option_specs, parse_options(game.option_specs, options)
            ),
            seed=2**63 - 1,
            clock=ClockConfig(),
            token_hashes=("0" * 64,) * players,
            created_at=time.time(),
        )
        largest.keep("watch snapshot", snapshot(codec, 0, state).ByteSize())
        held: list[list[bytes]] = [[] for _ in range(players)]
        moves: list[RecordedMove] = []
        while not state.terminal:
            seat = state.to_move
            assert seat is not None
            actions = state.legal_actions()
            # Every field of the head at its widest.
            head = encoding.decision_head(
                2**40, seat, state.prompt(), MAX_DECISION_SECONDS, 86_400.0, 1_000, 1_000
            )
            body = encoding.decision_body(codec, head, state.observation(seat), actions)
            largest.keep("decision", len(encoding.decision_with_events(body, held[seat])))
            held[seat] = []
            index = rng.randrange(len(actions))
            moves.append(
                RecordedMove(len(moves) + 1, seat, index, actions[index].label, "timeout", 0.0)
            )
            events = state.apply(actions[index])
            for event in events:
                for viewer in range(players):
                    payload = event.visible_to(viewer)
                    if payload is None:
                        continue
                    message = encoding.event_message(codec, len(moves), payload)
                    largest.keep("event", len(encoding.event_response(message)))
                    held[viewer].append(message)
                    if len(held[viewer]) > held_events:
                        held[viewer] = []  # sent as messages of their own
            for watched in public_messages(codec, len(moves), events, state):
                largest.keep(f"watch {watched.WhichOneof('kind')}", watched.ByteSize())
        result = convert.match_result(state.result(), seat_info, "game over")
        largest.keep("result", arena_pb2.PlayResponse(result=result).ByteSize())
        info = info_head(record, arena_pb2.MATCH_STATUS_FINISHED, len(moves))
        info.seats.extend(seat_info)
        info.result.CopyFrom(result)
        info.seed = record.seed
        largest.keep("match info", info.ByteSize())
        largest.keep("replay", replay_message(record, moves, result).ByteSize())
        largest.games += 1
    return largest


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 10.0
    for name, players, options in CASES:
        largest = measure(name, players, options, seconds)
        extra = " ".join(f"{key}={value}" for key, value in options.items())
        print(f"{name} {players} players{' ' + extra if extra else ''} ({largest.games} games)")
        for kind, size in largest.sizes.items():
            print(f"    {kind:22} {size:>10,}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
