"""What the tests of a database lost under a running server share: the copy the
server saved at its stop must serve again."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import sheepfold
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import logged


def assert_the_copy_serves(db: Path) -> None:
    """A server started on `db` (the copy saved after the loss) restores the one
    unjoined match created before it, and `db info` counts the finished one."""
    again = start_server_process("--db", str(db))
    try:
        (started,) = logged(again.log_lines, "server started")
        assert started["restored_matches"] == 1, "the unjoined match created before the loss"
    finally:
        assert stop_server_process(again) == 0
    info = sheepfold("db", "info", "--db", str(db), timeout=60)
    assert "finished matches  1" in info.stdout, info.stdout
