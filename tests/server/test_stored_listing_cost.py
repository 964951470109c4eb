"""A listing reads as many stored rows as it lists, however many the file
holds: every game's finished and aborted matches, newest first with match_id
breaking ties, were sorted whole for each page (23 ms a page at 50,000)."""

from __future__ import annotations

import time
from pathlib import Path

from server.page_tokens import Position
from server.sqlite_store import SqliteStore
from server.store import ANY_OVER
from tests.server.stored_matches import GAMES, fill


def _steps(store: SqliteStore, game: str, status: str, after: Position | None) -> int:
    """SQLite's virtual machine steps (in thousands) for one page of 20."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    reader = store._reader()
    reader.set_progress_handler(count, 1000)
    try:
        assert len(store.recent(game, status, 20, after)) == 20
    finally:
        reader.set_progress_handler(None, 0)
    return steps[0]


def _costs(path: Path, count: int) -> list[int]:
    fill(path, count, time.time())
    store = SqliteStore(path)
    try:
        first = store.recent("", ANY_OVER, 1)[0].record
        after = Position.of(first.created_at - 30, "")  # a few pages down
        return [
            _steps(store, game, status, at)
            for game in ("", GAMES[0])
            for status in (ANY_OVER, "finished", "aborted")
            for at in (None, after)
        ]
    finally:
        store.close()


def test_a_page_costs_no_more_in_a_bigger_file(tmp_path: Path) -> None:
    small, big = _costs(tmp_path / "small.db", 400), _costs(tmp_path / "big.db", 6000)
    assert all(b <= s + 2 for s, b in zip(small, big, strict=True)), (small, big)
