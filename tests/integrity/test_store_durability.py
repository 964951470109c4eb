"""The durability settings the server's database promises (docs/operations.md):
every connection that writes a match commits in WAL mode with `synchronous`
at NORMAL or stronger. A SIGKILL cannot tell OFF from NORMAL (the commits are in
the operating system's cache either way), so the crash tests cannot catch it;
a power cut can then lose or damage far more than the last few commits."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from server.sqlite_store import SqliteStore

SYNCHRONOUS_NORMAL = 1  # PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA


def test_every_connection_that_writes_matches_commits_at_synchronous_normal_or_stronger(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "server.db", serving=True)
    try:
        # The writer thread's connection, and the event loop's, which writes
        # most moves (quick writes).
        writers: dict[str, sqlite3.Connection] = {
            "writer thread": store._db,
            "event loop (quick writes)": store._quick,
        }
        for name, db in writers.items():
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal", name
            level = db.execute("PRAGMA synchronous").fetchone()[0]
            assert level >= SYNCHRONOUS_NORMAL, f"{name}: synchronous={level}"
    finally:
        store.close()
