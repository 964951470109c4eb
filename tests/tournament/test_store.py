"""The SQLite store: schema version, one row per game, resume keys, safety checks."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.tournament.stored_records import finished_record
from tournament.outcome import forfeit_ranks
from tournament.schedule import ScheduledGame, make_schedule
from tournament.store import GameRecord, Store, StoreError
from tournament.store_schema import MIGRATIONS


def _record(scheduled, crashed=None, strikes=(0, 0), disqualified=(False, False)):
    return finished_record(
        scheduled,
        [10.0, 7.0],
        [1, 2],
        match_id="m1",
        crashed=crashed,
        strikes=strikes,
        disqualified=disqualified,
    )


def test_games_are_stored_once_and_read_back(tmp_path: Path) -> None:
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        assert store.version == len(MIGRATIONS)
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        assert store.record_game(tid, _record(schedule[0]))
        assert not store.record_game(tid, _record(schedule[0]))  # same key: refused
        assert store.done_keys(tid) == {schedule[0].key}
    with Store(db) as again:
        (game,) = again.games(again.tournament("cup").id)
        assert game.bots == schedule[0].seats and game.scores == (10.0, 7.0)
        assert game.ranks == (1, 2)
    mode = sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_resuming_with_another_game_or_options_is_refused(tmp_path: Path) -> None:
    with Store(tmp_path / "t.sqlite") as store:
        store.open_tournament("cup", "sheep-showdown", 2, {"rounds": "1"}, None, 4, {})
        with pytest.raises(StoreError, match=r"^options"):
            store.open_tournament("cup", "sheep-showdown", 2, {"rounds": "3"}, None, 4, {})
        with pytest.raises(StoreError, match=r"^players"):
            store.open_tournament("cup", "sheep-showdown", 3, {"rounds": "1"}, None, 4, {})


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    Store(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="newer"):
        Store(db)


def test_failed_seats_rank_last_and_the_others_keep_their_order() -> None:
    assert forfeit_ranks([1, 2, 3], [True, False, False]) == (3, 1, 2)
    assert forfeit_ranks([1, 1, 3, 4], [False, False, True, True]) == (1, 1, 3, 3)
    schedule = make_schedule(["a", "b"], 2, 1, 1)
    crashed = _record(schedule[0], crashed={0: "exit code 1"})
    assert crashed.ranks == (2, 1) and crashed.seats[0].failure == "crash"
    late = _record(schedule[0], strikes=(1, 0))
    assert late.ranks == (2, 1) and late.seats[0].failure == "timeout"


def test_the_report_can_be_re_anchored_without_replaying(tmp_path: Path) -> None:
    """Elo differences do not depend on the anchor; only where 0 sits does."""
    from tournament.report import report

    schedule = make_schedule(["a", "b"], 2, 4, 1)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, "a", len(schedule), {})
        for scheduled in schedule:
            store.record_game(tid, _record(scheduled))
    import json

    def elo(anchor: str | None) -> dict[str, float]:
        data = json.loads(report(db, "json", samples=50, anchor=anchor))
        return {row["bot"]: row["elo"] for row in data["standings"]}

    own, by_b, by_mean = elo(None), elo("b"), elo("mean")
    assert own["a"] == 0 and by_b["b"] == 0
    assert abs(sum(by_mean.values())) < 1e-6
    assert own["a"] - own["b"] == pytest.approx(by_b["a"] - by_b["b"])
    with pytest.raises(ValueError, match="not a bot"):
        report(db, "json", anchor="c")


def test_a_report_whose_anchor_has_no_game_is_anchored_at_the_mean(tmp_path: Path) -> None:
    """The config's anchor forgotten (or not yet played): the report used to end
    in "tuple.index(x): x not in tuple"; it now says why 0 is the mean."""
    import json

    from tournament.report import report

    schedule = [s for s in make_schedule(["a", "b", "c"], 2, 2, 1) if "a" not in s.seats]
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, "a", len(schedule), {})
        for scheduled in schedule:
            store.record_game(tid, _record(scheduled))
    data = json.loads(report(db, "json", samples=50))
    assert data["anchor"] is None and data["anchor_without_games"] == "a"
    assert abs(sum(row["elo"] for row in data["standings"])) < 1e-6
    assert "mean 0 (the anchor a has no game stored)" in report(db, "text", samples=50)


def _solo_game(scheduled: ScheduledGame, score: float, crashed: bool = False) -> GameRecord:
    """A finished solo game as the runner stores it."""
    return finished_record(scheduled, [score], [1], crashed={0: "exit code 1"} if crashed else {})


def _solo_database(
    tmp_path: Path, bots: list[str], seeds: int, game: Callable[[ScheduledGame], GameRecord]
) -> Path:
    """A solo tournament of `bots` on `seeds` deals from seed 100, each game `game(scheduled)`."""
    schedule = make_schedule(bots, 1, seeds, 100)
    db = tmp_path / "solo.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("solo", "stubborn-sheep", 1, {}, None, len(schedule), {})
        for scheduled in schedule:
            store.record_game(tid, game(scheduled))
    return db


def test_a_solo_report_gives_each_bot_its_lead_on_the_next_on_the_same_seeds(
    tmp_path: Path,
) -> None:
    """Deals swing every bot's score far more than the bots differ, so the
    means' intervals overlap; the paired lead on the same seeds does not."""
    import json

    from tournament.report import report

    deal = {seed: 40.0 * ((seed * 7919) % 11) for seed in range(100, 110)}
    offset = {"a": 3.0, "b": 1.0, "c": 0.0}

    def game(scheduled: ScheduledGame) -> GameRecord:
        (bot,) = scheduled.seats
        wobble = 0.1 * (scheduled.seed % 3)
        return _solo_game(scheduled, deal[scheduled.seed] + offset[bot] + wobble)

    db = _solo_database(tmp_path, ["a", "b", "c"], len(deal), game)
    rows = {row["bot"]: row for row in json.loads(report(db, "json"))["standings"]}
    assert [rows[b]["rank"] for b in "abc"] == [1, 2, 3]
    assert rows["a"]["mean_score_low"] < rows["b"]["mean_score_high"]  # means overlap
    assert rows["a"]["lead_next"] == pytest.approx(2.0)
    assert rows["a"]["lead_next_low"] == rows["a"]["lead_next_high"] == pytest.approx(2.0)
    assert rows["b"]["lead_next"] == pytest.approx(1.0)
    assert rows["c"]["lead_next"] is None
    assert "+2.0 [+2.0, +2.0]" in report(db, "text")


def test_a_solo_lead_is_taken_on_the_seeds_both_bots_played_only(tmp_path: Path) -> None:
    """A run cut short: a played seeds 100 to 103, b only 100 and 101. a scores
    its deal + 3 everywhere and + 50 more on the two seeds b lacks; b scores its
    deal + 1. The lead is on the shared seeds alone: 2.0 on each, so +2.0, not
    what a's extra seeds add (nor a KeyError for a seed b never played)."""
    import json

    from tournament.report import report

    deal = {100: 7.0, 101: 19.0, 102: 3.0, 103: 11.0}
    schedule = make_schedule(["a", "b"], 1, len(deal), 100)
    db = tmp_path / "cut.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("solo", "stubborn-sheep", 1, {}, None, len(schedule), {})
        for scheduled in schedule:
            (bot,) = scheduled.seats
            if bot == "b" and scheduled.seed >= 102:
                continue
            extra = 50.0 if scheduled.seed >= 102 else 0.0
            score = deal[scheduled.seed] + (3.0 + extra if bot == "a" else 1.0)
            store.record_game(tid, _solo_game(scheduled, score))
    rows = {row["bot"]: row for row in json.loads(report(db, "json"))["standings"]}
    assert (rows["a"]["rank"], rows["b"]["rank"]) == (1, 2)
    assert rows["a"]["lead_next"] == pytest.approx(2.0)
    assert rows["a"]["lead_next_low"] == rows["a"]["lead_next_high"] == pytest.approx(2.0)


def test_a_path_that_cannot_hold_a_database_is_one_store_error(tmp_path: Path) -> None:
    """Each once an sqlite3 error ("unable to open database file") or an OSError."""
    folder = tmp_path / "results"
    folder.mkdir()
    with pytest.raises(StoreError, match=r"results is a folder, not a database file$"):
        Store(folder)
    with pytest.raises(StoreError, match=r"^/dev/null is not a regular file"):
        Store("/dev/null")
    notes = tmp_path / "notes.txt"
    notes.write_text("text\n")
    with pytest.raises(StoreError, match=r"notes.txt is not a folder$"):
        Store(notes / "t.sqlite")
    with pytest.raises(StoreError, match=r"^cannot use x+: File name too long$"):
        Store("x" * 5000)
    Store(tmp_path / "new" / "folders" / "t.sqlite").close()  # missing folders are made


def test_a_migration_that_fails_reports_its_own_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some errors (disk full, I/O) end the transaction themselves: the ROLLBACK
    after them failed too ("cannot rollback - no transaction is active"), and
    that was all the message said."""
    import tournament.store_open

    monkeypatch.setattr(tournament.store_open, "MIGRATIONS", ("ROLLBACK; CREATE TABLE broken (",))
    with pytest.raises(StoreError) as raised:
        Store(tmp_path / "t.sqlite")
    assert "incomplete input" in str(raised.value)
    assert "cannot rollback" not in str(raised.value)


def test_a_failed_solo_game_counts_the_deals_lowest_score() -> None:
    """Solo, a failed seat is ranked last on its deal: its random stand-in's
    score is replaced by the lowest any bot made on that deal."""
    from tournament.outcome import solo_scores
    from tournament.store import SeatRecord

    def solo(bot: str, seed: int, score: float, failure: str | None = None) -> GameRecord:
        seat = SeatRecord(bot, score, 1, 1, 0, False, failure)
        return GameRecord(f"{seed}:{bot}", "m", seed, 0, 0, (seat,), "done", "{}", 1.0, 0.0)

    games = [
        solo("a", 1, 30.0, "crash"),
        solo("b", 1, 12.0),
        solo("c", 1, 20.0),
        solo("a", 2, 3.0, "crash"),
        solo("b", 2, 8.0),
    ]
    assert solo_scores(games) == {
        ("1:a", "a"): 12.0,
        ("1:b", "b"): 12.0,
        ("1:c", "c"): 20.0,
        ("2:a", "a"): 3.0,
        ("2:b", "b"): 8.0,
    }


def test_a_solo_report_ranks_a_bot_by_what_it_scored_not_its_stand_ins(
    tmp_path: Path,
) -> None:
    """Bot a crashed on both deals, where its random stand-in outscored bot b:
    the report ranks a below b, at the deals' lowest scores."""
    import json

    from tournament.report import report

    def game(scheduled: ScheduledGame) -> GameRecord:
        (bot,) = scheduled.seats
        score = 50.0 if bot == "a" else 10.0 + scheduled.seed % 2
        return _solo_game(scheduled, score, crashed=bot == "a")

    db = _solo_database(tmp_path, ["a", "b"], 2, game)
    rows = {row["bot"]: row for row in json.loads(report(db, "json"))["standings"]}
    assert (rows["b"]["rank"], rows["a"]["rank"]) == (1, 2)
    assert rows["a"]["mean_score"] == rows["b"]["mean_score"] == pytest.approx(10.5)
    assert rows["a"]["crashes"] == 2


def test_a_solo_report_of_one_seed_claims_no_interval(tmp_path: Path) -> None:
    """One game per bot gave "11.0 [11.0, 11.0]" and a lead "+11.0 [+11.0, +11.0]":
    certainty from a single deal. There is no interval from one value."""
    import json

    from tournament.report import report

    db = _solo_database(
        tmp_path,
        ["a", "b"],
        1,
        lambda scheduled: _solo_game(scheduled, 11.0 if scheduled.seats == ("a",) else 0.0),
    )
    rows = {row["bot"]: row for row in json.loads(report(db, "json"))["standings"]}
    assert (rows["a"]["mean_score"], rows["a"]["mean_score_low"]) == (11.0, None)
    assert (rows["a"]["lead_next"], rows["a"]["lead_next_low"]) == (11.0, None)
    text = report(db, "text")
    assert "+11.0 (one seed)" in text and "[11.0, 11.0]" not in text
    html = report(db, "html")
    assert "11.0 (one game)" in html and "[11.0, 11.0]" not in html
    assert 'data-bot="a" data-value="11.0">' in html, "no data-low/data-high for one game"


def test_a_failed_seat_in_a_game_of_two_counts_the_tables_lowest_score(
    tmp_path: Path,
) -> None:
    """Bot a crashed in every game, and its random stand-in outscored b (10 to
    7): a's mean score is the table's lowest, 7, never the stand-in's 10."""
    import json

    from tournament.report import report

    schedule = make_schedule(["a", "b"], 2, 2, 1)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        for scheduled in schedule:
            crashed = {scheduled.seats.index("a"): "exit code 1"}
            record = finished_record(
                scheduled,
                [10.0 if bot == "a" else 7.0 for bot in scheduled.seats],
                [1 if bot == "a" else 2 for bot in scheduled.seats],
                crashed=crashed,
            )
            store.record_game(tid, record)
    rows = {row["bot"]: row for row in json.loads(report(db, "json", samples=20))["standings"]}
    assert rows["a"]["crashes"] == len(schedule)
    assert (rows["b"]["rank"], rows["a"]["rank"]) == (1, 2)
    assert rows["a"]["mean_score"] == rows["b"]["mean_score"] == pytest.approx(7.0)


@pytest.mark.parametrize("opener", ["read-write", "read-only"])
def test_another_programs_tables_named_tournaments_are_left_untouched(
    tmp_path: Path, opener: str
) -> None:
    """Every sheepfold database has `schema_version` beside `tournaments`. A file
    with a `tournaments` table but none is another program's (another tournament
    tool's): opening it once switched it to WAL and stopped with "cannot use ...:
    table tournaments already exists", and read alone it was "written by an older
    sheepfold", to be upgraded by a report."""
    from tournament.store_read import open_read_only

    path = tmp_path / "theirs.sqlite"
    with sqlite3.connect(path) as theirs:
        theirs.execute("CREATE TABLE tournaments (title TEXT)")
        theirs.execute("CREATE TABLE games (white TEXT, black TEXT)")
    theirs.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a tournament database: it is another program's"):
        (Store if opener == "read-write" else open_read_only)(path)
    assert path.read_bytes() == before
    with sqlite3.connect(path) as theirs:
        assert theirs.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    theirs.close()
