"""A tournament's created_at and updated_at, and the database's schema
version, edited by hand (the sqlite3 shell keeps text in a REAL or INTEGER
column, 3.5 in an INTEGER one and inf in either): one StoreError naming the
file, the row and what to do, whichever way the file is opened."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tournament.report import report
from tournament.store import Store, StoreError
from tournament.store_read import read_store
from tournament.store_schema import MIGRATIONS

CURRENT = len(MIGRATIONS)


def _database(tmp_path: Path, *edits: tuple[str, tuple[object, ...]]) -> Path:
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        store.open_tournament("cup", "sheep-showdown", 2, {}, None, 4, {})
    with closing(sqlite3.connect(db)) as raw:
        for statement, values in edits:
            raw.execute(statement, values)
        raw.commit()
    return db


@pytest.mark.parametrize(
    ("column", "value", "shown"),
    [
        ("created_at", "yesterday", "'yesterday'"),
        ("updated_at", "<b>now</b>", "'<b>now</b>'"),
        ("updated_at", 1e999, "inf"),
        ("created_at", -1e999, "-inf"),
        ("updated_at", -5.0, "-5.0"),
        ("created_at", b"\x00", r"b'\\x00'"),
    ],
)
def test_a_tournaments_time_edited_into_no_time_is_one_store_error(
    tmp_path: Path, column: str, value: object, shown: str
) -> None:
    """Read as it was: a text's place in SQLite's order (after every number)
    made it the newest tournament, the one a report without a name shows."""
    db = _database(tmp_path, (f"UPDATE tournaments SET {column} = ?", (value,)))
    wanted = (
        rf"^tournament 'cup' in {db}: its {column} is not a time in seconds since 1970 "
        rf"\(edited by hand\?\), it holds {shown}; put the value back, or set it to now "
        rf"\(UPDATE tournaments SET {column} = strftime\('%s', 'now'\) WHERE id = 1 in the "
        r"sqlite3 shell\)$"
    )
    with Store(db) as store, pytest.raises(StoreError, match=wanted):
        store.tournaments()
    with pytest.raises(StoreError, match=wanted):
        read_store(db, lambda store: store.tournaments())
    with pytest.raises(StoreError, match=wanted):
        report(db)
    with closing(sqlite3.connect(db)) as raw:  # the fix it names (text: REAL keeps a number)
        raw.execute(f"UPDATE tournaments SET {column} = strftime('%s', 'now') WHERE id = 1")
        raw.commit()
    with Store(db) as store:
        (record,) = store.tournaments()
    assert record.created_at > 0 and record.updated_at > 0


@pytest.mark.parametrize(
    ("edit", "held"),
    [
        ("UPDATE schema_version SET version = 'four'", "holds 'four'"),
        ("UPDATE schema_version SET version = 1e999", "holds inf"),
        ("UPDATE schema_version SET version = -1", "holds -1"),
        (f"UPDATE schema_version SET version = {CURRENT - 0.5}", f"holds {CURRENT - 0.5}"),
        (f"UPDATE schema_version SET version = {CURRENT + 0.5}", f"holds {CURRENT + 0.5}"),
        ("DELETE FROM schema_version", "has no row"),
        (f"INSERT INTO schema_version VALUES ({CURRENT})", "has 2 rows"),
    ],
)
def test_a_schema_version_edited_by_hand_is_one_store_error(
    tmp_path: Path, edit: str, held: str
) -> None:
    """Text or inf stopped every command with a ValueError or OverflowError
    traceback; a fraction was read as the whole number below it (one below
    the current version ran the last migration again: "duplicate column
    name"), -1 ran the last migration, and no row ran every migration again
    ("table tournaments already exists")."""
    db = _database(tmp_path, (edit, ()))
    wanted = (
        f"the schema version of {db} is not one whole number (edited by hand?): its "
        f"schema_version table {held}; put "
        f"back the one row it held (this sheepfold writes version {CURRENT}: DELETE FROM "
        f"schema_version; INSERT INTO schema_version VALUES ({CURRENT}) in the sqlite3 shell, "
        "if this sheepfold wrote the file)"
    )
    with pytest.raises(StoreError) as opened:
        Store(db)
    assert str(opened.value) == wanted
    with pytest.raises(StoreError) as read:
        read_store(db, lambda store: store.tournaments())
    assert str(read.value) == wanted
    with closing(sqlite3.connect(db)) as raw:  # left as it was: no migration ran
        assert raw.execute("SELECT COUNT(*) FROM tournaments").fetchone() == (1,)
        raw.execute("DELETE FROM schema_version")
        raw.execute(f"INSERT INTO schema_version VALUES ({CURRENT})")  # the fix it names
        raw.commit()
    with Store(db) as store:
        assert [record.name for record in store.tournaments()] == ["cup"]


def test_one_damaged_tournament_leaves_the_others_readable(tmp_path: Path) -> None:
    """One tournament's row edited by hand stopped every read of the file
    (each read went through all the rows): the others are read by name, the
    latest is told apart when the damage leaves its update time readable, and
    the web list shows the others beside the damaged one's line."""
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        for name in ("old", "new"):
            store.open_tournament(name, "sheep-showdown", 2, {}, None, 4, {})
    with closing(sqlite3.connect(db)) as raw:
        raw.execute("UPDATE tournaments SET updated_at = 1, config_json = 'x' WHERE name = 'old'")
        raw.commit()
    damaged = f"tournament 'old' in {db}: its config_json is not a JSON object"
    with Store(db) as store:
        assert store.tournament("new").name == "new"
        assert store.tournament().name == "new"  # 'old' has the older (readable) time
        with pytest.raises(StoreError, match=damaged):
            store.tournament("old")
        readable, errors = store.readable_tournaments()
        assert [record.name for record in readable] == ["new"]
        assert [str(error)[: len(damaged)] for error in errors] == [damaged]
    from web.tournaments import readable_tournaments  # web reads through tournament

    listed, lines = readable_tournaments(db)
    assert [record.name for record in listed] == ["new"]
    assert [line.startswith("tournament 'old' in t.sqlite: its config_json") for line in lines] == [
        True
    ]
    from web.pages import tournaments_page
    from web.tournament_routes import _listed

    page = tournaments_page([_listed(0, db)])
    assert '<code>t.sqlite</code>: <span class="error">tournament &#x27;old&#x27;' in page, page
    assert ">new</a>" in page, page
    with closing(sqlite3.connect(db)) as raw:  # now 'old' may be the latest: it is refused
        raw.execute("UPDATE tournaments SET updated_at = 'later' WHERE name = 'old'")
        raw.commit()
    with Store(db) as store, pytest.raises(StoreError) as latest:
        store.tournament()
    assert str(latest.value).startswith(f"tournament 'old' in {db}: its config_json")
    assert str(latest.value).endswith(
        "the other tournament in the file can be read with --tournament new"
    )


def test_the_latest_refused_names_the_flag_that_reads_the_others() -> None:
    """'can be read by its name (a, b)' left a user to guess how to give it."""
    from tournament.store_errors import latest_error

    damaged = StoreError("tournament 'old' in t.sqlite: damaged")
    assert str(latest_error(damaged, ["a", "b"])) == (
        "tournament 'old' in t.sqlite: damaged; meanwhile the others in the file can be "
        "read with --tournament NAME (a, b)"
    )
