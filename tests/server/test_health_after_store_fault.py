"""Health comes back once the database can be written again, on a server with
no match in play too.

A `CreateMatch` the database could not take in time (another process holding
its write lock, a full disk) turns health NOT_SERVING. Health used to turn
SERVING again only after a later write was made, and a server with no match in
play makes none: once the lock or the full disk was gone, it stayed
NOT_SERVING for good. Behind a readiness probe (the Kubernetes manifest's) it
was then taken out of rotation, so no client reached it to create the match
whose write would have mended it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from grpc_health.v1 import health_pb2

from tests.cli.helpers import create_match
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import health_status, logged, wait_until

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def test_health_serves_again_once_a_lock_that_refused_a_create_is_gone(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    server = start_server_process("--db", str(db), "--db-write-timeout", "1")
    try:
        assert health_status(server.address) == SERVING
        holder = sqlite3.connect(db, isolation_level=None)
        try:
            holder.execute("BEGIN EXCLUSIVE")
            refused = create_match(server.address)
            assert refused.returncode == 1, refused.stdout
            assert "UNAVAILABLE" in refused.stderr and "database is locked" in refused.stderr
            assert health_status(server.address) == NOT_SERVING
        finally:
            holder.close()  # ends the transaction: the lock is gone
        wait_until(lambda: health_status(server.address) == SERVING, 10, "health SERVING again")
        assert logged(server.log_lines, "database writable again")
        created = create_match(server.address)
        assert created.returncode == 0, created.stderr
        assert health_status(server.address) == SERVING
    finally:
        assert stop_server_process(server) == 0
