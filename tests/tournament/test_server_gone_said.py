"""A local run on `--server ADDR` whose server dies says so as soon as it
starts asking the server for its health, not only at the end: for those 15 s
the live line stood still on its last game, its rate and ETA unchanged, as if
the run had hung, and a server back said only then that it had been gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import start_server_process, stop_server_process
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament import game_play, server_check
from tournament.runner import RunError, run_tournament

pytestmark = pytest.mark.e2e

ASKING = "asking it for its health for up to 15 s before the run stops"


def test_a_dead_server_is_said_while_its_health_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_play, "RPC_SECONDS", 1.0)  # the next CreateMatch fails in 1 s
    server = start_server_process()
    notes_at_checks: list[list[str]] = []
    progress = Recorder(victim=server.pid)  # SIGKILLed once the first game is stored

    async def checked_later(seconds: float) -> None:
        notes_at_checks.append(list(progress.notes))

    monkeypatch.setattr(server_check, "_pause", checked_later)
    config = quick_cup(tmp_path, 4, concurrency=2)
    try:
        with pytest.raises(RunError, match=f"cannot reach the server at {server.address}"):
            run_tournament(
                config, server=server.address, database=str(tmp_path / "cup.sqlite"),
                progress=progress,
            )  # fmt: skip
    finally:
        stop_server_process(server)
    assert notes_at_checks, "the server was never asked for its health"
    said = [note for note in notes_at_checks[0] if ASKING in note]
    assert len(said) == 1, notes_at_checks[0]
    assert said[0].startswith(f"cannot reach the server at {server.address}: "), said
    assert [note for note in progress.notes if ASKING in note] == said  # once, not per game
