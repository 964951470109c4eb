"""The games a runner is playing now, in the `games_in_play` table the web
viewer's "Now playing" reads: a row once a game's match is created, gone when
the game is stored (in the same commit), when the runner ends, and when a
runner resumes the tournament after one was killed. Before, the database held
only finished games, and a spectator could not find the games being played."""

from __future__ import annotations

import json
import signal
import sqlite3
from contextlib import closing
from pathlib import Path

from tests.tournament.stored_records import finished_record
from tests.tournament.test_run_claims import _config, _finished, _held_run
from tournament.schedule import make_schedule
from tournament.store import InPlay, Store
from tournament.store_read import read_store
from tournament.store_schema import MIGRATIONS


def _cup(db: Path) -> tuple[Store, int, list]:
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    store = Store(db)
    tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
    return store, tid, schedule


def _in_play(scheduled, match_id: str = "m1") -> InPlay:
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
