"""A database whose index of matches is damaged (a bad sector, a file copied
while written) lists a match its index no longer finds: deleting it deletes
nothing and raises nothing. `db vacuum --keep-finished` then selected the same
match batch after batch and never ended, and the server's pruning did the same
on its writer thread; both now stop at the first such batch and say so."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from server.retention import prune_once
from server.retention_policy import Retention
from server.sqlite_store import SqliteStore
from server.store_errors import StoreRefused
from tests.cli.helpers import one_line, sheepfold
from tests.cli.test_db_command import _database


def _damage_the_index_of_matches(path: Path) -> None:
    """Put in the match-id index's page the page of a copy whose matches were
    renamed: a scan of the table still reads every match, a look-up by its id
    finds none, and SQLite notices nothing wrong."""
    renamed = path.with_name("renamed.db")
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    renamed.write_bytes(path.read_bytes())
    with closing(sqlite3.connect(renamed)) as db:
        with db:
            for table in ("moves", "matches"):
                db.execute(f"UPDATE {table} SET match_id = 'z' || substr(match_id, 2)")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (page,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_matches_1'"
        ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    start = (page - 1) * size
    with path.open("r+b") as file:
        file.seek(start)
        file.write(renamed.read_bytes()[start : start + size])
    with closing(sqlite3.connect(path)) as db:
        ids = [row[0] for row in db.execute("SELECT match_id FROM matches NOT INDEXED")]
        found = db.execute("SELECT 1 FROM matches WHERE match_id = ?", ids[:1]).fetchone()
    assert ids and found is None, "the index no longer finds the table's matches"


def test_vacuum_of_a_database_whose_index_is_damaged_ends_with_one_line(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.db"
    _database(db, finished=3, moves=2)
    _damage_the_index_of_matches(db)
    done = sheepfold("db", "vacuum", "--db", str(db), "--keep-finished", "0", timeout=30)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    line = one_line(done)
    assert line.startswith(f"sheepfold db: cannot use {db}: "), line
    assert "damaged" in line and "REINDEX" in line, line


def test_the_store_refuses_to_prune_what_its_index_cannot_find(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _database(db, finished=3, moves=2)
    _damage_the_index_of_matches(db)
    store = SqliteStore(db)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="REINDEX"):
            store.prune(None, 0, 200)
    finally:
        store.close()


def test_the_servers_pruning_gives_up_on_a_damaged_index_and_tries_again_later(
    tmp_path: Path,
) -> None:
    """prune_once ends (StoreRefused) instead of selecting the same matches for
    ever; keep_pruning logs it and goes on."""
    from server.storage import StoreWorker

    db = tmp_path / "s.db"
    _database(db, finished=3, moves=2)
    _damage_the_index_of_matches(db)

    async def prune() -> None:
        worker = StoreWorker(SqliteStore(db))
        try:
            with pytest.raises(StoreRefused, match="REINDEX"):
                await asyncio.wait_for(prune_once(worker, Retention(count=0)), 20)
        finally:
            await worker.close()

    asyncio.run(prune())


def test_the_servers_pruning_goes_on_after_a_refused_batch() -> None:
    """keep_pruning caught only StoreUnavailable: a refusal (a damaged file)
    ended its task without a word, and nothing was pruned again until a restart."""
    from server.retention import keep_pruning

    calls: list[int] = []

    class Refusing:
        async def prune(self, finished_before: float | None, keep: int | None, batch: int) -> int:
            calls.append(batch)
            if len(calls) == 1:
                raise StoreRefused("the database refused to prune: disk image is malformed")
            return 0

    async def run() -> None:
        task = asyncio.create_task(keep_pruning(Refusing(), Retention(count=0, every=0.01)))  # type: ignore[arg-type]
        for _ in range(500):
            if len(calls) >= 2 or task.done():
                break
            await asyncio.sleep(0.01)
        assert not task.done(), task.exception()
        task.cancel()

    asyncio.run(run())
    assert len(calls) >= 2, "pruned again after the refusal"
