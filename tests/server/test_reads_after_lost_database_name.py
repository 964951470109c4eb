"""Reads of stored matches go on after the server's database file is renamed or
deleted under it: they read the file the server holds, as its writes do.

The server's reader threads opened their connections by the file's name when
they first read. Renamed or deleted before that, the name led nowhere: every
`ListMatches`, and every `GetMatch` of a match that had ended (an ended match
is read from the file), answered `UNAVAILABLE` "the database cannot be read now
(unable to open database file)" until a restart; `sheepfold match` exited 1 so
on a match its bots had just played to the end, the server still serving it."""

from __future__ import annotations

from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.cli.helpers import create_match
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import logged, wait_until


def test_reads_after_the_file_was_renamed_read_the_file_the_server_holds(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    server = start_server_process("--db", str(db), "--start-timeout", "1")
    try:
        created = create_match(server.address)  # a write alone: nothing read yet
        assert created.returncode == 0, created.stderr
        match_id = created.stdout.split()[1]
        db.rename(tmp_path / "moved-aside.db")
        wait_until(
            lambda: bool(logged(server.log_lines, "database file deleted or replaced")),
            10,
            "the server noticing",
        )
        # Nobody joins: aborted at the start timeout, then read from the file alone.
        wait_until(lambda: bool(logged(server.log_lines, "match abandoned")), 10, "the abort")
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=10)
            listed = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=10), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_ABORTED, info
        assert [match.match_id for match in listed.matches] == [match_id]
    finally:
        assert stop_server_process(server) == 0
