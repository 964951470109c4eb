"""A read transaction another process keeps open (an `sqlite3` shell left in
`BEGIN`, a long report) keeps the server's write-ahead log from starting again:
its file then grows by every write until the transaction ends, past the 16 MB
it is otherwise cut back to. The server says so, once, and again when it is
over; nothing said so before, and a forgotten shell filled the disk."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from server import sqlite_store, storage
from server.records import RecordedMove
from server.sqlite_store import SqliteStore
from server.storage import StoreWorker
from tests.cli.helpers import stored_match

GAME = "sheep-n-sheep"
LIMIT = 256 * 1024


def test_a_read_holding_the_log_is_said_once_and_its_end_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_store, "LOG_LIMIT_BYTES", LIMIT)
    monkeypatch.setattr(storage, "CHECKPOINT_EVERY", 100)
    path = tmp_path / "s.db"
    wal = tmp_path / "s.db-wal"
    store = SqliteStore(path)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM moves").fetchone()  # the file as it was

    held_event = "write-ahead log held by another process's read"
    ended_event = "write-ahead log started again after a read held it"

    async def scenario(logs: list[MutableMapping[str, Any]]) -> tuple[list[int], list[int]]:
        worker = StoreWorker(store)
        await worker.create_match(stored_match("m", seed=7, created_at=1.0))
        number = 0

        async def write_until(event: str, then: int = 0) -> list[int]:
            """Moves until `event` is logged, then `then` more; the log's size after each."""
            nonlocal number
            sizes: list[int] = []
            left = then
            for _ in range(3000):
                if any(e["event"] == event for e in logs):
                    if left == 0:
                        return sizes
                    left -= 1
                number += 1
                move = RecordedMove(number, number % 2, 0, f"move {number}", "x" * 200, 5.0)
                await worker.record_move("m", move, game=GAME)
                await asyncio.sleep(0.001)  # the writer thread runs the checkpoints
                sizes.append(wal.stat().st_size)
            raise AssertionError(f"no {event!r} in {logs}")

        while_held = await write_until(held_event)
        reader.execute("COMMIT")  # the shell's user comes back
        # The write after the checkpoint starts the log and cuts its file back.
        after = await write_until(ended_event, then=2)
        await worker.close()
        return while_held, after

    with capture_logs() as logs:
        while_held, after = asyncio.run(scenario(logs))
    reader.close()
    held = [e for e in logs if e["event"] == held_event]
    assert len(held) == 1, logs
    assert held[0]["log_level"] == "warning"
    assert held[0]["path"] == f"{path}-wal" and held[0]["log_bytes"] > LIMIT
    assert "read transaction open" in held[0]["problem"]
    ended = [e for e in logs if e["event"] == ended_event]
    assert len(ended) == 1, logs
    assert max(while_held) > 2 * LIMIT, "the held log grew"
    assert min(after) <= LIMIT, "started again and cut back once the read ended"
    reopened = SqliteStore(path)
    assert reopened.counts()["moves"] == len(while_held) + len(after)
    reopened.close()
