"""A finished game is stored off the run's event loop. Each game was written
on it: another process holding the database's write lock (another
tournament's runner storing a game in the same file) stood the loop still for
as long as it held it, up to the 30 s lock wait, the other games and a run's
in-process server with it. Real SQLite, a lock held by another connection."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import structlog

from tests.tournament.quick_cup import Recorder, cup_runner, quick_cup
from tests.tournament.stored_records import two_seat_record
from tests.tournament.test_heartbeat import _hold_lock, tick
from tournament.batch_play import _Runner
from tournament.game_play import GamePlayer, PlayedGame
from tournament.schedule import ScheduledGame
from tournament.store import Store, StoreError
from tournament.store_apart import written_apart


class _Played(GamePlayer):
    """Every game is over at once, 10 to 7, with no server asked."""

    async def play(self, stub: Any, scheduled: ScheduledGame) -> PlayedGame:
        return two_seat_record(scheduled, match_id=f"m-{scheduled.key}"), None, {}


def _stored(db: Path) -> list[str]:
    with closing(sqlite3.connect(db)) as raw:
        return [row[0] for row in raw.execute("SELECT key FROM games ORDER BY id")]


def test_a_game_waiting_for_the_database_does_not_hold_up_the_loop(tmp_path: Path) -> None:
    config = quick_cup(tmp_path)
    db = tmp_path / "cup.sqlite"
    lags: list[float] = []
    progress = Recorder()

    async def run(runner: _Runner, games: list[ScheduledGame]) -> float:
        ticking = asyncio.create_task(tick(lags))
        held = threading.Event()
        holder = threading.Thread(target=_hold_lock, args=(db, held, 0.6))
        holder.start()
        held.wait()
        await asyncio.gather(*(runner._play(None, game) for game in games))  # type: ignore[arg-type]
        released = time.monotonic()
        await asyncio.to_thread(holder.join)
        ticking.cancel()
        return released

    with Store(db) as store:
        log = structlog.get_logger("sheepfold.tournament")
        runner, schedule = cup_runner(config, store, progress, _Played, log=log)
        asyncio.run(run(runner, list(schedule)))
    assert max(lags) < 0.3, f"the loop stood still {max(lags):.2f} s"
    # Each game is stored before the run counts it, in the order it counts them.
    assert runner.played == len(schedule) and progress.keys == _stored(db)
    assert sorted(progress.keys) == sorted(game.key for game in schedule)


def test_a_run_stopped_while_a_game_is_written_stores_and_counts_it(tmp_path: Path) -> None:
    """Ctrl-C while a game waits for the database: the write goes on in its
    thread, so the run waits for it and counts the game, rather than ending
    with a game stored that its own count left out."""
    config = quick_cup(tmp_path)
    db = tmp_path / "cup.sqlite"
    progress = Recorder()

    async def run(runner: _Runner, game: ScheduledGame) -> None:
        held = threading.Event()
        holder = threading.Thread(target=_hold_lock, args=(db, held, 0.4))
        holder.start()
        held.wait()
        playing = asyncio.create_task(runner._play(None, game))  # type: ignore[arg-type]
        await asyncio.sleep(0.1)
        playing.cancel()
        try:
            await playing
        except asyncio.CancelledError:
            pass
        else:
            raise AssertionError("the game's task was not cancelled")
        await asyncio.to_thread(holder.join)

    with Store(db) as store:
        runner, schedule = cup_runner(config, store, progress, _Played)
        asyncio.run(run(runner, schedule[0]))
    assert _stored(db) == [schedule[0].key] == progress.keys and runner.played == 1


def test_a_write_apart_says_it_waits_on_the_loop(tmp_path: Path) -> None:
    """The notice that a write waits for the lock is a run's progress note,
    drawn on the loop's live line: it is called there, not in the write's
    thread."""
    db = tmp_path / "cup.sqlite"
    called: list[int] = []
    with Store(db, 5.0, lambda seconds: called.append(threading.get_ident())) as store:
        held = threading.Event()
        holder = threading.Thread(target=_hold_lock, args=(db, held, 1.3))
        holder.start()
        held.wait()
        asyncio.run(written_apart(store, lambda apart: apart.beat(1, 1.0)))
        holder.join()
    assert called == [threading.get_ident()]


def test_a_database_deleted_during_a_run_is_not_made_again_empty(tmp_path: Path) -> None:
    """A write apart opens the file anew: one deleted meanwhile is named in a
    StoreError, not created again without its tables (SQLite's "no such
    table", a traceback)."""
    db = tmp_path / "cup.sqlite"
    with Store(db) as store:
        db.unlink()
        with pytest.raises(StoreError, match=r"cannot write .*cup\.sqlite"):
            asyncio.run(written_apart(store, lambda apart: apart.beat(1, 1.0)))
    assert not db.exists()
