"""A decision larger than the server sends in one message (`serve
--max-message-bytes`) is never sent: its move is forced at once, with no
strike, and its seat is told so on its stream, which goes on. Stubborn Sheep
players who leave their pens unscored get such decisions: three of them, seed
139, make seat 1's 130th move a choice between 16,161 ways to score (1.2 MB),
past the least bound a server may have (1 MiB); more such play reached 6.3 MB,
past the 4 MiB default. Sent, it ended the seat's stream RESOURCE_EXHAUSTED
"Sent message larger than max", with a gRPC warning in the log: the SDK gave
up on its seat, whose moves were then forced strike after strike."""

from __future__ import annotations

import asyncio
import json
import random

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.matchplay import play_match
from clients.sdk import DecisionView
from server.settings import MIN_MAX_MESSAGE_BYTES
from tests.conftest import start_server_process, stop_server_process

pytestmark = pytest.mark.e2e

SEED = 139
TOO_LARGE_MOVE = 130  # seat 1's decision there lists 16,161 actions, 1,233,860 bytes


class Hoarder:
    """Never scores its pen; otherwise random, the same on every run."""

    def __init__(self) -> None:
        self.decisions = 0

    def decide(self, decision: DecisionView) -> int:
        labels = decision.labels
        self.decisions += 1
        if "stop scoring" in labels:
            return labels.index("stop scoring")
        number = self.decisions - 1
        return random.Random(f"{decision.seat}:{number}").randrange(len(labels))


def test_a_decision_past_the_message_bound_is_played_for_its_seat_without_a_strike() -> None:
    server = start_server_process("--max-message-bytes", str(MIN_MAX_MESSAGE_BYTES))
    try:
        outcome = asyncio.run(
            play_match(
                server.address,
                "stubborn-sheep",
                [Hoarder() for _ in range(3)],
                seed=SEED,
                clock=arena_pb2.ClockSettings(decision_seconds=30),
            )
        )
        with grpc.insecure_channel(server.address) as channel:
            replay = arena_pb2_grpc.ArenaStub(channel).GetReplay(
                arena_pb2.GetReplayRequest(match_id=outcome.match_id), timeout=30
            )
    finally:
        assert stop_server_process(server) == 0
    assert outcome.result.end_reason == "game over"
    assert [(s.strikes, s.disqualified) for s in outcome.result.seats] == [(0, False)] * 3
    forced = [(action.move, action.seat) for action in replay.actions if action.forced]
    assert (TOO_LARGE_MOVE, 1) in forced
    logged = [json.loads(line) for line in server.log_lines if line.strip()]
    warned = [entry for entry in logged if entry.get("level") == "warning"]
    assert warned and all(
        entry["event"] == "decision too large to send, its move forced" for entry in warned
    ), warned
    first = warned[0]
    assert (first["seat"], first["actions"]) == (1, 16_161)
    assert first["bytes"] > MIN_MAX_MESSAGE_BYTES
    assert first["max_message_bytes"] == MIN_MAX_MESSAGE_BYTES
