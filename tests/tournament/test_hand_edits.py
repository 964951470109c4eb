"""A tournament database edited by hand between runs (with the sqlite3 shell,
whose foreign keys are off): the next run and report still count every game
once, or say in one line what is wrong."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sheepfold.v1 import arena_pb2

from tests.tournament.stored_records import two_seat_record
from tournament.report import report
from tournament.schedule import ScheduledGame, game_key, make_schedule
from tournament.store import GameRecord, Store, StoreError


def _record(scheduled: ScheduledGame, match_id: str = "m1") -> GameRecord:
    return two_seat_record(scheduled, match_id)


def test_a_game_deleted_by_hand_is_stored_again_in_place_of_its_leftovers(
    tmp_path: Path,
) -> None:
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.record_game(tid, _record(schedule[0], "m1"), arena_pb2.Replay(match_id="m1"))
        store.record_game(tid, _record(schedule[1], "m2"), arena_pb2.Replay(match_id="m2"))
    # The way a user drops a game with the sqlite3 shell: its seats and its
    # record stay behind, under the id the next game stored gets.
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM games WHERE key = ?", (schedule[1].key,))
    raw.commit()
    raw.close()
    with Store(db) as store:
        assert store.done_keys(tid) == {schedule[0].key}
        assert store.record_game(tid, _record(schedule[1], "m3"), arena_pb2.Replay(match_id="m3"))
        games = store.games(tid)
        assert [game.key for game in games] == [schedule[0].key, schedule[1].key]
        assert [len(game.seats) for game in games] == [2, 2]
        replay = store.replay("m3", tid)
        assert replay is not None and replay.match_id == "m3"


def test_a_game_whose_seats_were_deleted_by_hand_is_one_store_error(tmp_path: Path) -> None:
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.record_game(tid, _record(schedule[0], "m1"))
        store.record_game(tid, _record(schedule[1], "m2"))
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM game_seats WHERE seat = 1 AND game_id = 2")
    raw.commit()
    raw.close()
    key = schedule[1].key
    with Store(db) as store, pytest.raises(StoreError) as caught:
        store.games(tid)
    message = str(caught.value)
    assert f"game {key!r} (match m2)" in message and "1 seat of 2" in message
    assert "(DELETE FROM games WHERE id = 2 in the sqlite3 shell)" in message


def test_the_report_of_a_game_without_seats_says_which_game(tmp_path: Path) -> None:
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.record_game(tid, _record(schedule[0], "m1"))
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM game_seats")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"no seat of 2 stored"):
        report(db)


def test_a_tournament_deleted_by_hand_leaves_its_games_to_no_new_one(tmp_path: Path) -> None:
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        old = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.record_game(old, _record(schedule[0], "m1"))
    # Starting over the sqlite3 shell's way: the tournament's games stay
    # behind, under the id SQLite hands out to the next tournament.
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM tournaments WHERE name = 'cup'")
    raw.commit()
    raw.close()
    with Store(db) as store:
        for name in ("cup", "other"):
            tid = store.open_tournament(name, "sheep-showdown", 2, {}, None, len(schedule), {})
            assert store.done_keys(tid) == set()
            assert store.games(tid) == ()
            assert store.deal_range(tid) is None


@pytest.mark.parametrize(
    ("column", "text"),
    [("options_json", "{rounds: 1}"), ("config_json", "[]"), ("options_json", "null")],
)
def test_a_tournaments_settings_edited_into_no_json_object_are_one_store_error(
    tmp_path: Path, column: str, text: str
) -> None:
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        store.open_tournament("cup", "sheep-showdown", 2, {"rounds": "1"}, None, 4, {})
    raw = sqlite3.connect(db)
    raw.execute(f"UPDATE tournaments SET {column} = ?", (text,))
    raw.commit()
    raw.close()
    wanted = rf"^tournament 'cup' in .*: its {column} is not a JSON object \(edited by hand\?\)"
    with Store(db) as store:
        with pytest.raises(StoreError, match=wanted):
            store.tournaments()
        if column == "options_json":  # what a resume compares (it writes the config anew)
            with pytest.raises(StoreError, match=wanted):
                store.open_tournament("cup", "sheep-showdown", 2, {"rounds": "1"}, None, 4, {})
    with pytest.raises(StoreError, match=wanted):
        report(db)


@pytest.mark.parametrize(
    ("column", "value"), [("players", "<b>2</b>"), ("scheduled", "four"), ("scheduled", 2.5)]
)
def test_a_tournaments_count_edited_into_no_whole_number_is_one_store_error(
    tmp_path: Path, column: str, value: object
) -> None:
    """SQLite keeps text in an INTEGER column: `tournament report` stopped with
    a TypeError traceback ('>' not supported between 'int' and 'str')."""
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        store.open_tournament("cup", "sheep-showdown", 2, {"rounds": "1"}, None, 4, {})
    raw = sqlite3.connect(db)
    raw.execute(f"UPDATE tournaments SET {column} = ?", (value,))
    raw.commit()
    raw.close()
    wanted = rf"^tournament 'cup' in .*: its {column} is not a whole number \(edited by hand\?\)"
    with Store(db) as store, pytest.raises(StoreError, match=wanted):
        store.tournaments()
    with pytest.raises(StoreError, match=wanted):
        report(db)


@pytest.mark.parametrize(
    ("table", "column", "value"),
    [
        ("game_seats", "score", "<i>ten</i>"),
        ("game_seats", "rank", "first"),
        ("game_seats", "strikes", 1.5),
        ("games", "duration_seconds", "slow"),
        ("games", "finished_at", "today"),
        ("game_seats", "score", 1e999),
        ("games", "duration_seconds", 1e999),
        ("games", "finished_at", -1e999),
        ("games", "seed", 2.7),
        ("games", "grp", 2.7),
        ("games", "rotation", "-"),
    ],
)
def test_a_games_number_edited_into_nonsense_is_one_store_error(
    tmp_path: Path, table: str, column: str, value: object
) -> None:
    """`tournament report` stopped with a TypeError traceback ('<' not
    supported between 'float' and 'str') or "Unknown format code 'f' for
    object of type 'str'", and the viewer's tournament page was a 500. An
    infinite score stopped it with an AttributeError traceback (from
    statistics.stdev), and a deal, group or rotation was never checked."""
    db = tmp_path / "t.sqlite"
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.record_game(tid, _record(schedule[0]))
    raw = sqlite3.connect(db)
    raw.execute(f"UPDATE {table} SET {column} = ?", (value,))
    raw.commit()
    raw.close()
    wanted = rf"^game '{schedule[0].key}' \(match m1\) in .*: its {column} is not a "
    with Store(db) as store, pytest.raises(StoreError, match=wanted):
        store.games(tid)
    with pytest.raises(StoreError, match=wanted):
        report(db)


def test_a_game_of_an_old_bot_name_holding_a_bar_is_no_missing_seat(tmp_path: Path) -> None:
    """Names were not checked once: `a|x` against `b` is key `1:a|x|b`, two seats."""
    old = ScheduledGame(game_key(1, ("a|x", "b")), 0, 1, ("a|x", "b"), 0)
    with Store(tmp_path / "t.sqlite") as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, 2, {})
        store.record_game(tid, _record(old))
        (game,) = store.games(tid)
    assert game.bots == ("a|x", "b")


@pytest.mark.parametrize("seed", [2.7, "deal one"])
def test_a_deal_edited_into_no_whole_number_stops_a_resume_naming_its_game(
    tmp_path: Path, seed: object
) -> None:
    """A resume's deal check read the stored deals with int(): 2.7 as deal 2
    (between whole deals MIN and MAX never even see it), and a text as a
    ValueError traceback before the run began."""
    db = tmp_path / "t.sqlite"
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        for number, game in enumerate(schedule):
            store.record_game(tid, _record(game, match_id=f"m{number}"))
    raw = sqlite3.connect(db)
    raw.execute("UPDATE games SET seed = ? WHERE match_id = 'm1'", (seed,))
    raw.commit()
    raw.close()
    wanted = (
        rf"^game '{schedule[1].key}' \(match m1\) in .*: its seed is not a whole number "
        r"\(edited by hand\?\)"
    )
    with Store(db) as store, pytest.raises(StoreError, match=wanted):
        store.deal_range(tid)
