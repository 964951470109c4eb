"""A backup taken the documented way while the server serves, and restored the
documented way after the server was killed: the restored file holds what the
backup held, nothing the killed server wrote after it. The sqlite3 shell's
`.backup` and `.restore` are front ends to SQLite's online backup API; the
tests drive that API through Python's sqlite3 module, so they need no shell."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from server import launch
from tests.cli.helpers import play_random_match, sheepfold
from tests.conftest import start_server_process, stop_server_process

pytestmark = pytest.mark.e2e


def _finished(db: Path) -> str:
    done = sheepfold("db", "info", "--db", str(db), timeout=60)
    assert done.returncode == 0, done.stderr
    return next(line for line in done.stdout.splitlines() if line.startswith("finished"))


def _copy(source: Path, target: Path) -> None:
    """What `sqlite3 SOURCE ".backup TARGET"` does (and `sqlite3 TARGET
    ".restore SOURCE"`): SOURCE copied page by page into TARGET, through
    SQLite, which reads SOURCE as a reader does (its write-ahead log too) and
    writes TARGET as a writer does. A new TARGET is made under umask 077."""
    umask = os.umask(0o077)
    try:
        with (
            contextlib.closing(sqlite3.connect(source)) as read,
            contextlib.closing(sqlite3.connect(target)) as written,
        ):
            read.backup(written)
    finally:
        os.umask(umask)


def test_a_backup_taken_while_serving_is_restored_over_a_killed_servers_file(
    tmp_path: Path,
) -> None:
    db = tmp_path / "sheepfold.db"
    server = start_server_process("--db", str(db))
    try:
        play_random_match(server.address, 1)
        _copy(db, tmp_path / "backup.db")  # sqlite3 sheepfold.db ".backup backup.db"
        play_random_match(server.address, 2)  # after the backup: the restore must not bring it back
    finally:
        launch.stop(server, graceful=False)  # a crash: what one restores after
    assert stat.S_IMODE((tmp_path / "backup.db").stat().st_mode) == 0o600
    # The killed server's write-ahead log is still there, holding both matches:
    # a backup copied over the file with `cp` would be read through it, as if
    # nothing had been restored.
    assert (tmp_path / "sheepfold.db-wal").stat().st_size > 0
    assert _finished(db) == "finished matches  2"

    _copy(tmp_path / "backup.db", db)  # sqlite3 sheepfold.db ".restore backup.db"

    assert _finished(db) == "finished matches  1"
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    restarted = start_server_process("--db", str(db))
    assert stop_server_process(restarted) == 0
    assert _finished(db) == "finished matches  1"


def test_a_backup_copied_over_a_killed_servers_file_is_not_restored(tmp_path: Path) -> None:
    """Why the docs restore with `.restore` and not `cp`: SQLite reads the
    copied file through the killed server's write-ahead log."""
    db = tmp_path / "sheepfold.db"
    server = start_server_process("--db", str(db))
    try:
        play_random_match(server.address, 1)
        _copy(db, tmp_path / "backup.db")  # sqlite3 sheepfold.db ".backup backup.db"
        play_random_match(server.address, 2)
    finally:
        launch.stop(server, graceful=False)
    shutil.copyfile(tmp_path / "backup.db", db)
    assert _finished(db) == "finished matches  2"
