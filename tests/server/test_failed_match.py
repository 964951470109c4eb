"""A match whose loop failed (here: a database that refuses its moves) ends
its streams INTERNAL, and refuses the seats that rejoin and the spectators that
come later with the same status, instead of leaving them waiting for ever."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

# Long enough to tell a refusal from a stream left waiting.
PATIENCE = 5.0


def test_a_failed_match_refuses_rejoins_and_watchers(tmp_path: Path) -> None:
    db = tmp_path / "no-moves.db"
    SqliteStore(db).close()
    with sqlite3.connect(db) as con:
        con.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON moves"
            " BEGIN SELECT RAISE(ABORT, 'no moves today'); END"
        )
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1), timeout=10
        )
        seat = RawSeat(stub, timeout=PATIENCE)
        seat.join(created.match_id, created.seat_tokens[0])
        seat.next("joined")
        decision = seat.next("decision").decision
        seat.answer(decision.decision_id, 0)  # its write is refused: the loop fails
        assert seat.status() == grpc.StatusCode.INTERNAL
        seat.close()

        # The SDKs rejoin after INTERNAL: the rejoin is refused, not left waiting
        # for a decision that never comes.
        again = RawSeat(stub, timeout=PATIENCE)
        again.join(created.match_id, created.seat_tokens[0])
        with pytest.raises(grpc.RpcError) as refused:
            again.next("joined")
        assert refused.value.code() == grpc.StatusCode.INTERNAL
        assert "the match failed on the server" in refused.value.details()
        again.close()

        with pytest.raises(grpc.RpcError) as watched:
            list(stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id), timeout=PATIENCE))
        assert watched.value.code() == grpc.StatusCode.INTERNAL
        assert "the match failed on the server" in watched.value.details()

        # A forged token is still told so first.
        forged = RawSeat(stub, timeout=PATIENCE)
        forged.join(created.match_id, "not-a-token")
        assert forged.status() == grpc.StatusCode.UNAUTHENTICATED
        forged.close()

        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_RUNNING, "unfinished, for a restart"
