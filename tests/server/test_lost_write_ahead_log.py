"""SQLite's -wal or -shm file deleted under a running server (a clean-up of
files that look left over): the server says so as it does for its database
file, takes no new match, fails its liveness probe, and at the stop saves
everything it holds beside the file.

Before, nothing said so. The server went on writing to a log no name led to:
a SIGKILL then lost every move since the last checkpoint (the file itself
was 4 KB, every match in the log), `sheepfold db info` called the file
"empty", and a program opening it made a new log the server did not see."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2

from tests.cli.helpers import create_match, play_random_match
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import health_status, logged, wait_until
from tests.server.lost_database import assert_the_copy_serves

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
def test_a_log_file_deleted_under_the_server_is_told_and_everything_saved(
    tmp_path: Path, suffix: str
) -> None:
    db = tmp_path / "sheepfold.db"
    server = start_server_process("--db", str(db), "--health-port", "0")
    try:
        (started,) = logged(server.log_lines, "server started")
        health = f"127.0.0.1:{started['health_port']}"
        play_random_match(server.address)
        assert create_match(server.address).returncode == 0
        os.unlink(f"{db}{suffix}")
        wait_until(
            lambda: bool(logged(server.log_lines, "database file deleted or replaced")),
            10,
            "the server noticing",
        )
        (told,) = logged(server.log_lines, "database file deleted or replaced")
        what = "write-ahead log" if suffix == "-wal" else "shared memory"
        assert told["problem"] == f"lost its {what} ({db}{suffix} was deleted)"
        refused = create_match(server.address)
        assert refused.returncode == 1
        assert "UNAVAILABLE" in refused.stderr and f"{db}{suffix} was deleted" in refused.stderr
        not_serving = health_pb2.HealthCheckResponse.NOT_SERVING
        wait_until(lambda: health_status(health, "liveness") == not_serving, 5, "liveness")
    finally:
        assert stop_server_process(server) == 0
    (saved,) = logged(
        server.log_lines, "database saved to a new file: its file had been deleted or replaced"
    )
    copy = Path(str(saved["saved_to"]))
    assert copy.name.startswith("sheepfold.db.saved-") and copy.parent == tmp_path
    os.replace(copy, db)
    assert_the_copy_serves(db)
