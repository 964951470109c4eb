"""A bot that records everything its seat receives, and the check that the
server sent each seat exactly what the engine lets that seat see."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sheepfold.v1 import arena_pb2

import games
from server import convert


@dataclass
class SeatLog:
    decisions: list[arena_pb2.Decision] = field(default_factory=list)
    choices: dict[int, int] = field(default_factory=dict)  # decision id -> index
    events: list[arena_pb2.EventMessage] = field(default_factory=list)


class RecordingBot:
    """Random play that keeps a copy of every decision and event it receives."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.log = SeatLog()

    def decide(self, decision) -> int:  # type: ignore[no-untyped-def]
        index = self.rng.randrange(len(decision.actions))
        message = arena_pb2.Decision(
            decision_id=decision.decision_id,
            seat=decision.seat,
            prompt=decision.prompt,
            actions=decision.actions,
        )
        wrapper = arena_pb2.Observation()
        getattr(wrapper, type(self)._field(decision.game)).CopyFrom(decision.observation)
        message.observation.CopyFrom(wrapper)
        self.log.decisions.append(message)
        self.log.choices[decision.decision_id] = index
        return index

    def on_event(self, event: arena_pb2.EventMessage) -> None:
        self.log.events.append(event)

    @staticmethod
    def _field(game: str) -> str:
        return games.get(game).codec.field


def check_seats_saw_exactly_their_view(
    game_name: str,
    players: int,
    seed: int,
    options: Mapping[str, str],
    logs: Sequence[SeatLog],
    result: arena_pb2.MatchResult,
) -> None:
    """Replay the match locally and compare every message each seat received
    with what the engine says that seat may see. Any extra field, any other
    seat's hidden card, any deck order in a message makes the two differ."""
    game = games.get(game_name)
    codec = game.codec
    state = game.new_state(players, seed, options)
    decisions = sorted(
        (d.decision_id, seat, d, log.choices[d.decision_id])
        for seat, log in enumerate(logs)
        for d in log.decisions
    )
    received_events: list[dict[int, list[bytes]]] = [{} for _ in range(players)]
    for seat, log in enumerate(logs):
        for event in log.events:
            received_events[seat].setdefault(event.move, []).append(event.SerializeToString())
    first_id = decisions[0][0] if decisions else 0
    for move, (decision_id, seat, decision, index) in enumerate(decisions, start=1):
        assert decision_id == first_id + move - 1, "decision ids must count up without gaps"
        assert state.to_move == seat, f"decision {decision_id} went to the wrong seat"
        expected_observation = convert.observation(codec, state.observation(seat))
        assert decision.observation == expected_observation, (
            f"seat {seat} decision {decision_id}: observation differs from its own view\n"
            + state.render()
        )
        actions = state.legal_actions()
        assert [a.label for a in decision.actions] == [a.label for a in actions]
        events = state.apply(actions[index])  # no forced moves here: a decision a move
        for viewer in range(players):
            expected = [
                convert.event(codec, move, payload).SerializeToString()
                for payload in (event.visible_to(viewer) for event in events)
                if payload is not None
            ]
            assert received_events[viewer].get(move, []) == expected, (
                f"seat {viewer} move {move}: events differ from what it may see"
            )
    assert state.terminal, "the replayed match did not end"
    engine_result = state.result()
    assert list(result.scores) == [float(s) for s in engine_result.scores]
    assert list(result.ranks) == list(engine_result.ranks)
