"""A game another runner stored first is logged with the match and game it
was, as every other line about a game is."""

from __future__ import annotations

import asyncio
from pathlib import Path

import structlog

from tests.tournament.quick_cup import cup_runner
from tests.tournament.stored_records import two_seat_record
from tests.tournament.test_outside_schedule import _config
from tournament.progress import SilentProgress
from tournament.store import Store


def test_a_game_stored_by_another_runner_is_logged_with_its_match_and_game(
    tmp_path: Path,
) -> None:
    config = _config(tmp_path, ["a", "b"])
    with Store(tmp_path / "cup.sqlite") as store:
        log = structlog.get_logger("sheepfold.tournament").bind(tournament=config.name)
        runner, schedule = cup_runner(config, store, SilentProgress(), log=log)
        record = two_seat_record(schedule[0], match_id="m-first")
        assert store.record_game(runner.tournament_id, record)  # the other runner's
        with structlog.testing.capture_logs() as logs:
            asyncio.run(runner.accept(two_seat_record(schedule[0], match_id="m-second")))
    assert runner.played == 0
    [line] = [line for line in logs if line["event"] == "game already stored by another runner"]
    assert (line["key"], line["match_id"], line["game"]) == (
        schedule[0].key,
        "m-second",
        "sheep-showdown",
    )
