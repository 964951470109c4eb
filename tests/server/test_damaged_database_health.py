"""A database file found damaged while the server runs (a disk fault, bytes
overwritten by another program) turns health NOT_SERVING for good.

Every write that reaches the damaged pages is refused (`CreateMatch` answers
`INTERNAL`, a match whose move or end cannot be written fails), yet health
said SERVING to the end: a readiness probe kept sending clients to a server
that refused every match, and nothing in the log said what to do."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.cli.test_db_command import _database
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import health_status, logged, wait_until

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
PAGE = 4096


def _with_damaged_pages(db: Path) -> None:
    """Finished matches whose pages of rows (past every table's root page) are
    overwritten: the server starts on it (it restores no match) and reads of
    those pages, or writes into them, find the damage."""
    _database(db, finished=60, running=0, moves=40)
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode=DELETE")
    with open(db, "r+b") as file:
        file.seek(19 * PAGE)
        file.write(b"\xff" * 20 * PAGE)


def test_a_write_refused_for_a_damaged_file_turns_health_not_serving_for_good(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.db"
    _with_damaged_pages(db)
    server = start_server_process("--db", str(db))
    try:
        assert health_status(server.address) == SERVING
        request = arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2)
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            for _ in range(2):
                with pytest.raises(grpc.RpcError) as refused:
                    stub.CreateMatch(request, timeout=10)
                assert refused.value.code() == grpc.StatusCode.INTERNAL
                assert "malformed" in str(refused.value.details())
        wait_until(lambda: health_status(server.address) == NOT_SERVING, 5, "NOT_SERVING")
        time.sleep(2.5)  # past two of the writer's looks at whether it can write again
        assert health_status(server.address) == NOT_SERVING
        (damaged,) = logged(server.log_lines, "database file damaged")
        assert damaged["path"] == str(db)
        assert f"sqlite3 {db} .recover" in str(damaged["advice"])
    finally:
        assert stop_server_process(server) == 0
