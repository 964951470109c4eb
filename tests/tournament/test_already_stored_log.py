"""A game another runner stored first is logged with the match and game it
was, as every other line about a game is."""

from __future__ import annotations

import asyncio
from pathlib import Path

import structlog

from clients.launch import Launcher
from tests.tournament.stored_records import two_seat_record
from tests.tournament.test_outside_schedule import _config
from tournament.batch_play import _Runner
from tournament.game_play import GamePlayer
from tournament.live import live_figures
from tournament.progress import SilentProgress
from tournament.runner import ladder_stages, open_tournament, schedule_for
from tournament.store import Store


def test_a_game_stored_by_another_runner_is_logged_with_its_match_and_game(
    tmp_path: Path,
) -> None:
    config = _config(tmp_path, ["a", "b"])
    with Store(tmp_path / "cup.sqlite") as store:
        stages = ladder_stages(store, config)
        schedule = schedule_for(config, stages)
        tid = open_tournament(store, config, len(schedule), stages)
        record = two_seat_record(schedule[0], match_id="m-first")
        assert store.record_game(tid, record)  # the other runner's
        log = structlog.get_logger("sheepfold.tournament").bind(tournament=config.name)
        player = GamePlayer(config, "127.0.0.1:1", "", Launcher(), log)
        figures = live_figures(config.bot_names, config.players, config.anchor)
        runner = _Runner(player, store, tid, figures, SilentProgress())
        with structlog.testing.capture_logs() as logs:
            asyncio.run(runner.accept(two_seat_record(schedule[0], match_id="m-second")))
    assert runner.played == 0
    [line] = [line for line in logs if line["event"] == "game already stored by another runner"]
    assert (line["key"], line["match_id"], line["game"]) == (
        schedule[0].key,
        "m-second",
        "sheep-showdown",
    )
