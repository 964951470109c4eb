"""The tournament store while another connection holds the database's write lock.

Opening a database whose schema is current only reads (a report once took the
write lock to find nothing to migrate, and waited for a writer to do so); a
write that has to wait says so once through `on_wait`, and one that waits in
vain is a StoreLocked naming the file and what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

import tournament.store_open
from tests.sqlite_locks import write_locked
from tournament.store import Store, StoreLocked
from tournament.store_schema import MIGRATIONS


def _stored(db: Path) -> Path:
    with Store(db) as store:
        store.open_tournament("cup", "sheep-showdown", 2, {}, None, 2, {})
    return db


def test_opening_a_current_database_takes_no_write_lock(tmp_path: Path) -> None:
    db = _stored(tmp_path / "t.sqlite")
    with write_locked(db), Store(db, timeout=0) as store:
        assert store.version == len(MIGRATIONS)
        assert store.tournament().name == "cup"


def test_an_older_database_still_waits_for_the_lock_to_migrate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _stored(tmp_path / "t.sqlite")
    newer = (*MIGRATIONS, "CREATE TABLE later (x INTEGER)")
    monkeypatch.setattr(tournament.store_open, "MIGRATIONS", newer)  # a sheepfold one migration on
    waited: list[float] = []
    with write_locked(db), pytest.raises(StoreLocked) as raised:
        Store(db, timeout=1.5, on_wait=waited.append)
    assert waited == [1.5]
    assert str(raised.value) == (
        f"{db} is locked by another process and stayed locked for 1.5 s: find the process "
        "that holds it (a tournament run, `tournament forget`, an open sqlite3 shell), "
        "then try again, or wait longer with --wait SECONDS"
    )
    with Store(db) as store:  # once free, the migration is made
        assert store.version == len(newer)


def test_a_write_that_waits_says_so_once_and_goes_on_when_the_lock_is_let_go(
    tmp_path: Path,
) -> None:
    db = _stored(tmp_path / "t.sqlite")
    waited: list[float] = []

    def let_go(seconds: float) -> None:
        waited.append(seconds)
        other.execute("ROLLBACK")

    with Store(db, timeout=5, on_wait=let_go) as store, write_locked(db) as other:
        tid = store.tournament().id
        assert store.forget(tid, {"no such key"}) == 0
    assert waited == [5]


def test_a_write_that_waits_in_vain_is_store_locked(tmp_path: Path) -> None:
    db = _stored(tmp_path / "t.sqlite")
    with Store(db, timeout=0.2) as store, write_locked(db):
        with pytest.raises(StoreLocked, match=r"stayed locked for 0\.2 s: find the process"):
            store.forget(store.tournament().id, {"no such key"})
        assert not store._db.in_transaction
