"""A tournament page's poll reads its database once: what changed and what
its runner last said come from one read-only connection."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import tournament.store_read as store_read
from tests.tournament.quick_cup import quick_cup
from tournament.runner import run_tournament
from web import reports


def test_a_poll_of_an_unchanged_tournament_opens_its_database_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = quick_cup(tmp_path, games_per_pairing=1)
    database = tmp_path / "cup.sqlite"
    run_tournament(config, database=str(database))
    opened: list[str] = []
    real = store_read.connect_read_only

    def counting(path: str | Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(store_read, "connect_read_only", counting)

    async def run(function: Any, *args: Any) -> Any:
        return function(*args)

    async def polls() -> tuple[reports.Report, reports.Report]:
        cache = reports.ReportCache(run)
        first = await cache.get(0, database, "cup")
        opened.clear()
        return first, await cache.get(0, database, "cup")

    first, again = asyncio.run(polls())
    assert again.plain is first.plain and again.state == first.state
    assert first.played == 2 and again.state.word == "finished"
    assert opened == [str(database)]
