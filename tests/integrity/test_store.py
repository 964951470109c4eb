"""The SQLite store: what is written comes back, across a reopen, and the
schema version with its migrations is handled from day one."""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import games
from server import sqlite_schema
from server import store as store_module
from server.match_restore import restored_match
from server.page_tokens import Position
from server.records import ClockConfig, DamagedRecord, MatchRecord, RecordedMove, StoredMatch
from server.sqlite_schema import SCHEMA_VERSION, StoreError, migrate, schema_version
from server.sqlite_store import SqliteStore
from server.store import ANY_OVER, MemoryStore, Store


def _record(match_id: str = "m1", seed: int = 2**64 - 1, created_at: float = 1.0) -> MatchRecord:
    return MatchRecord(
        match_id=match_id,
        game="sheep-n-sheep",
        players=2,
        options={"b": "true", "a": "3"},
        seed=seed,
        clock=ClockConfig(decision_seconds=2.5, time_bank_seconds=7.0, max_strikes=4),
        token_hashes=("h0", "h1"),
        created_at=created_at,
    )


def test_a_match_and_its_moves_survive_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SqliteStore(path)
    store.create_match(_record())
    store.record_move("m1", RecordedMove(1, 0, 3, "take set 1", "", 7.0))
    store.record_move("m1", RecordedMove(2, 1, 0, "pass", "timeout", 0.0))
    store.close()

    reopened = SqliteStore(path)
    stored = reopened.load("m1")
    assert stored is not None
    assert stored.record == _record(), "every field, including a seed above 2**63, comes back"
    assert stored.moves == [
        RecordedMove(1, 0, 3, "take set 1", "", 7.0),
        RecordedMove(2, 1, 0, "pass", "timeout", 0.0),
    ]
    assert [m.record.match_id for m in reopened.unfinished()] == ["m1"]
    assert reopened.load("nope") is None
    reopened.close()


def test_finished_matches_are_not_unfinished_and_keep_their_result(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.db")
    store.create_match(_record("a", created_at=1.0))
    store.create_match(_record("b", created_at=2.0))
    store.finish_match("a", "finished", b"\x01\x02", "game over")
    assert [m.record.match_id for m in store.unfinished()] == ["b"]
    done = store.load("a")
    assert done is not None
    assert (done.status, done.result, done.end_reason) == ("finished", b"\x01\x02", "game over")
    assert [m.record.match_id for m in store.recent("", "", 10)] == ["b", "a"]
    assert [m.record.match_id for m in store.recent("", "finished", 10)] == ["a"]
    assert [m.record.match_id for m in store.recent("", ANY_OVER, 10)] == ["a"]
    assert store.recent("sheep-showdown", "", 10) == []
    store.close()


@pytest.mark.parametrize("number", [0, 3, 2**63 - 1])
def test_a_result_stored_as_a_number_is_a_damaged_row(tmp_path: Path, number: int) -> None:
    """A result column edited to hold a number, not a blob, was read as that many
    zero bytes: 0 as an empty result that parses, and 2**63 - 1 as an
    OverflowError no caller catches, which failed the whole listing."""
    path = tmp_path / "s.db"
    store = SqliteStore(path)
    for match_id, created_at in (("a", 1.0), ("b", 2.0)):
        store.create_match(_record(match_id, created_at=created_at))
        store.finish_match(match_id, "finished", b"\x01\x02", "game over")
    with sqlite3.connect(path) as edit:
        edit.execute("UPDATE matches SET result = ? WHERE match_id = 'a'", (number,))
    with pytest.raises(DamagedRecord, match="match a: its stored row is damaged"):
        store.summary("a")
    with pytest.raises(DamagedRecord, match="match a: its stored row is damaged"):
        store.load("a")
    assert [m.record.match_id for m in store.recent("", ANY_OVER, 10)] == ["b"]
    store.close()


@pytest.mark.parametrize(
    "damage",
    [
        *(
            f"{column} = {value}"
            for column in ("players", "max_strikes", "move_count", "rules_version")
            for value in ("2.7", "1e999")
        ),
        "decision_seconds = 1e999",  # inf
        "time_bank_seconds = 1e999",
        "decision_seconds = -1.5",
        "decision_seconds = 'inf'",  # a text REAL affinity keeps, which float() took
        "created_at = -1e999",
    ],
)
def test_a_fraction_or_an_endless_clock_is_a_damaged_row(tmp_path: Path, damage: str) -> None:
    """An INTEGER column edited to 2.7 was read as 2 (a match of 2.7 players
    restored as one of 2), and a decision clock edited to inf (or -1.5) was
    restored as the match's clock: each is a row no program wrote. int() of
    an infinite REAL (1e999) raised OverflowError, which once failed the
    restore of every match (and the server's start) instead of its own alone."""
    path = tmp_path / "s.db"
    store = SqliteStore(path)
    store.create_match(_record("a", created_at=1.0))
    store.create_match(_record("b", created_at=2.0))
    with sqlite3.connect(path) as edit:
        edit.execute(f"UPDATE matches SET {damage} WHERE match_id = 'a'")
    found = store.unfinished()
    assert isinstance(found[0], DamagedRecord) and found[0].match_id == "a", found[0]
    assert [m.record.match_id for m in found[1:] if not isinstance(m, DamagedRecord)] == ["b"]
    with pytest.raises(DamagedRecord, match=r"^match a: its stored row is damaged \(.+\)$"):
        store.load("a")
    assert [m.record.match_id for m in store.recent("", "", 10)] == ["b"]
    store.close()


def test_the_database_is_in_wal_mode(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "s.db").close()
    with sqlite3.connect(tmp_path / "s.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_old_database_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    """A version-1 file (before banks were recorded) opens, migrates, loses nothing."""
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    assert migrate(db, upto=1) == 1
    db.execute(
        "INSERT INTO matches VALUES ('old', 'sheep-n-sheep', 2, '{}', '5', 10.0, 0.0, 3,"
        " '[\"h0\", \"h1\"]', 1.0, 'running', NULL, '')"
    )
    db.execute("INSERT INTO moves VALUES ('old', 1, 0, 2, 'take set 3', '')")
    db.close()

    store = SqliteStore(path)
    assert store.version == SCHEMA_VERSION > 1
    stored = store.load("old")
    assert stored is not None and stored.record.seed == 5
    assert stored.moves == [RecordedMove(1, 0, 2, "take set 3", "", None)]
    summary = store.summary("old")
    assert summary is not None and summary.moves == 1, "move counts are filled in on migration"
    store.close()


def test_a_migration_that_fails_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk halfway through the schema once left its first tables (and
    schema_version) behind: the next start refused the file as another program's,
    or stopped on "duplicate column name"."""

    def full(db: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    migrations = (*sqlite_schema.MIGRATIONS[:2], full)
    monkeypatch.setattr(sqlite_schema, "MIGRATIONS", migrations)
    db = sqlite3.connect(tmp_path / "half.db", isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="full"):
        sqlite_schema.migrate(db, upto=3)
    assert not db.in_transaction
    assert db.execute("SELECT name FROM sqlite_master").fetchall() == []
    db.close()


def test_a_database_from_a_newer_server_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        assert schema_version(db) == SCHEMA_VERSION
        db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer"):
        SqliteStore(path)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_prune_deletes_old_finished_matches_only(tmp_path: Path, kind: str) -> None:
    """Both stores: by count (the newest kept), by age, in batches, never a running one."""
    from server.store import MemoryStore

    store = MemoryStore() if kind == "memory" else SqliteStore(tmp_path / "p.db")
    for i in range(6):
        store.create_match(_record(f"m{i}", created_at=float(i)))
        store.record_move(f"m{i}", RecordedMove(1, 0, 0, "x"))
        if i != 5:
            store.finish_match(f"m{i}", "finished", b"", "game over")
    assert store.prune(None, None, 100) == 0, "no retention, nothing deleted"
    assert store.prune(None, 2, 1) == 1, "at most one batch at a time"
    assert store.prune(None, 2, 100) == 2
    assert [s.record.match_id for s in store.recent("", "", 10)] == ["m5", "m4", "m3"]
    assert store.prune(time.time() + 1, None, 100) == 2, "everything finished has ended by now"
    assert [s.record.match_id for s in store.recent("", "", 10)] == ["m5"]
    assert store.load("m4") is None and store.load("m5") is not None
    store.close()


def test_a_prune_batch_by_count_costs_the_same_whatever_count_is_kept(tmp_path: Path) -> None:
    """`--keep-finished COUNT` deletes in batches of 200, on the database's one
    writer. Each batch once sorted every finished match and listed the newest
    COUNT of them to find the 200 not among them: its work grew with COUNT
    (`--keep-finished 100000` on a file of 300,000 matches: 0.13 to 0.23 s a
    batch, with every live match's moves waiting behind it). Measured here in
    SQLite's own steps (its progress handler), not in time: a batch keeping
    2,980 of 3,000 matches must cost about what one keeping 100 does."""
    path = tmp_path / "many.db"
    store = SqliteStore(path)
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO matches (match_id, game, players, options_json, seed, decision_seconds,"
            " time_bank_seconds, max_strikes, token_hashes_json, created_at, status, end_reason,"
            " finished_at) VALUES (?, 'sheep-showdown', 2, '{}', '1', 10.0, 0.0, 3, '[]', ?,"
            " 'finished', 'game over', ?)",
            [(f"m{i:05d}", float(i), float(i)) for i in range(3000)],
        )

    def steps_of_one_batch(keep: int) -> int:
        steps = 0

        def count_step() -> int:
            nonlocal steps
            steps += 1
            return 0  # go on

        store._db.set_progress_handler(count_step, 1)
        try:
            assert store.prune(None, keep, 10) == 10
        finally:
            store._db.set_progress_handler(None, 1)
        return steps

    keeping_most, keeping_few = steps_of_one_batch(2980), steps_of_one_batch(100)
    assert keeping_most < 1.5 * keeping_few, (keeping_most, keeping_few)
    # And the ones that went are the oldest: the newest 100 stay.
    assert [s.record.match_id for s in store.recent("", "", 100)][-1] == "m02900"
    assert store.load("m00019") is None and store.load("m00020") is not None
    store.close()


class _ComparedTime(float):
    """A creation time that counts how often it is compared: sorting the
    finished matches by age compares every one of them."""

    comparisons = 0

    def __lt__(self, other: float) -> bool:
        _ComparedTime.comparisons += 1
        return float(self) < other

    def __gt__(self, other: float) -> bool:
        _ComparedTime.comparisons += 1
        return float(self) > other


@contextmanager
def _steps_run_in_store_py() -> Iterator[list[int]]:
    """Counts in `[0]` the Python lines run in server/store.py (each turn of its
    loops) and the comparisons of `_ComparedTime`s (a sort in C runs no line)."""
    counted = [0]
    _ComparedTime.comparisons = 0

    def count_line(frame: FrameType, event: str, arg: object) -> Any:
        if frame.f_code.co_filename != store_module.__file__:
            return None
        counted[0] += event == "line"
        return count_line

    previous = sys.gettrace()
    sys.settrace(count_line)
    try:
        yield counted
    finally:
        sys.settrace(previous)
        counted[0] += _ComparedTime.comparisons


@pytest.mark.parametrize("retention", ["count", "age"])
def test_a_memory_prune_batch_costs_the_same_however_many_matches_are_finished(
    retention: str,
) -> None:
    """`serve --db :memory:` keeps its matches in a MemoryStore, whose every
    pruning batch gathered and sorted all its finished matches: 0.58 s a batch
    of 200 with 300,000 finished (--keep-finished 100000), the store's lock held
    all along, so every live match's writes waited. Counted here in the store's
    own steps, not in time: a batch among 4,000 finished matches must cost about
    what one among 400 does, as the file's store's does."""

    def steps_of_one_batch(finished: int) -> int:
        store = MemoryStore()
        for i in range(finished):
            store.create_match(_record(f"m{i:05d}", created_at=_ComparedTime(i)))
            store.finish_match(f"m{i:05d}", "finished", b"", "game over")
        keep, before = (finished - 40, None) if retention == "count" else (None, time.time() + 1)
        with _steps_run_in_store_py() as steps:
            assert store.prune(before, keep, 20) == 20
        return steps[0]

    among_many, among_few = steps_of_one_batch(4000), steps_of_one_batch(400)
    assert among_many < 2 * among_few, (among_many, among_few)


_GAMES = ("sheep-showdown", "stubborn-sheep")
_FILTERS = [
    (game, status)
    for game in ("", _GAMES[1])
    for status in ("", ANY_OVER, "finished", "aborted", "running")
]


def _fill_mixed(store: Store, count: int, created_at: type[float] = float) -> None:
    """`count` matches of two games, three created at each instant (their ids
    out of order), every fifth aborted, the rest finished but every seventh."""
    for i in range(count):
        match_id = f"m{(i * 7919) % 100_000:05d}"
        record = _record(match_id, created_at=created_at(i // 3))
        store.create_match(replace(record, game=_GAMES[i % 2]))
        if i % 7:
            store.finish_match(match_id, "aborted" if i % 5 == 0 else "finished", b"", "x")


def test_a_memory_listing_page_costs_the_same_however_many_matches_are_stored() -> None:
    """ListMatches on a `serve --db :memory:` server read every stored match and
    sorted those its filters kept for each page: 2.2 s a page of 20 among
    300,000, with the store's lock held, so every live match's writes waited.
    Counted in the store's own steps, not in time: a page among 6,000 matches,
    first or further down, of each game and status, must cost about what one
    among 600 does, as the file's store's indexes make it."""

    def steps_of_pages(count: int) -> list[int]:
        store = MemoryStore()
        _fill_mixed(store, count, created_at=_ComparedTime)
        steps_taken = []
        for game, status in _FILTERS:
            first = store.recent(game, status, 1)[0].record
            for after in (None, Position.of(first.created_at - 30, "")):
                with _steps_run_in_store_py() as steps:
                    assert len(store.recent(game, status, 20, after)) == 20
                steps_taken.append(steps[0])
        return steps_taken

    among_many, among_few = steps_of_pages(6000), steps_of_pages(600)
    assert all(m < 1.5 * f for m, f in zip(among_many, among_few, strict=True)), (
        among_many,
        among_few,
    )


def _pages(store: Store, game: str, status: str, limit: int) -> list[str]:
    """The match ids of a whole listing, paged through by the last match of
    each page as a page token does."""
    listed: list[str] = []
    after = None
    while page := store.recent(game, status, limit, after):
        listed += [summary.record.match_id for summary in page]
        assert len(listed) <= 1000, "the pages list matches again"  # a test stores fewer
        after = Position.of_record(page[-1].record)
    return listed


def test_memory_and_file_stores_list_and_page_alike() -> None:
    """Every filter lists the same matches in the same order in both stores,
    a page at a time or at once: newest first and, created at one instant, by
    match_id."""
    stores: list[Store] = [MemoryStore(), SqliteStore(":memory:")]
    for store in stores:
        _fill_mixed(store, 300)
        store.finish_match("m07919", "aborted", b"", "x")  # finished, then aborted
        running = [m.record.match_id for m in store.unfinished() if isinstance(m, StoredMatch)]
        for match_id in random.Random(5).sample(sorted(running), len(running) // 2):
            store.finish_match(match_id, "finished", b"", "x")
    for game, status in _FILTERS:
        for limit in (1, 7, 1000):
            memory, file = (_pages(store, game, status, limit) for store in stores)
            assert memory == file, (game, status, limit)
            assert memory, (game, status)
    for store in stores:
        store.close()


def test_a_memory_listing_is_its_matches_sorted_through_finishes_and_prunes() -> None:
    """Matches made at few instants (some before others made earlier, as after
    a clock set back), finished or aborted in any order, pruned by count and by
    age: every filter's listing, paged, is the surviving matches sorted."""
    rng = random.Random(83)
    store = MemoryStore()
    made: list[str] = []
    running: list[str] = []
    for round_number in range(12):
        for _ in range(rng.randrange(1, 60)):
            match_id = f"m{len(made):04d}"
            created_at = float(rng.randrange(5 * round_number - 8, 5 * round_number + 5))
            record = replace(_record(match_id, created_at=created_at), game=rng.choice(_GAMES))
            store.create_match(record)
            made.append(match_id)
            running.append(match_id)
        rng.shuffle(running)
        for match_id in running[: len(running) // 2]:
            store.finish_match(match_id, rng.choice(("finished", "aborted")), b"", "x")
        del running[: len(running) // 2]
        if round_number % 3 == 2:
            store.finish_match(rng.choice(made[-20:]), "aborted", b"", "x")  # over again
        if round_number % 2:
            store.prune(None, rng.randrange(0, 150), rng.randrange(1, 60))
        else:
            store.prune(time.time() + 1, None, rng.randrange(1, 20))
        kept = [summary for summary in map(store.summary, made) if summary is not None]
        for game, status in _FILTERS:
            wanted = sorted(
                (
                    summary
                    for summary in kept
                    if (not game or summary.record.game == game)
                    and (
                        not status
                        or summary.status == status
                        or (status == ANY_OVER and summary.status in ("finished", "aborted"))
                    )
                ),
                key=lambda summary: Position.of_record(summary.record),
            )
            listed = _pages(store, game, status, rng.choice((1, 7, 1000)))
            assert listed == [summary.record.match_id for summary in wanted], (
                round_number,
                game,
                status,
            )


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_match_pruned_by_age_is_not_counted_again_by_the_count_kept(
    tmp_path: Path, kind: str
) -> None:
    """m3 ends first and goes by age; the count kept then counts the four
    finished matches left, oldest created first, and m3 is not among them."""
    store = MemoryStore() if kind == "memory" else SqliteStore(tmp_path / "c.db")
    for i in range(6):
        store.create_match(_record(f"m{i}", created_at=float(i)))
    store.finish_match("m3", "finished", b"", "game over")
    time.sleep(0.01)
    cut = time.time()
    time.sleep(0.01)
    for match_id in ("m0", "m1", "m2", "m4"):
        store.finish_match(match_id, "aborted", b"", "aborted")
    assert store.prune(cut, None, 100) == 1
    assert store.prune(None, 2, 100) == 2
    assert store.prune(None, 2, 100) == 0
    assert store.prune(None, 1, 100) == 1
    assert [s.record.match_id for s in store.recent("", "", 10)] == ["m5", "m4"]
    store.close()


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_prune_by_age_counts_from_when_a_match_ended_not_when_it_was_made(
    tmp_path: Path, kind: str
) -> None:
    """`--keep-finished-days` deletes matches that *ended* more than DAYS ago
    (docs/operations.md): one created in 1970 (created_at 0) that ended just
    now is a day short of the cut, so it stays; the test above finishes its
    matches just as it prunes and would not tell the two times apart."""
    from server.store import MemoryStore

    store = MemoryStore() if kind == "memory" else SqliteStore(tmp_path / "a.db")
    store.create_match(_record("long", created_at=0.0))
    store.finish_match("long", "finished", b"", "game over")
    a_day_ago = time.time() - 86_400
    assert store.prune(a_day_ago, None, 100) == 0
    assert store.load("long") is not None
    store.close()


def _store(kind: str, tmp_path: Path) -> Store:
    if kind == "memory":
        return MemoryStore()
    return SqliteStore(":memory:" if kind == "sqlite-memory" else tmp_path / "j.db")


@pytest.mark.parametrize("kind", ["memory", "sqlite", "sqlite-memory"])
def test_every_store_keeps_whether_a_seat_of_a_match_ever_joined(tmp_path: Path, kind: str) -> None:
    """A new match has no join; one written join (plain or quick) is kept, for that
    match alone, in what `load` and `unfinished` give back."""
    store = _store(kind, tmp_path)
    for match_id in ("plain", "quick", "never"):
        store.create_match(_record(match_id))
    assert _seat_joined(store) == {"plain": False, "quick": False, "never": False}
    store.record_joined("plain", 0)
    store.quick_writes().record_joined("quick", 0)
    assert _seat_joined(store) == {"plain": True, "quick": True, "never": False}
    store.close()


def _seat_joined(store: Store) -> dict[str, bool]:
    unfinished = {s.record.match_id: s.seat_joined for s in store.unfinished()}
    loaded = {}
    for match_id in unfinished:
        stored = store.load(match_id)
        assert stored is not None
        loaded[match_id] = stored.seat_joined
    assert loaded == unfinished
    return unfinished


def test_a_join_survives_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SqliteStore(path)
    store.create_match(_record("joined"))
    store.create_match(_record("never"))
    store.quick_writes().record_joined("joined", 0)
    store.close()
    reopened = SqliteStore(path)
    assert {s.record.match_id: s.seat_joined for s in reopened.unfinished()} == {
        "joined": True,
        "never": False,
    }
    reopened.close()


def test_matches_stored_before_joins_were_recorded_count_as_joined(tmp_path: Path) -> None:
    """Nobody knows whether a seat of a match in an older file joined: the migration
    says one did, so the start timeout never aborts a match that was being played."""
    path = tmp_path / "v4.db"
    db = sqlite3.connect(path, isolation_level=None)
    assert migrate(db, upto=4) == 4
    db.execute(  # what a server of schema version 4 wrote on CreateMatch
        "INSERT INTO matches (match_id, game, players, options_json, seed,"
        " decision_seconds, time_bank_seconds, max_strikes, token_hashes_json,"
        " created_at, status, rules_version)"
        " VALUES ('old', 'sheep-n-sheep', 2, '{}', '5', 10.0, 0.0, 3, '[\"h0\", \"h1\"]',"
        " 1.0, 'running', 1)"
    )
    db.close()
    store = SqliteStore(path)
    assert store.version == SCHEMA_VERSION == 5
    store.create_match(_record("new"))
    assert {s.record.match_id: s.seat_joined for s in store.unfinished()} == {
        "old": True,
        "new": False,
    }
    store.close()


def test_joins_an_older_server_wrote_to_the_file_are_read_its_way(tmp_path: Path) -> None:
    """A server from before the seats' bits writes `seat_joined = 1` at the
    first join of a match it hosts that no seat had joined (the column held 0),
    and nothing for a match whose column is set already: it never clears the
    bits of a seat that joined on a newer server. Read back by a newer server,
    1 alone says some seat joined and not which (seat 0's bit is 2, not 1): a
    seat counts as joined before the restart when it answered a decision, as
    the older server itself counts it, never seat 0 for every such match."""
    path = tmp_path / "shared.db"
    store = SqliteStore(path)
    for match_id in ("joined here", "joined there"):
        store.create_match(_record(match_id))
    store.record_joined("joined here", 1)
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(  # the older server's one write of a join, its first of "joined there"
        "UPDATE matches SET seat_joined = 1 WHERE match_id = 'joined there'"
    )
    db.close()
    reopened = SqliteStore(path)
    here, there = reopened.load("joined here"), reopened.load("joined there")
    reopened.close()
    assert here is not None and there is not None
    assert (here.seat_joined, here.joined_seats) == (True, frozenset({1}))
    assert (there.seat_joined, there.joined_seats) == (True, frozenset())
    game = games.get("sheep-n-sheep")
    record = replace(there.record, options={}, rules_version=game.rules_version)
    state = game.new_state(2, record.seed, record.options)
    answered = state.to_move
    assert answered is not None
    move = RecordedMove(1, answered, 0, state.legal_actions()[0].label, "", None)
    restored = restored_match(replace(there, record=record, moves=[move]), game, MemoryStore())
    assert [seat.joined for seat in restored.info().seats] == [
        seat == answered for seat in range(2)
    ]
