"""A seat's time bank after a restart is what its moves left of it, as the
docs promise ("the bank as the seat's last move left it"): each recorded
move keeps the moving seat's bank, and the restored match gives it back.
Were the move written without it, a bot that had spent most of its bank
before the server restarted would get it back full."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

DECISION_SECONDS = 0.5
BANK_SECONDS = 5.0
# The first answer comes this long after its decision: at least a second of
# it past the decision's time, taken from the bank.
FIRST_ANSWER_AFTER = 1.5


def _bank_spent_then_stopped(db: Path) -> tuple[str, str, int, float]:
    """A one-seat match whose first answer comes late, within the bank; the
    server stopped once that move is written. Its id, its seat's token, the
    open decision's id and the bank that decision shows."""
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(
                game="stubborn-sheep",
                players=1,
                seed=3,
                clock=arena_pb2.ClockSettings(
                    decision_seconds=DECISION_SECONDS, time_bank_seconds=BANK_SECONDS
                ),
            )
        )
        seat = RawSeat(stub, timeout=30)
        seat.join(created.match_id, created.seat_tokens[0])
        first = seat.next("decision", skip=("joined", "event")).decision
        time.sleep(FIRST_ANSWER_AFTER)
        seat.answer(first.decision_id, 0)
        second = seat.next("decision").decision  # the first move is written
        seat.close()
    token = created.seat_tokens[0]
    return created.match_id, token, second.decision_id, second.clock.time_bank_seconds


def test_a_bank_spent_before_a_restart_stays_spent_after_it(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    match_id, token, open_id, spent = _bank_spent_then_stopped(db)
    assert spent <= BANK_SECONDS - (FIRST_ANSWER_AFTER - DECISION_SECONDS)
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as restarted,
        grpc.insecure_channel(restarted.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.moves == 1
        assert info.seats[0].time_bank_seconds == pytest.approx(spent)
        seat = RawSeat(stub, timeout=30)
        seat.join(match_id, token)
        again = seat.next("decision", skip=("joined", "event")).decision
        assert again.decision_id == open_id
        assert again.clock.time_bank_seconds == pytest.approx(spent)
        seat.close()
