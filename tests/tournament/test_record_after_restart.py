"""A `--server` run whose server dies just as a game ends, before the runner
has fetched the game's record, and is restarted by its supervisor keeps that
record: the runner waits for the server to answer again and fetches it."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.conftest import ServerProcess, start_server_process, stop_server_process
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament import game_play, server_check
from tournament.runner import run_tournament, schedule_for

pytestmark = pytest.mark.e2e


def test_a_game_whose_server_dies_as_it_ends_is_stored_with_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the game was stored with its result alone ("cannot fetch the game's
    record"), and `sheepfold replay` found only its result."""
    db = str(tmp_path / "server.db")
    servers: list[ServerProcess] = [start_server_process("--db", db)]
    port = servers[0].port
    settle = game_play._settle

    async def settle_then_kill(tasks: Iterable[asyncio.Task[None]], timeout: float) -> None:
        await settle(tasks, timeout)  # the game is over, its record not fetched yet
        if len(servers) == 1 and servers[0].process.poll() is None:
            servers[0].process.kill()
            servers[0].process.wait()

    async def supervisor(seconds: float) -> None:
        if len(servers) == 1:  # the runner found nobody: restart it
            servers.append(start_server_process("--db", db, "--port", str(port)))

    monkeypatch.setattr(game_play, "_settle", settle_then_kill)
    monkeypatch.setattr(server_check, "_pause", supervisor)
    config = quick_cup(tmp_path, 1, concurrency=1)
    cup = tmp_path / "cup.sqlite"
    progress = Recorder()
    try:
        summary = run_tournament(
            config, server=servers[0].address, database=str(cup), progress=progress
        )
    finally:
        for server in servers:
            stop_server_process(server)
    assert len(servers) == 2, "the server was killed and restarted"
    assert progress.errors == [] and summary.errors == 0
    assert sorted(progress.keys) == sorted(game.key for game in schedule_for(config))
    with sqlite3.connect(cup) as stored:
        without = stored.execute(
            "SELECT g.key FROM games g LEFT JOIN game_replays r ON r.game_id = g.id"
            " WHERE r.game_id IS NULL"
        ).fetchall()
    assert without == [], "every game is stored with its record"
