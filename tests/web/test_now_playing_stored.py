"""A game stored while a tournament's page is being answered shows once:
under "Now playing" or in the games list, never in both. The page reads the
games in play (its poll) and builds the report (in the replay process) at two
moments: a game stored between them was in both lists of one answer."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from tournament.schedule import make_schedule
from tournament.store import GameRecord, InPlay, SeatRecord, Store
from tournament.store_runner_rows import RunnerRows
from web import reports


def _stored(key: str, match_id: str, seats: tuple[str, ...]) -> GameRecord:
    records = tuple(
        SeatRecord(bot, float(10 - seat), seat + 1, seat + 1, 0, False, None)
        for seat, bot in enumerate(seats)
    )
    return GameRecord(key, match_id, 7, 0, 0, records, "game over", "{}", 1.0, time.time())


def test_a_game_stored_between_the_poll_and_the_report_shows_once(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    schedule = make_schedule(["alpha", "beta"], 2, 2, 1)
    first, second = schedule[0], schedule[1]
    ending = InPlay(first.key, "match-ending", tuple(first.seats), "", time.time())
    going_on = InPlay(second.key, "match-going-on", tuple(second.seats), "", time.time())
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.start_run(tid, "run", time.time())
        store.game_in_play(tid, ending)
        store.game_in_play(tid, going_on)

    builds: list[str] = []

    async def run(function: Any, *args: Any) -> Any:
        # The runner stores the game after the page's first poll, before its
        # report is built.
        if function is reports.build and not builds:
            with Store(db) as store:
                assert store.record_game(tid, _stored(ending.key, ending.match_id, ending.seats))
        builds.append(function.__name__)
        return await asyncio.to_thread(function, *args)

    async def answers() -> tuple[reports.Report, reports.Report]:
        cache = reports.ReportCache(run)
        first_answer = await cache.get(0, db, "cup")
        return first_answer, await cache.get(0, db, "cup")

    answer, next_answer = asyncio.run(answers())
    assert answer.state.word == "running"
    assert "match-ending" in answer.fragment  # in the games list ...
    assert [game.match_id for game in answer.playing] == ["match-going-on"]  # ... only
    # The report, read after the game was stored, is kept as of that read:
    # the next poll, which sees the game stored, is answered without a build.
    assert builds == ["build"]
    assert next_answer.fragment is answer.fragment
    assert [game.match_id for game in next_answer.playing] == ["match-going-on"]


def test_a_game_stored_during_the_poll_shows_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.sqlite"
    schedule = make_schedule(["alpha", "beta"], 2, 2, 1)
    ending = InPlay(schedule[0].key, "match-ending", tuple(schedule[0].seats), "", time.time())
    with Store(db) as runner:  # open all along, as a runner's store is
        tid = runner.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        runner.start_run(tid, "run", time.time())
        runner.game_in_play(tid, ending)

        async def run(function: Any, *args: Any) -> Any:
            return await asyncio.to_thread(function, *args)

        cache = reports.ReportCache(run)
        before = asyncio.run(cache.get(0, db, "cup"))
        assert [game.match_id for game in before.playing] == ["match-ending"]
        real = RunnerRows.games_in_play

        def stored_first(store: RunnerRows, tournament_id: int) -> tuple[InPlay, ...]:
            # The runner stores the game after the poll read what changed,
            # before it reads the games in play.
            monkeypatch.setattr(RunnerRows, "games_in_play", real)
            with Store(db) as writer:  # the poll's thread: the runner's is another process
                assert writer.record_game(tid, _stored(ending.key, ending.match_id, ending.seats))
            return real(store, tournament_id)

        monkeypatch.setattr(RunnerRows, "games_in_play", stored_first)
        answer = asyncio.run(cache.get(0, db, "cup"))
    shown = ["match-ending" in answer.fragment, [game.match_id for game in answer.playing]]
    assert shown in ([True, []], [False, ["match-ending"]])
