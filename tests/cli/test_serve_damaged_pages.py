"""A server database whose header and schema read but whose pages of rows are
damaged (a disk fault, a copy cut short and patched, bytes overwritten).
`serve` once ended in a `sqlite3.DatabaseError: database disk image is
malformed` traceback while reading the matches to restore; it now says so in
one line naming the file and what to do, and exits 1."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.cli.helpers import sheepfold
from tests.cli.test_db_command import _database
from tests.conftest import start_server_process, stop_server_process

PAGE = 4096


def _damaged(tmp_path: Path) -> Path:
    db = tmp_path / "s.db"
    _database(db, finished=30, running=3, moves=40)
    with closing(sqlite3.connect(db)) as con:  # everything in the file itself
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode=DELETE")
    size = db.stat().st_size
    with open(db, "r+b") as file:  # the schema's pages stay; the rows' do not
        file.seek(3 * PAGE)
        file.write(b"\xff" * (size - 4 * PAGE))
    return db


def test_serve_refuses_a_database_with_damaged_pages_in_one_line(tmp_path: Path) -> None:
    db = _damaged(tmp_path)
    done = sheepfold("serve", "--port", "0", "--db", str(db), timeout=30)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("{")]
    assert lines == [
        f"sheepfold serve: cannot restore the matches of --db {db}: its unfinished "
        "matches cannot be read (database disk image is malformed): the file is damaged; "
        "serve your last backup of it, or what sqlite3 recovers of it in a new file "
        f"(sqlite3 {db} .recover | sqlite3 NEW.db)"
    ], done.stderr


def test_reads_of_damaged_pages_are_data_loss(tmp_path: Path) -> None:
    """A file whose unfinished matches read but whose finished ones do not: the
    server starts, and each read of the damaged pages is DATA_LOSS, as a damaged
    row is; it was INTERNAL, which tells a client the server itself failed."""
    db = tmp_path / "s.db"
    _database(db, finished=60, running=0, moves=40)
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode=DELETE")
    with open(db, "r+b") as file:  # past every table's root page: the rows' pages
        file.seek(19 * PAGE)
        file.write(b"\xff" * 20 * PAGE)
    server = start_server_process("--db", str(db))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            calls = {
                "ListMatches": lambda: stub.ListMatches(
                    arena_pb2.ListMatchesRequest(limit=1000), timeout=10
                ),
                "GetReplay": lambda: stub.GetReplay(
                    arena_pb2.GetReplayRequest(match_id="m030"), timeout=10
                ),
                "Watch": lambda: list(
                    stub.Watch(arena_pb2.WatchRequest(match_id="m030", from_start=True), timeout=10)
                ),
            }
            for name, call in calls.items():
                with pytest.raises(grpc.RpcError) as raised:
                    call()
                assert raised.value.code() == grpc.StatusCode.DATA_LOSS, (name, raised.value)
                assert raised.value.details() == (
                    "the server's database file is damaged (database disk image is "
                    "malformed): its operator must restore it"
                ), name
    finally:
        assert stop_server_process(server) == 0
