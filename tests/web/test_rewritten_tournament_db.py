"""A closed tournament database is read as the unchanging file it is, then
checked against the file's stat mark and read again when a runner wrote it
meanwhile (tournament/store_read.py). When the runner writes it during every
read, the page says to try again: the file is fine."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.web.test_adversarial import _tournament_urls, _viewer_of_a_copy
from tests.web.test_http import get_with_headers
from tournament import store_read
from tournament.store import Store
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


def _runner_writes(database: Path) -> None:
    """A runner opens the database, stores something and closes it (its
    checkpoint writes the file; the -wal goes), as between two reads."""
    runner = sqlite3.connect(database, isolation_level=None)
    try:
        runner.execute("UPDATE tournaments SET updated_at = updated_at + 1")
    finally:
        runner.close()
    assert not Path(f"{database}-wal").exists()
    # Two writes within one tick of the file system's clock keep one mtime.
    status = database.stat()
    os.utime(database, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000))


def test_a_database_its_runner_writes_during_every_read_is_a_503_to_try_again(
    showcase: Showcase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every tournament page said 400 "... is not a SQLite database (... changed
    each time it was read)" (or "could not be read"), and the list page
    showed that beside the database, as for a file that is not one. The list
    page says to try again beside that database alone, and lists the others."""
    copy = tmp_path / "busy.db"
    match_id, viewer = _viewer_of_a_copy(showcase, copy)
    base = f"http://127.0.0.1:{viewer.port}"
    urls = [*_tournament_urls(base, match_id), f"{base}/tournaments/0/showcase/fragment"]
    listing = f"{base}/tournaments"
    assert listing in urls
    assert store_read._closed_wal_mark(copy) is not None, "closed: read as immutable"
    marked = store_read._closed_wal_mark

    def mark_then_a_runner(path: str | Path) -> object:
        mark = marked(path)
        _runner_writes(copy)
        return mark

    try:
        monkeypatch.setattr(store_read, "_closed_wal_mark", mark_then_a_runner)
        status, _, body = get_with_headers(listing)
        assert status == 200, body[-500:]
        assert "busy.db was being written by its tournament runner" in body, body[-500:]
        assert "not a SQLite" not in body, body[-500:]
        for url in urls:
            if url == listing:
                continue
            status, headers, body = get_with_headers(url)
            assert status == 503, (url, status, body[-500:])
            assert headers["Retry-After"] == "1", url
            assert "busy.db was being written by its tournament runner" in body, body[-500:]
            assert "try again in a moment" in body and "not a SQLite" not in body
        monkeypatch.undo()
        # The runner done: every page reads it (nothing of the 503 was kept).
        for url in urls:
            status, _, body = get_with_headers(url)
            assert status == 200, (url, body[-500:])
    finally:
        showcase.server.run(viewer.stop())


def test_a_torn_last_read_while_the_runner_writes_is_a_try_again_too(
    showcase: Showcase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last of the reads failing as a torn read does ("malformed") was
    that error, though the file had changed under it as under the others."""
    copy = tmp_path / "torn.db"
    shutil.copy(showcase.tournament_dbs[0], copy)
    marked = store_read._closed_wal_mark
    reads: list[str] = []

    def mark_then_a_runner(path: str | Path) -> object:
        mark = marked(path)
        _runner_writes(copy)
        return mark

    def torn(store: Store) -> object:
        reads.append("torn")
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(store_read, "_closed_wal_mark", mark_then_a_runner)
    with pytest.raises(store_read.ChangedWhileRead, match=r"torn\.db changed each time"):
        store_read.read_store(copy, torn)
    assert len(reads) == store_read.ATTEMPTS
