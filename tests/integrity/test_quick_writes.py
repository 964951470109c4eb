"""Writes made straight from the event loop: only when no lock is in the way.

The server writes a match's creation, moves and end on its event loop when the
store can take them without waiting, and through its writer thread (which
waits and retries) otherwise. Every line logged about a match's write names
the match and its game, as every other line about a match does.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from server import sqlite_store, storage
from server.records import RecordedMove
from server.sqlite_store import SqliteStore
from server.storage import StoreWorker
from server.store import MemoryStore, WouldWait
from server.store_errors import StoreRefused
from tests.cli.helpers import stored_match

GAME = "sheep-n-sheep"


def _move(number: int) -> RecordedMove:
    return RecordedMove(number, number % 2, 0, f"move {number}", "", 5.0)


def test_a_quick_write_never_waits_for_another_process_lock(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SqliteStore(path)
    quick = store.quick_writes()
    quick.create_match(stored_match("m", seed=7, created_at=1.0))
    quick.record_move("m", _move(1))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    with pytest.raises(WouldWait):  # refused at once, not after a wait
        quick.record_move("m", _move(2))
    with pytest.raises(WouldWait):
        quick.finish_match("m", "finished", b"", "game over")
    other.execute("ROLLBACK")
    other.close()
    quick.record_move("m", _move(2))
    quick.finish_match("m", "finished", b"r", "game over")
    stored = store.load("m")
    assert stored is not None and stored.moves == [_move(1), _move(2)]
    assert (stored.status, stored.result) == ("finished", b"r")
    store.close()


def test_a_memory_store_refuses_a_quick_write_while_a_reader_holds_it() -> None:
    store = MemoryStore()
    quick = store.quick_writes()
    quick.create_match(stored_match("m", seed=7, created_at=1.0))
    with store._lock, pytest.raises(WouldWait):
        quick.record_move("m", _move(1))
    quick.record_move("m", _move(1))
    stored = store.load("m")
    assert stored is not None and stored.moves == [_move(1)]


def test_a_quick_write_refused_by_the_lock_is_made_by_the_writer_once_it_is_free(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.db"

    async def scenario() -> list[RecordedMove]:
        store = SqliteStore(path)
        worker = StoreWorker(store)
        await worker.create_match(stored_match("m", seed=7, created_at=1.0))
        await worker.record_move("m", _move(1), game=GAME)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        writing = asyncio.create_task(worker.record_move("m", _move(2), game=GAME))
        # The server reports the database unwritable once the writer thread found
        # the lock (after a busy wait of 0.25 s: a fixed sleep was sometimes shorter).
        await _until(lambda: not worker.healthy)
        assert not writing.done(), "the move waits for the lock (on the writer thread)"
        other.execute("ROLLBACK")
        other.close()
        await asyncio.wait_for(writing, 5)
        await worker.record_move("m", _move(3), game=GAME)
        assert worker.healthy
        await worker.close()
        reopened = SqliteStore(path)
        stored = reopened.load("m")
        reopened.close()
        assert stored is not None
        return stored.moves

    assert asyncio.run(scenario()) == [_move(1), _move(2), _move(3)]


def test_a_join_the_lock_refuses_is_written_by_the_writer_and_nobody_waits(
    tmp_path: Path,
) -> None:
    """A match's first join is written for the restart's sake, but no join waits
    for the database: held up by another process's lock, it is queued for the
    writer thread and made once the lock is free."""
    path = tmp_path / "s.db"

    async def scenario() -> None:
        store = SqliteStore(path)
        worker = StoreWorker(store)
        await worker.create_match(stored_match("m", seed=7, created_at=1.0))
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        worker.record_joined("m", 0, game=GAME)  # not a coroutine: returns at once
        await asyncio.sleep(0.4)
        assert not worker.healthy, "the writer thread waits for the lock"
        unjoined = store.load("m")
        assert unjoined is not None and not unjoined.seat_joined
        other.execute("ROLLBACK")
        other.close()
        await worker.close()

    asyncio.run(scenario())
    reopened = SqliteStore(path)
    stored = reopened.load("m")
    reopened.close()
    assert stored is not None and stored.seat_joined


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_quick_writes_checkpoint_the_log_now_and_then(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage, "CHECKPOINT_EVERY", 10)
    store = SqliteStore(tmp_path / "s.db") if kind == "sqlite" else MemoryStore()
    checkpoints: list[int] = []
    checkpoint = store.checkpoint

    def counted() -> int:
        checkpoints.append(1)
        return checkpoint()

    store.checkpoint = counted  # type: ignore[method-assign]

    async def scenario() -> None:
        worker = StoreWorker(store)
        await worker.create_match(stored_match("m", seed=7, created_at=1.0))
        for number in range(1, 26):
            await worker.record_move("m", _move(number), game=GAME)
        await worker.close()

    asyncio.run(scenario())
    assert len(checkpoints) == 2, "one checkpoint per 10 quick writes"
    if kind == "sqlite":
        reopened = SqliteStore(tmp_path / "s.db")
        stored = reopened.load("m")
        reopened.close()
        assert stored is not None and len(stored.moves) == 25


@pytest.mark.parametrize("outgrown", [False, True])
def test_the_writer_thread_is_woken_to_make_room_only_when_the_log_needs_it(
    tmp_path: Path, outgrown: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look at the log's room every ROOM_CHECK_EVERY quick writes is made
    on the event loop; the writer thread empties the log only when it has
    outgrown its room. It was once woken for every look, room or not."""
    monkeypatch.setattr(sqlite_store, "_log_outgrows_disk", lambda path: outgrown)
    store = SqliteStore(tmp_path / "s.db")
    made_room: list[int] = []
    store.make_room = lambda: made_room.append(1)  # type: ignore[method-assign]

    async def scenario() -> None:
        worker = StoreWorker(store)
        await worker.create_match(stored_match("m", seed=7, created_at=1.0))
        for number in range(1, 4 * storage.ROOM_CHECK_EVERY):
            await worker.record_move("m", _move(number), game=GAME)
        await worker.close()

    asyncio.run(scenario())
    assert len(made_room) == (4 if outgrown else 0), made_room


def test_a_checkpoint_starts_the_log_again_once_it_is_over_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under steady load a quick write lands while every checkpoint runs, so the
    log is never started again by a write that finds it wholly copied; the
    checkpoint must see to it once the log is long, or it grows by every write.
    It copies the last pages and leaves the file be (emptying the file held
    writes off three times as long); the write after it starts the log from its
    beginning and cuts the file back to the limit. A short log is only copied."""
    limit = 1024 * 1024
    monkeypatch.setattr(sqlite_store, "LOG_LIMIT_BYTES", limit)
    path = tmp_path / "s.db"
    wal = path.with_name(path.name + "-wal")
    store = SqliteStore(path)
    quick = store.quick_writes()
    quick.create_match(stored_match("m", seed=7, created_at=1.0))
    number = 0
    for _ in range(3):
        while wal.stat().st_size <= 2 * limit:
            number += 1
            quick.record_move("m", _move(number))
        store.checkpoint()
        assert wal.stat().st_size > 2 * limit, "not emptied by the checkpoint"
        number += 1
        quick.record_move("m", _move(number))
        assert wal.stat().st_size <= limit, "copied into the database and started again"
    fresh = tmp_path / "short.db"
    short_store = SqliteStore(fresh)
    short_quick = short_store.quick_writes()
    short_quick.create_match(stored_match("m", seed=7, created_at=1.0))
    for moved in range(1, 21):
        short_quick.record_move("m", _move(moved))
    short_wal = fresh.with_name(fresh.name + "-wal")
    short = short_wal.stat().st_size
    short_store.checkpoint()
    assert short_wal.stat().st_size == short > 0, "a short log is only copied"
    short_store.close()
    store.close()
    reopened = SqliteStore(path)
    assert reopened.counts()["moves"] == number
    reopened.close()


def _locked(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    return other


async def _until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


def _about_writes(logs: list[MutableMapping[str, Any]]) -> list[tuple[str, str, str, str]]:
    return [
        (line["event"], line["what"], line.get("match_id", "-"), line.get("game", "-"))
        for line in logs
        if "what" in line
    ]


def test_a_write_that_waits_names_its_match_and_game(tmp_path: Path) -> None:
    path = tmp_path / "s.db"

    async def scenario() -> None:
        worker = StoreWorker(SqliteStore(path))
        other = _locked(path)
        created = asyncio.create_task(
            worker.create_match(stored_match("c", seed=7, created_at=1.0))
        )
        await _until(lambda: not worker.healthy)  # the write waits (and said so)
        other.execute("ROLLBACK")
        await asyncio.wait_for(created, 5)
        other.execute("BEGIN IMMEDIATE")
        moved = asyncio.create_task(worker.record_move("c", _move(1), game=GAME))
        await _until(lambda: not worker.healthy)
        worker.record_joined("c", 0, game=GAME)  # queued behind the move
        other.execute("ROLLBACK")
        await asyncio.wait_for(moved, 5)
        await _until(lambda: worker.unwritten == 0)
        other.execute("BEGIN IMMEDIATE")
        finished = asyncio.create_task(worker.finish_match("c", "finished", b"", "over", game=GAME))
        await _until(lambda: not worker.healthy)
        other.execute("ROLLBACK")
        other.close()
        await asyncio.wait_for(finished, 5)
        await worker.close()

    with capture_logs() as logs:
        asyncio.run(scenario())
    lines = _about_writes(logs)
    for what in ("create match", "record move", "finish match"):
        assert ("database write waiting", what, "c", GAME) in lines
        assert ("database write made after waiting", what, "c", GAME) in lines
    assert [line for line in lines if line[2:] != ("c", GAME)] == []


def test_a_refused_write_and_a_write_dropped_at_shutdown_name_their_match(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.db"

    async def scenario() -> None:
        worker = StoreWorker(SqliteStore(path))
        await worker.create_match(stored_match("r", seed=7, created_at=1.0))
        await worker.record_move("r", _move(1), game=GAME)
        try:
            await worker.record_move("r", _move(1), game=GAME)  # its number taken
        except StoreRefused:
            pass
        else:
            raise AssertionError("the database took a move twice")
        other = _locked(path)
        worker.record_joined("r", 0, game=GAME)  # queued for the writer, which waits
        await asyncio.sleep(0.2)
        assert await worker.close(timeout=0.3) == 1, "the dropped join is counted unwritten"
        other.execute("ROLLBACK")
        other.close()

    with capture_logs() as logs:
        asyncio.run(scenario())
    lines = _about_writes(logs)
    assert ("database refused a write", "record move", "r", GAME) in lines
    assert ("database write dropped at shutdown", "record a join", "r", GAME) in lines
