"""A server database whose header and schema read but whose pages of rows are
damaged (a disk fault, a copy cut short and patched, bytes overwritten).
`serve` once ended in a `sqlite3.DatabaseError: database disk image is
malformed` traceback while reading the matches to restore; it now says so in
one line naming the file and what to do, and exits 1."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from tests.cli.helpers import sheepfold
from tests.cli.test_db_command import _database

PAGE = 4096


def _damaged(tmp_path: Path) -> Path:
    db = tmp_path / "s.db"
    _database(db, finished=30, running=3, moves=40)
    with closing(sqlite3.connect(db)) as con:  # everything in the file itself
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode=DELETE")
    size = db.stat().st_size
    with open(db, "r+b") as file:  # the schema's pages stay; the rows' do not
        file.seek(3 * PAGE)
        file.write(b"\xff" * (size - 4 * PAGE))
    return db


def test_serve_refuses_a_database_with_damaged_pages_in_one_line(tmp_path: Path) -> None:
    db = _damaged(tmp_path)
    done = sheepfold("serve", "--port", "0", "--db", str(db), timeout=30)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("{")]
    assert lines == [
        f"sheepfold serve: cannot restore the matches of --db {db}: its unfinished "
        "matches cannot be read (database disk image is malformed): the file is damaged; "
        "serve your last backup of it, or what sqlite3 recovers of it in a new file "
        f"(sqlite3 {db} .recover | sqlite3 NEW.db)"
    ], done.stderr
