"""`sheepfold serve` on a database file another process holds locked, when the
server must write it before it can start (a new file's tables, or an older
schema's upgrade): one line that says who is likely in the way and what to
do, exit 1. It said only "cannot open --db PATH: database is locked", where a
server already running says "database is locked; is another process holding
it?". Run as a user runs it, the lock held by SQLite in this process."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from server.sqlite_schema import SCHEMA_VERSION, migrate
from tests.cli.helpers import one_line, sheepfold

pytestmark = pytest.mark.e2e


@contextmanager
def _held(path: Path) -> Iterator[None]:
    """The file's write lock (and every other), as a `sqlite3` shell's
    `BEGIN EXCLUSIVE;` holds it, for the block."""
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        holder.close()


def _expected(path: Path) -> str:
    return (
        f"sheepfold serve: cannot open --db {path}: database is locked; another process is "
        "holding it (a `sheepfold db vacuum`, a sqlite3 shell or a backup of the file, say) "
        "and the server must write it to start (to create or upgrade its tables): "
        "let that process finish or stop it, then try again"
    )


def _serve(path: Path) -> str:
    done = sheepfold("serve", "--host", "127.0.0.1", "--port", "0", "--db", str(path))
    assert done.returncode == 1, done.stderr
    return one_line(done)


def test_a_new_file_held_by_another_process_names_the_likely_cause(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with _held(path):
        assert _serve(path) == _expected(path)


def test_a_file_to_upgrade_held_by_another_process_names_the_likely_cause(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as old:
        assert migrate(old, upto=SCHEMA_VERSION - 1) == SCHEMA_VERSION - 1
    with _held(path):
        assert _serve(path) == _expected(path)
    with closing(sqlite3.connect(path)) as still:  # nothing was written meanwhile
        (version,) = still.execute("SELECT MAX(version) FROM schema_version").fetchone()
    assert version == SCHEMA_VERSION - 1
