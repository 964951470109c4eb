"""A server that answers CreateMatch UNAVAILABLE while it still answers other
calls (shutting down after SIGTERM, or its database file lost) takes no more
games: a Ray worker's game says the server is gone, so a run over several
servers drops it and plays the game on another, rather than counting the game
as not played (and the next, until the server exits)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from clients.connect import Unreachable
from clients.launch import Launcher
from server.inprocess import InProcessServer
from tests.tournament.quick_cup import quick_cup
from tournament.game_play import play_game
from tournament.runner import schedule_for


def test_a_server_refusing_new_matches_is_gone(tmp_path: Path) -> None:
    config = quick_cup(tmp_path)
    with InProcessServer() as server:
        server._server.registry.refusing = "the database file was removed"  # type: ignore[union-attr]
        with pytest.raises(Unreachable) as gone:
            asyncio.run(
                play_game(config, server.address, "", schedule_for(config)[0], Launcher(None))
            )
    assert str(gone.value) == (
        f"cannot reach the server at {server.address}: it takes no new matches "
        "(the database file was removed)"
    )
