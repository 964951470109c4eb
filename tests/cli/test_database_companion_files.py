"""A database whose -wal file (SQLite's own, beside it) is a folder: every
command that opens it names that folder, where each said only "unable to open
database file" of a file that was there and readable, and `replay` called the
server's database "not a Sheepfold database"."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from server.sqlite_store import SqliteStore
from tests.cli.helpers import one_line, sheepfold, stored_match


def _server_database(path: Path) -> None:
    store = SqliteStore(path)
    store.create_match(stored_match("m000", 0, time.time()))
    store.close()


@pytest.mark.parametrize(
    ("args", "prefix"),
    [
        (("db", "info", "--db", "DB"), "sheepfold db"),
        (("db", "vacuum", "--db", "DB"), "sheepfold db"),
        (("replay", "--db", "DB", "m000"), "sheepfold replay"),
    ],
)
def test_a_wal_name_taken_by_a_folder_is_named(
    tmp_path: Path, args: tuple[str, ...], prefix: str
) -> None:
    db = tmp_path / "s.db"
    _server_database(db)
    wal = Path(f"{db}-wal")
    wal.mkdir()
    done = sheepfold(*(str(db) if arg == "DB" else arg for arg in args))
    assert done.returncode == 1, done.stderr
    assert one_line(done) == (
        f"{prefix}: cannot use {db}: unable to open database file ({wal} is a folder: "
        "SQLite keeps its own file of that name beside the database; move it away)"
    )
