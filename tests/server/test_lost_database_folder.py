"""The database's whole folder deleted under a running server (a volume
emptied, a clean-up of /tmp that takes folders too): the stop saves what the
server held, as it does when the file alone is deleted.

Before, the copy was to be written at the `--db` name or beside it, both in
the folder that was gone: the stop logged `database lost` and every match and
move went with the folder."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from tests.cli.helpers import create_match, play_random_match
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import logged, wait_until
from tests.server.lost_database import assert_the_copy_serves

pytestmark = pytest.mark.e2e


def test_a_database_folder_deleted_under_the_server_is_made_again_at_the_stop(
    tmp_path: Path,
) -> None:
    db = tmp_path / "data" / "sheepfold.db"
    db.parent.mkdir()
    server = start_server_process("--db", str(db))
    try:
        play_random_match(server.address)
        created = create_match(server.address)
        assert created.returncode == 0, created.stderr
        shutil.rmtree(db.parent)
        wait_until(
            lambda: bool(logged(server.log_lines, "database file deleted or replaced")),
            10,
            "the server noticing",
        )
    finally:
        assert stop_server_process(server) == 0
    assert not logged(
        server.log_lines,
        "database lost: its file had been deleted or replaced, and no copy could be written",
    )
    (saved,) = logged(
        server.log_lines, "database saved to a new file: its file had been deleted or replaced"
    )
    assert saved["saved_to"] == str(db)
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(db.stat().st_mode) == 0o600

    assert_the_copy_serves(db)


def test_a_copy_that_cannot_go_near_its_file_goes_to_the_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder that cannot be made again (here a file took its parent's name;
    a read-only mount does the same) still leaves the copy somewhere."""
    import sqlite3
    import tempfile

    from server import db_file

    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    (tmp_path / "volume").write_bytes(b"")
    held = sqlite3.connect(":memory:")
    held.execute("CREATE TABLE t (x)")
    held.execute("INSERT INTO t VALUES (7)")
    held.commit()
    saved = Path(db_file.save_copy(held, str(tmp_path / "volume" / "data" / "s.db")))
    assert saved.parent == spare and saved.name.startswith("s.db.saved-")
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    with sqlite3.connect(saved) as copy:
        assert copy.execute("SELECT x FROM t").fetchall() == [(7,)]
