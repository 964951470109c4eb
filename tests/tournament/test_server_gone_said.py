"""A local run on `--server ADDR` whose server dies says so as soon as it
starts asking the server for its health, not only at the end: for those 15 s
the live line stood still on its last game, its rate and ETA unchanged, as if
the run had hung, and a server back said only then that it had been gone."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

import pytest

from server.inprocess import InProcessServer
from tests.conftest import start_server_process, stop_server_process
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament import game_play, server_check
from tournament.runner import RunError, run_tournament
from tournament.store import GameRecord

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
    # The other game's record, asked for as the server died, is waited for in
    # silence beside it (tournament.game_play._replay): its checks may come
    # first, so the note is looked for at any check, all of them before the end.
    noted = [notes for notes in notes_at_checks if any(ASKING in note for note in notes)]
    assert noted, notes_at_checks
    said = [note for note in noted[0] if ASKING in note]
    assert len(said) == 1, noted[0]
    assert said[0].startswith(f"cannot reach the server at {server.address}: "), said
    assert [note for note in progress.notes if ASKING in note] == said  # once, not per game


def test_a_server_that_answers_but_is_not_serving_is_said_while_its_health_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that lost its database answers, but refuses the next game
    (UNAVAILABLE) and says NOT_SERVING: the run waits the same 15 s on its
    health, and said nothing until it stopped."""
    notes_at_checks: list[list[str]] = []
    with InProcessServer() as server:

        class LosesItsDatabase(Recorder):
            def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
                super().game_done(game, elo)
                if len(self.keys) == 1:
                    server.run(lose_database())

        async def lose_database() -> None:
            server.server._refuse_new_matches("the database file was removed")
            await asyncio.gather(*server.server._health_updates)  # NOT_SERVING is set

        progress = LosesItsDatabase()

        async def checked_later(seconds: float) -> None:
            notes_at_checks.append(list(progress.notes))

        monkeypatch.setattr(server_check, "_pause", checked_later)
        with pytest.raises(RunError, match="its health check says NOT_SERVING"):
            run_tournament(
                quick_cup(tmp_path, 4, concurrency=1), server=server.address,
                database=str(tmp_path / "cup.sqlite"), progress=progress,
            )  # fmt: skip
    assert notes_at_checks, "the server was never asked for its health"
    said = [note for note in notes_at_checks[0] if ASKING in note]
    assert said == [
        f"cannot reach the server at {server.address}: its health check says NOT_SERVING: "
        f"{ASKING} (a server restarted meanwhile keeps it going)"
    ], notes_at_checks[0]
    assert [note for note in progress.notes if ASKING in note] == said  # once
