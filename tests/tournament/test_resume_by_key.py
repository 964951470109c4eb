"""A resume plays exactly the scheduled games whose keys are not stored, wherever
they fall in the schedule: a run stopped with several games at once leaves
holes, not a prefix, and a resume that counted the stored games and played the
rest of the schedule would lose the holes and play stored games again."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.tournament.quick_cup import Recorder, quick_cup
from tournament.runner import run_tournament, schedule_for
from tournament.store import Store

pytestmark = pytest.mark.e2e


def test_a_resume_plays_the_missing_games_wherever_they_are_in_the_schedule(
    tmp_path: Path,
) -> None:
    config = quick_cup(tmp_path, 2, concurrency=2)
    db = tmp_path / "cup.sqlite"
    schedule = schedule_for(config)
    first = run_tournament(config, database=str(db), progress=Recorder())
    assert first.played == first.done == len(schedule) == 4
    # The first and third games lost, as a run stopped mid-way may leave them.
    holes = [schedule[0].key, schedule[2].key]
    with closing(sqlite3.connect(db)) as raw, raw:
        ids = [raw.execute("SELECT id FROM games WHERE key = ?", (k,)).fetchone() for k in holes]
        raw.executemany("DELETE FROM game_seats WHERE game_id = ?", ids)
        raw.executemany("DELETE FROM game_replays WHERE game_id = ?", ids)
        raw.executemany("DELETE FROM games WHERE id = ?", ids)
    progress = Recorder()
    resumed = run_tournament(config, database=str(db), progress=progress)
    assert sorted(progress.keys) == sorted(holes)
    assert (resumed.already_done, resumed.played, resumed.done) == (2, 2, 4)
    with Store(db) as store:
        assert store.done_keys(store.tournament("cup").id) == {game.key for game in schedule}
