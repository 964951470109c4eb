"""A `--db` (or a tournament's `database`) that is a symbolic link to a file not
made yet: SQLite follows the link and creates the file it points to, so that
file is the one holding the secrets (the seeds of running matches, a
tournament's deal secret). It is created readable by its owner only, as any
new database is; it was made world-readable (0644 under the usual umask), since
the owner-only creation refused to follow the link and left the file to SQLite."""

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
@pytest.mark.parametrize("target_name", ["relative", "absolute"])
def test_a_database_made_through_a_dangling_link_is_the_owners_only(
    kind: str, target_name: str, tmp_path: Path
) -> None:
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / f"{kind}.db"
    link = tmp_path / "current.db"
    link.symlink_to("data/" + target.name if target_name == "relative" else target)
    old = os.umask(0o022)  # the usual umask, which left the linked file world-readable
    try:
        store = _open(kind, link)
        try:
            assert link.is_symlink() and target.is_file()
            made = [target] + [Path(f"{target}{end}") for end in ("-wal", "-shm")]
            assert {f.name: _mode(f) for f in made if f.exists()} == {
                f.name: 0o600 for f in made if f.exists()
            }
            assert _mode(target) == 0o600
        finally:
            store.close()
    finally:
        os.umask(old)


@pytest.mark.parametrize("kind", ["server", "tournament"])
def test_a_link_to_an_existing_database_leaves_its_mode(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "kept.db"
    target.touch()
    target.chmod(0o640)  # an operator's choice, reached through the link
    link = tmp_path / "current.db"
    link.symlink_to(target)
    _open(kind, link).close()
    assert _mode(target) == 0o640
