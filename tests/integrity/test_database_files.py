"""The databases hold secrets: a server's holds the seed of every running match
(each seed tells every hidden card and the deck order), a tournament's holds
the secret its deals come from. A file the server or a tournament creates is
readable by its owner only, and so are SQLite's -wal and -shm files beside it.
A file that was there already keeps the mode its operator gave it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from server.sqlite_store import SqliteStore
from tournament.store import Store


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _open(kind: str, path: Path) -> SqliteStore | Store:
    return SqliteStore(path, serving=True) if kind == "server" else Store(path)


@pytest.mark.parametrize("kind", ["server", "tournament"])
def test_a_new_database_and_its_wal_files_are_the_owners_only(kind: str, tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask, which left SQLite's files world-readable
    try:
        path = tmp_path / f"{kind}.db"
        store = _open(kind, path)
        try:
            files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
            assert all(file.exists() for file in files)
            assert {file.name: _mode(file) for file in files} == {
                file.name: 0o600 for file in files
            }
        finally:
            store.close()
    finally:
        os.umask(old)


@pytest.mark.parametrize("kind", ["server", "tournament"])
def test_an_existing_database_keeps_its_mode(kind: str, tmp_path: Path) -> None:
    path = tmp_path / f"{kind}.db"
    path.touch()
    path.chmod(0o640)  # an operator's choice: a group that backs it up
    _open(kind, path).close()
    assert _mode(path) == 0o640
