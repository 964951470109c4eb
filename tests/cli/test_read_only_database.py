"""A database the server may read but not write is refused at start, in one line.

SQLite opens such a file read-only without a word; the server used to start
and then answer every CreateMatch "the database cannot be written now ... is
another process holding it?". The file is made read-only by a read-only bind
mount in a private mount namespace, which holds for root too (CI runs as root,
and root writes a file whatever its mode).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest

from clients.bots import RandomBot
from clients.matchplay import play_match
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_schema import migrate
from server.sqlite_store import SqliteStore
from tests.cli.helpers import command
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e


def _read_only(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`sheepfold ARGS` with the file or folder `path` mounted read-only for it alone."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare not found: install util-linux (apt-get install util-linux)")
    namespace = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "-rm"]
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    return subprocess.run(
        [*namespace, "sh", "-c", script, "sh", str(path), *command(*args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,  # a server that starts would run until then
        check=False,
    )


def test_serve_refuses_a_database_it_cannot_write(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "sheepfold.db"
    SqliteStore(db).close()  # a server database with its tables, as a past run leaves it
    done = _read_only(db, "serve", "--port", "0", "--db", str(db))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"sheepfold serve: cannot open --db {db}: it cannot be written (attempt to write "
        "a readonly database): a read-only file, folder or mount"
    ]


def test_serve_names_a_folder_it_cannot_write(tmp_path: Path) -> None:
    """SQLite keeps -wal and -shm files beside the database: a read-only folder
    refuses it with "unable to open database file", which names no cause."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "sheepfold.db"
    SqliteStore(db).close()
    done = _read_only(folder, "serve", "--port", "0", "--db", str(db))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"sheepfold serve: cannot open --db {db}: unable to open database file (the folder "
        f"{folder} cannot be written, and SQLite keeps files beside the database)"
    ]


def test_serve_says_the_same_of_a_read_only_database_that_needs_migrating(
    tmp_path: Path,
) -> None:
    """A file of an older schema fails on its first migration, not on the check."""
    db = tmp_path / "old.db"
    with closing(sqlite3.connect(db)) as old:
        migrate(old, upto=2)
    done = _read_only(db, "serve", "--port", "0", "--db", str(db))
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"sheepfold serve: cannot open --db {db}: it cannot be written (attempt to write "
        "a readonly database): a read-only file, folder or mount"
    ]


def _played(folder: Path) -> tuple[Path, str]:
    """A server database in `folder` holding one finished match, as a stopped
    server leaves it (no -wal or -shm file beside it); returns it and the match id."""
    db = folder / "sheepfold.db"
    with InProcessServer(ServerConfig(), SqliteStore(db)) as server:
        outcome = server.run(
            play_match(server.address, "sheep-n-sheep", [RandomBot(1), RandomBot(2)], seed=3)
        )
    assert sorted(p.name for p in folder.iterdir()) == ["sheepfold.db"]
    return db, outcome.match_id


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()}


def test_db_info_reads_a_stopped_servers_database_in_a_read_only_folder(tmp_path: Path) -> None:
    """A backup on a read-only mount, or a reader of the backup group in a folder
    only the server's user may write (docs/operations.md, "Security"). SQLite
    needs a -shm file to read a database in WAL mode and cannot make one there:
    `db info` once said "cannot use ...: unable to open database file"."""
    folder = tmp_path / "data"
    folder.mkdir()
    db, _ = _played(folder)
    before = _files(folder)
    done = _read_only(folder, "db", "info", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "finished matches 1" in " ".join(done.stdout.split())
    assert _files(folder) == before


def test_replay_reads_a_stopped_servers_database_in_a_read_only_folder(tmp_path: Path) -> None:
    """`replay` once said the file "is not a Sheepfold database (unable to open
    database file)": it is one, in a folder it could not write."""
    folder = tmp_path / "data"
    folder.mkdir()
    db, match_id = _played(folder)
    before = _files(folder)
    done = _read_only(folder, "replay", match_id, "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "replay verified" in done.stdout
    assert _files(folder) == before


def test_db_vacuum_of_a_database_it_cannot_write_says_why(tmp_path: Path) -> None:
    """vacuum writes: on a read-only file it said only SQLite's 'attempt to
    write a readonly database', where serve names a read-only file or mount."""
    db = tmp_path / "sheepfold.db"
    SqliteStore(db).close()
    done = _read_only(db, "db", "vacuum", "--db", str(db))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"sheepfold db: cannot use {db}: it cannot be written (attempt to write "
        "a readonly database): a read-only file, folder or mount"
    ]


def test_db_vacuum_in_a_folder_it_cannot_write_names_the_folder(tmp_path: Path) -> None:
    """SQLite keeps -wal and -shm files beside the database: vacuum in a
    read-only folder said only "unable to open database file", where serve
    and a tournament run name the folder."""
    folder = tmp_path / "data"
    folder.mkdir()
    db, _ = _played(folder)
    done = _read_only(folder, "db", "vacuum", "--db", str(db))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"sheepfold db: cannot use {db}: unable to open database file (the folder "
        f"{folder} cannot be written, and SQLite keeps files beside the database)"
    ]
