"""A runner's heartbeat: the web viewer's list and a tournament's page say
"running" while its runner writes it, "stopped" (since when) once the runner
ended early or its heartbeat grew old, and "finished" once every game is
played; the same word on both. Before, nothing in the database marked a runner
at work: a tournament whose runner was killed hours ago was listed
"unfinished" and its page said "running". Real runner processes, real SQLite."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.quick_cup import quick_cup
from tests.tournament.test_run_claims import _config, _finished, _held_run, tournament
from tournament import heartbeat
from tournament.heartbeat import BEAT_SECONDS, RunState, run_state
from tournament.runner import ladder_stages, open_tournament, schedule_for
from tournament.store import Store
from tournament.store_records import Heartbeat
from tournament.store_schema import MIGRATIONS
from web import reports, tournaments
from web.tournament_routes import _listed

pytestmark = pytest.mark.e2e


def _states(db: Path) -> tuple[RunState, RunState]:
    """Tournament 'cup' as the viewer's list says it, and as its page does."""
    (listed,), damaged = tournaments.listed_tournaments(db)
    assert not damaged and listed.record.name == "cup"

    async def run(function: Any, *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    page = asyncio.run(reports.ReportCache(run).get(0, db, "cup"))
    assert page.played == listed.played
    return listed.state, page.state


def _beats(db: Path) -> tuple[float, float, float | None]:
    with closing(sqlite3.connect(db)) as raw:
        row = raw.execute("SELECT started_at, beat_at, ended_at FROM runners").fetchone()
    return row[0], row[1], row[2]


def test_a_killed_runner_is_stopped_once_its_heartbeat_is_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "cups.sqlite"
    with _held_run(tmp_path, "run", str(_config(tmp_path, "cup", 2)), "--no-report") as runner:
        assert _states(db) == (RunState("running"), RunState("running"))
        started, beat, ended = _beats(db)
        deadline = time.monotonic() + BEAT_SECONDS + 20
        while beat == started:  # it beats while its game is held
            assert time.monotonic() < deadline, "no heartbeat after the first"
            time.sleep(0.2)
            started, beat, ended = _beats(db)
        assert ended is None
        runner.send_signal(signal.SIGKILL)
        _finished(runner)
    assert runner.returncode == -signal.SIGKILL
    _, last, ended = _beats(db)
    assert ended is None, "a killed runner writes nothing more"
    # Not yet old: a runner waiting for a lock misses a beat or two.
    assert _states(db) == (RunState("running"), RunState("running"))
    # FRESH_SECONDS after its last heartbeat, as a viewer would find it then.
    monkeypatch.setattr(heartbeat, "FRESH_SECONDS", 0.5)
    time.sleep(max(0.0, last + 0.6 - time.time()))
    assert _states(db) == (RunState("stopped", last), RunState("stopped", last))
    assert RunState("stopped", last).text().startswith("stopped since ")


def test_a_run_stopped_by_ctrl_c_is_stopped_at_once_and_a_full_one_finished(
    tmp_path: Path,
) -> None:
    db = tmp_path / "cups.sqlite"
    config = str(_config(tmp_path, "cup", 2))
    with _held_run(tmp_path, "run", config, "--no-report") as runner:
        runner.send_signal(signal.SIGINT)
        _finished(runner)
    assert runner.returncode == 130
    _, last, ended = _beats(db)
    assert ended is not None and ended == last
    assert _states(db) == (RunState("stopped", ended), RunState("stopped", ended))
    done = tournament("run", config, "--no-report", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _states(db) == (RunState("finished"), RunState("finished"))
    # Its games forgotten, the tournament is to be played again: stopped.
    forget = tournament("forget", "gate", "--db", str(db))
    assert forget.returncode == 0, forget.stderr
    assert _states(db)[0].word == "stopped"


def _played_and_edited(tmp_path: Path, *edits: str) -> Path:
    """A two-player cup played to its end, then its database edited by hand
    (`edits`, SQL) to a tournament with 8 games scheduled: stopped, not finished."""
    db = tmp_path / "cups.sqlite"
    config = str(_config(tmp_path, "cup", 2))
    done = tournament("run", config, "--no-report", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with closing(sqlite3.connect(db)) as raw, raw:
        for edit in (*edits, "UPDATE tournaments SET scheduled = 8"):
            raw.execute(edit)
    return db


def test_a_database_written_before_heartbeats_reads_as_no_runner(tmp_path: Path) -> None:
    """An older database is read as it is (the viewer never upgrades one): no
    runners table is no runner, stopped since its newest game."""
    db = _played_and_edited(
        tmp_path,
        "DROP TABLE runners",
        "DROP TABLE games_in_play",
        "UPDATE schema_version SET version = 4",
    )
    with closing(sqlite3.connect(db)) as raw:
        (newest,) = raw.execute("SELECT MAX(finished_at) FROM games").fetchone()
    assert _states(db) == (RunState("stopped", newest), RunState("stopped", newest))
    with Store(db) as store:  # a runner's open upgrades it
        assert store.version == len(MIGRATIONS) and store.heartbeats() == {}


def test_the_state_rule_in_one_place() -> None:
    """run_state, which the list and the page both call: a fresh heartbeat is
    running whatever the count; an SPRT over before its game limit is
    finished with games left; an old heartbeat is stopped since it beat."""
    beat = Heartbeat("tournament sprt", 100.0, 200.0, None, False)
    assert run_state(10, 4, beat, 150.0, now=210.0) == RunState("running")
    assert run_state(10, 4, beat, 150.0, now=200.0 + heartbeat.FRESH_SECONDS + 1) == RunState(
        "stopped", 200.0
    )
    assert run_state(10, 10, beat, 150.0, now=1e9) == RunState("finished")
    decided = Heartbeat("tournament sprt", 100.0, 250.0, 250.0, True)
    assert run_state(10, 4, decided, 150.0, now=260.0) == RunState("finished")
    ended = Heartbeat("tournament run", 100.0, 250.0, 250.0, False)
    assert run_state(10, 4, ended, 150.0, now=260.0) == RunState("stopped", 250.0)
    assert run_state(10, 4, None, 150.0, now=260.0) == RunState("stopped", 150.0)
    assert RunState("stopped", 0.0).text() == "stopped since 1970-01-01 00:00 UTC"
    assert RunState("running").text() == "running"


@pytest.mark.parametrize("since", [1e300, float("inf"), -1e20])
def test_a_time_no_calendar_holds_reads_as_stopped(since: float) -> None:
    """A runners row or a game's time edited by hand past any date once made
    the list and the page fail (gmtime's OverflowError): it reads "stopped"."""
    assert RunState("stopped", since).text() == "stopped"


def test_a_runner_row_edited_past_any_date_leaves_the_list_and_the_page_readable(
    tmp_path: Path,
) -> None:
    db = _played_and_edited(tmp_path, "UPDATE runners SET beat_at = 1e300, ended_at = 1e300")
    listed, page = _states(db)
    assert listed == page == RunState("stopped", 1e300)
    (entry,) = _listed(0, db)["tournaments"]
    assert (entry["state"], entry["state_text"]) == ("stopped", "stopped")


def _hold_lock(db: Path, held: threading.Event, seconds: float) -> None:
    """Another writer: the database's write lock held for `seconds`."""
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        held.set()
        time.sleep(seconds)
        other.execute("COMMIT")


async def tick(lags: list[float]) -> None:
    """How late each 10 ms sleep of the loop wakes, into `lags`, until
    cancelled: a loop that stood still shows."""
    while True:
        started = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(time.monotonic() - started - 0.01)


def test_a_heartbeat_waiting_for_the_database_does_not_hold_up_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding the database's write lock (another tournament's
    runner storing a game in the same file) held each heartbeat, written on the
    run's event loop, for as long as it held the lock: the loop that plays the
    games (and, for a run without --server, hosts the server) stood still. The
    beats still come once the lock is let go."""
    monkeypatch.setattr(heartbeat, "BEAT_SECONDS", 0.1)
    config = quick_cup(tmp_path)
    db = tmp_path / "cup.sqlite"
    lags: list[float] = []

    async def run(store: Store, tid: int) -> tuple[float, float]:
        ticking = asyncio.create_task(tick(lags))
        async with heartbeat.beating(store, tid, "tournament run"):
            held = threading.Event()
            holder = threading.Thread(target=_hold_lock, args=(db, held, 0.6))
            holder.start()
            held.wait()
            await asyncio.to_thread(holder.join)  # beats wait for the lock meanwhile
            released = time.time()
            await asyncio.sleep(0.5)
            _, beat_at, ended_at = _beats(db)
            assert ended_at is None
        ticking.cancel()
        return released, beat_at

    with Store(db) as store:
        stages = ladder_stages(store, config)
        tid = open_tournament(store, config, len(schedule_for(config, stages)), stages)
        released, beat_at = asyncio.run(run(store, tid))
    assert max(lags) < 0.3, f"the loop stood still {max(lags):.2f} s"
    assert beat_at > released
