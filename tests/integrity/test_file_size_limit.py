"""A file size limit (`ulimit -f`, systemd's LimitFSIZE, `docker run --ulimit
fsize=`) under the database. Past it a write fails with EFBIG, which SQLite
reports as a bare "disk I/O error" (the process ignores SIGXFSZ), and the
write-ahead log, which grows by a few KB a move until a checkpoint every 1,000
writes, reached a limit of 1 MB within two matches whose data took a few dozen
KB: every match then waited for ever (NOT_SERVING) and nothing said why."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.sdk import play
from server import launch
from tests.integrity.helpers import (
    SlowBot,
    assert_every_case_plays_through,
    create_request,
    game_cases,
    log_entries,
)

pytestmark = pytest.mark.e2e

LIMIT_BYTES = 1 << 20


def _limited(*command: str) -> list[str]:
    if shutil.which("prlimit") is None:
        pytest.fail("prlimit not found: install util-linux (apt-get install util-linux)")
    return ["prlimit", f"--fsize={LIMIT_BYTES}", "--", *command]


def test_the_write_ahead_log_stays_under_a_file_size_limit(tmp_path: Path) -> None:
    server = launch.start(_limited(*launch.serve_command("--db", str(tmp_path / "s.db"))))
    assert_every_case_plays_through(server, "under a file size limit of 1 MB")


def test_a_limit_too_small_for_the_database_at_start_is_named(tmp_path: Path) -> None:
    """Once only "cannot open --db PATH: disk I/O error"."""
    command = launch.serve_command("--db", str(tmp_path / "s.db"))
    done = subprocess.run(
        ["prlimit", "--fsize=4096", "--", *command],
        cwd=launch.ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"sheepfold serve: cannot open --db {tmp_path / 's.db'}: disk I/O error "
        "(this process may write files of 4,096 bytes at most: ulimit -f)"
    ]


def test_a_database_grown_to_the_limit_is_named_by_create_match(tmp_path: Path) -> None:
    """Matches' data that has outgrown the limit: no emptied log makes room, so
    the server waits as on a full disk, and says why instead of "disk I/O error"."""
    limit = 160 * 1024
    command = launch.serve_command("--db", str(tmp_path / "s.db"), "--db-write-timeout", "1")
    server = launch.start(["prlimit", f"--fsize={limit}", "--", *command])
    address = server.address
    try:
        refused: grpc.RpcError | None = None
        with grpc.insecure_channel(address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            seed = 0
            # Until a CreateMatch is refused, not while health says SERVING: the
            # write-ahead log reaching the limit turns health NOT_SERVING until
            # the log is emptied to make room, and the CreateMatch after such a
            # moment was then made, with nothing to refuse it.
            while refused is None:
                assert seed < 400, "the database never reached the file size limit"
                case = game_cases()[seed % len(game_cases())]
                try:
                    response = stub.CreateMatch(create_request(case, seed), timeout=10)
                except grpc.RpcError as error:
                    refused = error
                    break
                seed += 1

                async def seats(response: arena_pb2.CreateMatchResponse = response) -> None:
                    await asyncio.wait(
                        [
                            asyncio.create_task(
                                play(SlowBot(seat), address, response.match_id, token, seat)
                            )
                            for seat, token in enumerate(response.seat_tokens)
                        ],
                        timeout=3,
                    )

                asyncio.run(seats())
        assert refused.code() == grpc.StatusCode.UNAVAILABLE
        assert f"the file size limit ({limit:,} bytes, ulimit -f)" in (refused.details() or ""), (
            refused.details()
        )
    finally:
        status = launch.stop(server)
    entries = log_entries(server.log_lines)
    waiting = [e for e in entries if e["event"] == "database write waiting"]
    assert waiting and "file size limit" in str(waiting[0]["error"]), waiting
    # A move the full file could not take by the end of the stop's grace is
    # dropped, and the exit status says so: 1 exactly when a write was dropped.
    dropped = [e for e in entries if e["event"] == "database write dropped at shutdown"]
    assert status == (1 if dropped else 0), (status, len(dropped))
