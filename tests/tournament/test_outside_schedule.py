"""A gauntlet rates stored games its schedule does not play (the field's round
robin before it, a former candidate's games): the report's "played/scheduled"
counts the schedule's own games, as `run`'s "N/M done" does, and one line
says how many more it rates. It once read "12/8 games" beside "8/8 done"."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

from tests.tournament.stored_records import two_seat_record
from tournament.config import TournamentConfig, load_config
from tournament.report import report
from tournament.runner import ladder_stages, open_tournament, schedule_for
from tournament.store import Store


def _config(tmp_path: Path, bots: list[str], gauntlet: list[str] | None = None) -> TournamentConfig:
    path = tmp_path / "cup.toml"
    schedule = f'schedule = "gauntlet"\ncandidates = {json.dumps(gauntlet)}\n' if gauntlet else ""
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\ngames_per_pairing = 2\nseed = 1\n'
        f"bootstrap = 20\n{schedule}[options]\nrounds = 1\n"
        + "".join(f'[[bots]]\nname = "{bot}"\nbuiltin = "random"\n' for bot in bots)
    )
    return load_config(path)


def _run(store: Store, config: TournamentConfig) -> int:
    """Open the tournament for `config`, as a run does, and store every game
    of its schedule not stored yet; the schedule's length."""
    stages = ladder_stages(store, config)
    schedule = schedule_for(config, stages)
    tid = open_tournament(store, config, len(schedule), stages)
    done = store.done_keys(tid)
    for scheduled in schedule:
        if scheduled.key not in done:
            store.record_game(tid, two_seat_record(scheduled))
    return len(schedule)


def test_a_gauntlet_after_a_round_robin_counts_its_own_games(tmp_path: Path) -> None:
    db = tmp_path / "cup.sqlite"
    with Store(db) as store:
        assert _run(store, _config(tmp_path, ["a", "b"])) == 4
        assert _run(store, _config(tmp_path, ["a", "b", "c"], gauntlet=["c"])) == 8
    data = json.loads(report(db, "json"))
    assert (data["games_played"], data["games_scheduled"]) == (8, 8)
    assert data["games_outside_schedule"] == 4
    # the field's round robin stays rated: every bot counts its 8 games
    assert {row["bot"]: row["games"] for row in data["standings"]} == {"a": 8, "b": 8, "c": 8}
    text = report(db, "text")
    assert text.splitlines()[0].endswith(", 8/8 games"), text
    (line,) = [line for line in text.splitlines() if "outside this schedule" in line]
    assert line == "Also rated: 4 stored games outside this schedule, not counted in 8/8.", line
    assert "4 more stored games outside the schedule" in report(db, "html")


def test_a_gauntlet_whose_candidate_changes_counts_the_new_schedule(tmp_path: Path) -> None:
    """A former candidate's games against the field stay rated; its games with
    the new candidate are the new schedule's too."""
    db = tmp_path / "cup.sqlite"
    field = ["a", "b", "c", "d"]
    with Store(db) as store:
        assert _run(store, _config(tmp_path, field, gauntlet=["c"])) == 12
        assert _run(store, _config(tmp_path, field, gauntlet=["d"])) == 12
    data = json.loads(report(db, "json"))
    assert (data["games_played"], data["games_scheduled"]) == (12, 12)
    assert data["games_outside_schedule"] == 8  # c against a and b
    assert sum(row["games"] for row in data["standings"]) == 2 * 20


def test_a_round_robin_has_nothing_outside_its_schedule(tmp_path: Path) -> None:
    db = tmp_path / "cup.sqlite"
    config = _config(tmp_path, ["a", "b", "c"])
    with Store(db) as store:
        _run(store, config)
    data = json.loads(report(db, "json"))
    assert (data["games_played"], data["games_scheduled"], data["games_outside_schedule"]) == (
        12,
        12,
        0,
    )
    assert "outside this schedule" not in report(db, "text")


def test_a_stored_config_that_cannot_rebuild_its_schedule_counts_every_game(
    tmp_path: Path,
) -> None:
    """A tournament stored by a version that kept less of its config: every
    rated game counts as played, as before."""
    db = tmp_path / "cup.sqlite"
    config = _config(tmp_path, ["a", "b", "c"], gauntlet=["c"])
    with Store(db) as store:
        _run(store, dataclasses.replace(config, schedule="round-robin", candidates=()))
        _run(store, config)
        stored = store.tournaments()[0].config
        del stored["seed"]
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE tournaments SET config_json = ?", (json.dumps(stored),))
    data = json.loads(report(db, "json"))
    assert (data["games_played"], data["games_outside_schedule"]) == (12, 0)
