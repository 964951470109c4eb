"""The games a runner is playing now, in the `games_in_play` table the web
viewer's "Now playing" reads: a row once a game's match is created, gone when
the game is stored (in the same commit), when the runner ends, and when a
runner resumes the tournament after one was killed. Before, the database held
only finished games, and a spectator could not find the games being played."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import structlog

from tests.tournament.quick_cup import Recorder, cup_runner, quick_cup
from tests.tournament.stored_records import finished_record, two_seat_record
from tests.tournament.test_heartbeat import _hold_lock
from tests.tournament.test_run_claims import _config, _finished, _held_run
from tournament import batch_play
from tournament.game_play import GamePlayer, PlayedGame
from tournament.heartbeat import beating
from tournament.schedule import ScheduledGame, make_schedule
from tournament.store import InPlay, Store
from tournament.store_read import read_store
from tournament.store_schema import MIGRATIONS


def _cup(db: Path) -> tuple[Store, int, tuple[ScheduledGame, ...]]:
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    store = Store(db)
    tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
    return store, tid, schedule


def _in_play(scheduled: ScheduledGame, match_id: str = "m1") -> InPlay:
    return InPlay(scheduled.key, match_id, tuple(scheduled.seats), "", 100.0)


def test_a_game_is_in_play_from_its_match_until_it_is_stored(tmp_path: Path) -> None:
    store, tid, schedule = _cup(tmp_path / "t.sqlite")
    with store:
        store.start_run(tid, "run", 99.0)
        store.game_in_play(tid, _in_play(schedule[0], "m1"))
        store.game_in_play(tid, _in_play(schedule[1], "m2"))
        assert store.games_in_play(tid) == (
            _in_play(schedule[0], "m1"),
            _in_play(schedule[1], "m2"),
        )
        assert store.record_game(
            tid, finished_record(schedule[0], [1.0, 0.0], [1, 2], match_id="m1")
        )
        assert store.games_in_play(tid) == (_in_play(schedule[1], "m2"),)
        store.game_not_in_play(tid, schedule[1].key)  # given up (rejected)
        assert store.games_in_play(tid) == ()


def test_the_runners_end_and_a_resume_clear_its_games_in_play(tmp_path: Path) -> None:
    store, tid, schedule = _cup(tmp_path / "t.sqlite")
    with store:
        other = store.open_tournament("other", "sheep-showdown", 2, {}, None, 4, {})
        store.game_in_play(other, _in_play(schedule[0], "x"))
        store.start_run(tid, "run", 99.0)
        store.game_in_play(tid, _in_play(schedule[0]))
        store.beat(tid, 101.0)  # a beat alone clears nothing
        assert store.games_in_play(tid) == (_in_play(schedule[0]),)
        store.beat(tid, 102.0, ended=True)
        assert store.games_in_play(tid) == ()
        # A runner killed (SIGKILL) leaves its rows: the next run's start clears them.
        store.start_run(tid, "run", 103.0)
        store.game_in_play(tid, _in_play(schedule[1]))
        store.start_run(tid, "run", 104.0)
        assert store.games_in_play(tid) == ()
        assert store.games_in_play(other) == (_in_play(schedule[0], "x"),)  # not its own


def test_a_version_5_database_reads_as_no_game_in_play(tmp_path: Path) -> None:
    """The viewer reads an older database as it is, without upgrading it."""
    db = tmp_path / "t.sqlite"
    store, tid, _ = _cup(db)
    store.close()
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("DROP TABLE games_in_play")
        raw.execute("UPDATE schema_version SET version = 5")
    assert read_store(db, lambda store: (store.version, store.games_in_play(tid))) == (5, ())
    with closing(sqlite3.connect(db)) as raw:
        (version,) = raw.execute("SELECT version FROM schema_version").fetchone()
    assert version == 5 < len(MIGRATIONS)
    with Store(db) as upgraded:  # a runner's open upgrades it
        assert upgraded.version == len(MIGRATIONS) and upgraded.games_in_play(tid) == ()


def test_a_row_edited_into_nonsense_is_left_out(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    store, tid, schedule = _cup(db)
    with store:
        store.game_in_play(tid, _in_play(schedule[0]))
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute(
            "INSERT INTO games_in_play VALUES (?, 'k', 'm', '{\"no\": 1}', '', 1.0)", (tid,)
        )
    assert read_store(db, lambda store: store.games_in_play(tid)) == (_in_play(schedule[0]),)


def _rows(db: Path) -> list[tuple[str, str, str, str]]:
    with closing(sqlite3.connect(db)) as raw:
        return raw.execute("SELECT key, match_id, seats_json, node FROM games_in_play").fetchall()


def test_a_run_records_its_game_in_play_and_clears_it(tmp_path: Path) -> None:
    """A real runner, held in its first game: the game is in play with its
    match; once the run is over nothing is. Killed (SIGKILL) in a game, the
    runner leaves its row, which the resume's start clears."""
    db = tmp_path / "cups.sqlite"
    config = str(_config(tmp_path, "cup", 2))
    with _held_run(tmp_path, "run", config, "--no-report") as runner:
        # Held in its game, asked for a move: its match is created.
        ((key, match_id, seats, node),) = _rows(db)
        assert match_id and node == "" and sorted(json.loads(seats)) == ["gate", "quick"]
    _finished(runner)
    assert _rows(db) == []
    with closing(sqlite3.connect(db)) as raw:
        assert raw.execute("SELECT COUNT(*) FROM games WHERE key = ?", (key,)).fetchone() == (1,)

    config = str(_config(tmp_path, "cup", 4))
    (tmp_path / "asked").unlink()
    with _held_run(tmp_path, "run", config, "--no-report") as runner:
        runner.send_signal(signal.SIGKILL)
        runner.communicate()
    (stale,) = _rows(db)  # left by the killed runner
    (tmp_path / "asked").unlink()
    with _held_run(tmp_path, "run", config, "--no-report") as runner:
        # Held in its game, asked for a move: its start cleared the stale row.
        (row,) = _rows(db)
        assert row[1] != stale[1]
    _finished(runner)
    assert _rows(db) == []


class _InPlayThenDone(GamePlayer):
    """Each game's match is created (the runner told of it), then the game is
    over at once, 10 to 7; a game whose key is in `timing_out` times out."""

    timing_out: frozenset[str] = frozenset()

    async def play(self, stub: Any, scheduled: ScheduledGame) -> PlayedGame:
        assert self.on_match is not None
        await self.on_match(scheduled, f"m-{scheduled.key}")
        if scheduled.key in self.timing_out:
            raise TimeoutError(f"match m-{scheduled.key} did not finish")
        return two_seat_record(scheduled, match_id=f"m-{scheduled.key}"), None, {}


def _runner(tmp_path: Path, store: Store, timing_out: frozenset[str] = frozenset()) -> Any:
    runner, schedule = cup_runner(quick_cup(tmp_path), store, Recorder(), _InPlayThenDone)
    object.__setattr__(runner.player, "timing_out", timing_out)
    runner.player = replace(runner.player, on_match=runner.in_play)
    return runner, schedule


def test_an_in_play_write_the_database_refuses_does_not_fail_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the lock past the in-play row's short wait: the
    row is skipped, the game played and stored all the same."""
    monkeypatch.setattr(batch_play, "IN_PLAY_WAIT_SECONDS", 0.1)
    db = tmp_path / "cup.sqlite"

    async def run(runner: Any, game: ScheduledGame) -> None:
        held = threading.Event()
        holder = threading.Thread(target=_hold_lock, args=(db, held, 0.6))
        holder.start()
        held.wait()
        await runner._play(None, game)
        await asyncio.to_thread(holder.join)

    with Store(db) as store:
        runner, schedule = _runner(tmp_path, store)
        asyncio.run(run(runner, schedule[0]))
        assert runner.played == 1 and runner.errors == 0
        assert store.done_keys(runner.tournament_id) == {schedule[0].key}
        assert store.games_in_play(runner.tournament_id) == ()


def test_a_game_given_up_is_no_longer_in_play(tmp_path: Path) -> None:
    db = tmp_path / "cup.sqlite"
    with Store(db) as store:
        runner, schedule = _runner(tmp_path, store)
        lost = schedule[0].key
        object.__setattr__(runner.player, "timing_out", frozenset({lost}))
        asyncio.run(runner._play(None, schedule[0]))
        assert runner.errors == 1 and runner.played == 0
        assert store.games_in_play(runner.tournament_id) == ()
        asyncio.run(runner._play(None, schedule[1]))
        assert runner.played == 1 and store.games_in_play(runner.tournament_id) == ()


def test_a_row_whose_write_a_stopped_run_left_waiting_does_not_outlive_its_end(
    tmp_path: Path,
) -> None:
    """Ctrl-C while a game's in-play row waits for another process's lock: the
    write went on in its thread after the run had cleared the rows at its end,
    and the row stayed, listed under "Now playing" until the next run."""
    db = tmp_path / "cup.sqlite"
    with Store(db) as store:
        runner, schedule = _runner(tmp_path, store)
        tid = runner.tournament_id

        async def stopped_as_its_row_waits() -> None:
            async with beating(store, tid, "tournament run"):
                held = threading.Event()
                holder = threading.Thread(target=_hold_lock, args=(db, held, 0.6))
                holder.start()
                held.wait()
                playing = asyncio.create_task(runner.in_play(schedule[0], "m1"))
                await asyncio.sleep(0.3)  # its write waits for the lock
                playing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await playing
                await asyncio.to_thread(holder.join)  # the run ends as the lock is let go

        asyncio.run(stopped_as_its_row_waits())  # its threads' writes done
        assert store.games_in_play(tid) == ()


def test_a_stopped_run_waits_only_for_the_in_play_writes_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while more games' in-play rows wait for another process's lock
    than there are threads to write them: those not begun waited their turn
    for a thread, then the lock's whole wait each, and a stop meant to wait
    IN_PLAY_WAIT_SECONDS once took it again for every few games (16 games on
    2 cores, 5.7 s). A write not begun when the run stopped is not made."""
    monkeypatch.setattr(batch_play, "IN_PLAY_WAIT_SECONDS", 0.3)
    db = tmp_path / "cup.sqlite"
    threads, games = 2, 6
    with Store(db) as store:
        runner, schedule = _runner(tmp_path, store)

        async def stopped_as_its_rows_wait() -> None:
            asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(threads))
            held, let_go = threading.Event(), threading.Event()

            def hold_lock() -> None:
                with closing(sqlite3.connect(db, isolation_level=None)) as other:
                    other.execute("BEGIN IMMEDIATE")
                    held.set()
                    let_go.wait()
                    other.execute("COMMIT")

            holder = threading.Thread(target=hold_lock)
            holder.start()
            held.wait()
            playing = [
                asyncio.create_task(runner.in_play(replace(schedule[0], key=f"g{i}"), f"m{i}"))
                for i in range(games)
            ]
            await asyncio.sleep(0.1)  # the first writes wait for the lock
            for task in playing:
                task.cancel()
            await asyncio.wait(playing)
            let_go.set()
            await asyncio.to_thread(holder.join)

        with structlog.testing.capture_logs() as logs:
            asyncio.run(stopped_as_its_rows_wait())
        waited = [log for log in logs if log["event"] == "games in play not written"]
        assert len(waited) <= threads, waited
        assert store.games_in_play(runner.tournament_id) == ()
