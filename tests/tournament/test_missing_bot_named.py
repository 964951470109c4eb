"""A match the server starts without a bot (its start timeout passed first) is
named by the runner with the bot's name: the server's own line, "match
starting without every seat", gives seat numbers alone, and an organizer
looking for the bot that never joined had to work them out from the schedule."""

from __future__ import annotations

from pathlib import Path

import pytest
import structlog

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.tournament.quick_cup import Recorder, quick_cup
from tests.tournament.test_runner import HERE
from tournament.config import load_config
from tournament.runner import run_tournament
from tournament.store import Store

pytestmark = pytest.mark.e2e

STARTED_WITHOUT = "match started without every bot"


def test_the_runner_names_the_bot_a_match_started_without(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(
        f'game = "sheep-showdown"\npython_path = ["{HERE}"]\ngames_per_pairing = 1\n'
        "concurrency = 2\nbootstrap = 0\n[options]\nrounds = 1\n"
        # Built in 3 s, past the server's 1 s start timeout: it joins late.
        '[[bots]]\nname = "late"\nclass = "tournament_test_bots:LateBot"\n'
        '[[bots]]\nname = "quick"\nbuiltin = "random"\n'
    )
    recorder = Recorder()
    with (
        structlog.testing.capture_logs() as logs,
        InProcessServer(ServerConfig(start_timeout=1)) as server,
    ):
        summary = run_tournament(
            load_config(path), server.address, str(tmp_path / "t.sqlite"), progress=recorder
        )
    assert summary.played == 2 and summary.errors == 0, recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        games = {game.match_id: game for game in store.games(store.tournament().id)}
    lines = [line for line in logs if str(line["event"]).startswith(STARTED_WITHOUT)]
    assert sorted(line["match_id"] for line in lines) == sorted(games)  # once a game
    for line in lines:
        game = games[line["match_id"]]
        assert line["key"] == game.key and line["bots"] == ["late"], line
        assert line["seats"] == [game.bots.index("late")], line
    # The server's own line, which the runner's completes, says the seat alone.
    servers = [line for line in logs if line["event"] == "match starting without every seat"]
    assert len(servers) == 2 and all("late" not in str(line) for line in servers)


def test_no_bot_is_named_when_every_bot_joined(tmp_path: Path) -> None:
    with structlog.testing.capture_logs() as logs:
        summary = run_tournament(quick_cup(tmp_path, 1), database=str(tmp_path / "t.sqlite"))
    assert summary.played == 2 and summary.errors == 0
    assert not [line for line in logs if str(line["event"]).startswith(STARTED_WITHOUT)]
    assert any(line["event"] == "match running" for line in logs)  # the logs were caught
