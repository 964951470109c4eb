"""The decision open when the server was killed is asked again, after the
restart, with its whole time: the decision's seconds in full and the bank as
the seat's last move left it, as the guide and docs/operations.md say. The
time it was open before the kill is not the seat's, as no time the server does
not run is."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

DECISION_SECONDS = 4.0
BANK_SECONDS = 2.0
THOUGHT_BEFORE_THE_KILL = 2.5  # more than half the decision's time


def _joined_seats(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, tokens: list[str]
) -> list[RawSeat]:
    seats = []
    for token in tokens:
        seat = RawSeat(stub, timeout=60)
        seat.join(match_id, token)
        seat.next("joined")
        seats.append(seat)
    return seats


def test_the_decision_open_at_a_kill_comes_back_with_its_whole_time(tmp_path: Path) -> None:
    db = str(tmp_path / "server.db")
    server = start_server_process("--db", db)
    channel = grpc.insecure_channel(server.address)
    try:
        stub = arena_pb2_grpc.ArenaStub(channel)
        clock = arena_pb2.ClockSettings(
            decision_seconds=DECISION_SECONDS, time_bank_seconds=BANK_SECONDS
        )
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="stubborn-sheep", players=2, seed=3, clock=clock)
        )
        match_id, tokens = created.match_id, list(created.seat_tokens)
        first, _ = _joined_seats(stub, match_id, tokens)
        before = first.next("decision").decision  # seat 0 moves first
        assert (before.clock.decision_seconds, before.clock.time_bank_seconds) == (
            DECISION_SECONDS,
            BANK_SECONDS,
        )
        time.sleep(THOUGHT_BEFORE_THE_KILL)
        server.process.kill()
        server.process.wait()
    finally:
        channel.close()
        server.process.kill()
    server = start_server_process("--db", db)
    channel = grpc.insecure_channel(server.address)
    try:
        stub = arena_pb2_grpc.ArenaStub(channel)
        first, second = _joined_seats(stub, match_id, tokens)
        after = first.next("decision").decision
        assert after.observation == before.observation
        assert [a.label for a in after.actions] == [a.label for a in before.actions]
        assert (after.clock.decision_seconds, after.clock.time_bank_seconds) == (
            DECISION_SECONDS,
            BANK_SECONDS,
        )
        assert after.clock.strikes == 0
        first.answer(after.decision_id, 0)
        assert first.next("event", skip=()).event.move == 1
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.seats[0].strikes == 0 and info.seats[0].time_bank_seconds == BANK_SECONDS
        first.close()
        second.close()
    finally:
        channel.close()
        stop_server_process(server)
