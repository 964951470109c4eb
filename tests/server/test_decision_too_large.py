"""A decision larger than the server sends in one message (`serve
--max-message-bytes`) is never sent: its move is forced at once, with no
strike, and its seat is told so on its stream, which goes on. Sent, it ended
the seat's stream RESOURCE_EXHAUSTED "Sent message larger than max", with a
gRPC warning in the log: the SDK gave up on its seat, whose moves were then
forced strike after strike.

No game's decision reaches the least bound `serve` takes (1 MiB) since
Stubborn Sheep bounds its ways to score (games/stubborn_sheep/scoring.py;
once 6.3 MB for players who leave their pens unscored), so this server, built
in code, sends at most 64 KB: three such players, seed 139, get decisions
past that."""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.matchplay import play_match
from clients.sdk import DecisionView
from server.inprocess import InProcessServer
from server.settings import ServerConfig

pytestmark = pytest.mark.e2e

SEED = 139
BOUND = 64 * 1024


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


def test_a_decision_past_the_message_bound_is_played_for_its_seat_without_a_strike(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with InProcessServer(ServerConfig(max_message_bytes=BOUND)) as server:
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
    assert outcome.result.end_reason == "game over"
    assert [(s.strikes, s.disqualified) for s in outcome.result.seats] == [(0, False)] * 3
    forced = [(action.move, action.seat) for action in replay.actions if action.forced]
    assert forced and {seat for _, seat in forced} <= {0, 1, 2}
    captured = capfd.readouterr()
    logged = (captured.out + captured.err).splitlines()
    warned = [line for line in logged if "[warning" in line]
    # The server's line, and the SDK's for the PlayError its seat was sent.
    server_side = [line for line in warned if "decision too large to send" in line]
    told = [line for line in warned if "server refused an answer" in line]
    assert len(server_side) == len(told) == len(forced), warned
    assert len(server_side) + len(told) == len(warned), warned
    assert all(f"max_message_bytes={BOUND}" in line for line in server_side)
    assert all("code=RESOURCE_EXHAUSTED" in line for line in told)
