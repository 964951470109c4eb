"""The messages a real server sends during one random game, pre-serialised.

The baseline server replays these bytes without doing any work per message, so
the baseline moves exactly the traffic the real server moves (decisions with
observations and legal actions, events to every seat that may see them, the
result) and the server/baseline ratio isolates what our code costs on top.
`with_events_in_decisions` gives the traffic of seats that joined with
`events_in_decisions`: each seat's events inside its next decision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sheepfold.v1 import arena_pb2

import games
from server import convert

DECISION_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Step:
    """One decision: the seat that must answer and the bytes that announce it.

    `before` holds (seat, bytes) messages sent ahead of the decision: the
    events of the previous action.
    """

    seat: int
    before: tuple[tuple[int, bytes], ...]
    decision: bytes


@dataclass(frozen=True, slots=True)
class Transcript:
    players: int
    steps: tuple[Step, ...]
    after: tuple[tuple[int, bytes], ...]  # the last action's events
    result: bytes

    @property
    def decision_bytes(self) -> float:
        return sum(len(step.decision) for step in self.steps) / len(self.steps)

    @property
    def bytes_per_decision(self) -> float:
        """Everything sent to the seats, per decision (decisions, events, result)."""
        total = sum(len(s.decision) + sum(len(m) for _, m in s.before) for s in self.steps)
        total += sum(len(m) for _, m in self.after) + len(self.result) * self.players
        return total / len(self.steps)


def record(
    game_name: str, players: int, seed: int, options: dict[str, str] | None = None
) -> Transcript:
    game = games.get(game_name)
    codec = game.codec
    state = game.new_state(players, seed, options or {})
    rng = random.Random(seed)
    steps: list[Step] = []
    pending: list[tuple[int, bytes]] = []
    move = 0
    while not state.terminal:
        seat = state.to_move
        assert seat is not None
        actions = state.legal_actions()
        decision = arena_pb2.Decision(
            decision_id=len(steps) + 1,
            seat=seat,
            prompt=state.prompt(),
            observation=convert.observation(codec, state.observation(seat)),
            actions=convert.legal_actions(codec, actions),
            clock=arena_pb2.Clock(decision_seconds=DECISION_SECONDS, max_strikes=3),
        )
        message = arena_pb2.PlayResponse(decision=decision).SerializeToString()
        steps.append(Step(seat, tuple(pending), message))
        move += 1
        events = state.apply(actions[rng.randrange(len(actions))])
        pending = []
        for event in events:
            for viewer in range(players):
                payload = event.visible_to(viewer)
                if payload is not None:
                    wire = arena_pb2.PlayResponse(event=convert.event(codec, move, payload))
                    pending.append((viewer, wire.SerializeToString()))
    seats = [arena_pb2.SeatInfo(seat=i, connected=True) for i in range(players)]
    result = arena_pb2.PlayResponse(
        result=convert.match_result(state.result(), seats, "game over")
    ).SerializeToString()
    return Transcript(players, tuple(steps), tuple(pending), result)


def with_events_in_decisions(transcript: Transcript) -> Transcript:
    """The same game as the server sends it to seats that joined with
    `events_in_decisions`: a seat's events wait for its next decision and go
    inside it, and those left at the end come as messages before the result.
    (The server also sends a seat's events as messages once more than 64 wait,
    which two-player games never reach.)"""
    held: list[list[arena_pb2.EventMessage]] = [[] for _ in range(transcript.players)]

    def hold(messages: tuple[tuple[int, bytes], ...]) -> None:
        for seat, message in messages:
            held[seat].append(arena_pb2.PlayResponse.FromString(message).event)

    steps = []
    for step in transcript.steps:
        hold(step.before)
        response = arena_pb2.PlayResponse.FromString(step.decision)
        response.decision.events.extend(held[step.seat])
        held[step.seat] = []
        steps.append(Step(step.seat, (), response.SerializeToString()))
    hold(transcript.after)
    after = tuple(
        (seat, arena_pb2.PlayResponse(event=event).SerializeToString())
        for seat, events in enumerate(held)
        for event in events
    )
    return Transcript(transcript.players, tuple(steps), after, transcript.result)
