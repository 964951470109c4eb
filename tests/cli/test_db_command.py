"""`sheepfold db info|vacuum` and the server's retention options: old finished
matches go, unfinished ones never do, the file shrinks, and every mistake gets
one clear line and exit 1 (argparse's exit 2 for a malformed option)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.records import RecordedMove
from server.retention_policy import Retention
from server.sqlite_schema import SCHEMA_VERSION
from server.sqlite_store import SqliteStore
from tests.cli.helpers import sheepfold, stored_match
from tests.integrity.helpers import wait_until

DAY = 86_400


def _database(path: Path, finished: int, running: int = 1, moves: int = 40) -> list[str]:
    """`finished` finished matches (the i-th ended i days ago, and was created as
    long before) and `running` unfinished ones; returns the finished ids, newest first."""
    store = SqliteStore(path)
    now = time.time()
    ids = []
    for i in range(finished + running):
        match_id = f"m{i:03d}"
        store.create_match(stored_match(match_id, i, now - i * DAY))
        for number in range(1, moves + 1):
            store.record_move(match_id, RecordedMove(number, number % 2, 0, "x" * 40))
        if i >= running:
            store.finish_match(match_id, "finished", b"", "game over")
            ids.append(match_id)
    store.close()
    with closing(sqlite3.connect(path)) as db, db:
        for i, match_id in enumerate(ids, start=running):
            db.execute(
                "UPDATE matches SET finished_at = ? WHERE match_id = ?", (now - i * DAY, match_id)
            )
    return ids


def test_vacuum_does_not_call_the_aborted_matches_it_removes_finished(tmp_path: Path) -> None:
    """Its line said "removed 2 finished matches" of a file whose `db info` said
    "finished matches 0, aborted matches 2"."""
    db = tmp_path / "s.db"
    store = SqliteStore(db)
    for i in range(2):
        store.create_match(stored_match(f"a{i}", i, time.time()))
        store.finish_match(f"a{i}", "aborted", b"", "nobody joined")
    store.close()
    info = sheepfold("db", "info", "--db", str(db))
    assert "aborted matches 2" in " ".join(info.stdout.split()), info.stdout
    done = sheepfold("db", "vacuum", "--db", str(db), "--keep-finished", "0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("removed 2 finished or aborted matches; "), done.stdout
    assert _statuses(db) == {}


def _statuses(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT match_id, status FROM matches"))


def test_vacuum_deletes_what_the_retention_says_and_the_file_shrinks(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    finished = _database(db, finished=30)
    info = sheepfold("db", "info", "--db", str(db))
    assert info.returncode == 0, info.stderr
    assert "finished matches 30" in " ".join(info.stdout.split()), info.stdout
    assert "running matches 1" in " ".join(info.stdout.split())

    size_before = db.stat().st_size
    days = sheepfold("db", "vacuum", "--db", str(db), "--keep-finished-days", "20.5")
    assert days.returncode == 0, days.stderr
    assert days.stdout.startswith("removed 10 finished or aborted matches"), days.stdout
    assert set(_statuses(db)) == {"m000", *finished[:20]}, "the oldest ten went"

    count = sheepfold("db", "vacuum", "--db", str(db), "--keep-finished", "5")
    assert count.returncode == 0, count.stderr
    assert count.stdout.startswith("removed 15 finished or aborted matches"), count.stdout
    assert _statuses(db) == {"m000": "running", **dict.fromkeys(finished[:5], "finished")}
    assert db.stat().st_size < size_before, "vacuum gave the space back"
    with sqlite3.connect(db) as con:
        (orphans,) = con.execute(
            "SELECT COUNT(*) FROM moves WHERE match_id NOT IN (SELECT match_id FROM matches)"
        ).fetchone()
    assert orphans == 0, "a deleted match's moves go with it"

    everything = sheepfold("db", "vacuum", "--db", str(db), "--keep-finished", "0")
    assert everything.returncode == 0
    assert _statuses(db) == {"m000": "running"}, "an unfinished match is never deleted"


def test_db_mistakes_get_one_clear_line(tmp_path: Path) -> None:
    missing = sheepfold("db", "vacuum", "--db", str(tmp_path / "nope.db"))
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr.strip() == f"sheepfold db: no database at {tmp_path / 'nope.db'}"
    assert not (tmp_path / "nope.db").exists(), "a mistyped path does not create a database"

    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite" * 100)
    bad = sheepfold("db", "info", "--db", str(garbage))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("sheepfold db: cannot use"), bad.stderr

    for option, value in [("--keep-finished", "-1"), ("--keep-finished-days", "nan")]:
        wrong = sheepfold("db", "vacuum", "--db", str(garbage), option, value)
        assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
        assert f"argument {option}" in wrong.stderr

    helped = sheepfold("db", "vacuum", "--help")
    assert helped.returncode == 0 and "--keep-finished-days" in helped.stdout


def test_vacuum_of_a_database_another_process_has_locked_fails_clearly(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _database(db, finished=3)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('BEGIN EXCLUSIVE')\n"
            "print('locked', flush=True)\n"
            "sys.stdin.readline()\n",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        locked = sheepfold("db", "vacuum", "--db", str(db), "--keep-finished", "1", "--wait", "0.2")
    finally:
        holder.communicate("\n", timeout=10)
    assert locked.returncode == 1 and "Traceback" not in locked.stderr, locked.stderr
    assert "locked by another process" in locked.stderr and "--wait" in locked.stderr
    assert len(_statuses(db)) == 4, "nothing was deleted"


def test_the_server_prunes_finished_matches_by_count_and_age(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    finished = _database(db, finished=12)
    config = ServerConfig(retention=Retention(days=3.5, count=5))
    with (
        InProcessServer(config, SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)

        def listed() -> list[str]:
            request = arena_pb2.ListMatchesRequest(status=arena_pb2.MATCH_STATUS_FINISHED)
            return [m.match_id for m in stub.ListMatches(request).matches]

        wait_until(lambda: listed() == finished[:3], what="the three that ended < 3.5 days ago")
        with grpc.insecure_channel(server.address) as other:
            old = arena_pb2_grpc.ArenaStub(other)
            try:
                old.GetMatch(arena_pb2.GetMatchRequest(match_id=finished[6]))
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.NOT_FOUND
            else:
                raise AssertionError("a pruned match is gone")
    assert "m000" in _statuses(db), "the unfinished match was kept (and restored)"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_info_only_reads_and_refuses_a_file_that_is_no_server_database(tmp_path: Path) -> None:
    """`db info` on an empty file once wrote a server's schema into it."""
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    tournament_db = tmp_path / "cup.sqlite"
    from tournament.store import Store

    Store(tournament_db).close()
    before = _snapshot(tmp_path)
    for command in ("info", "vacuum"):
        done = sheepfold("db", command, "--db", str(empty))
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.strip() == (
            f"sheepfold db: {empty} is not a Sheepfold server database: it is empty"
        )
        done = sheepfold("db", command, "--db", str(tournament_db))
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.strip() == (
            f"sheepfold db: {tournament_db} is not a Sheepfold server database: "
            "it is a tournament database (see `sheepfold tournament report`)"
        )
    missing = sheepfold("db", "info", "--db", str(tmp_path / "nope.db"))
    assert missing.stderr.strip() == f"sheepfold db: no database at {tmp_path / 'nope.db'}"
    assert _snapshot(tmp_path) == before, "no file was written, created or left behind"


def test_info_does_not_migrate_or_write_a_server_database(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _database(db, finished=2)
    with closing(sqlite3.connect(db)) as con, con:  # as an older server left it: version 3
        con.execute("DELETE FROM schema_version WHERE version > 3")
    before = _snapshot(tmp_path)
    info = sheepfold("db", "info", "--db", str(db))
    assert info.returncode == 0, info.stderr
    assert "(schema version 3)" in info.stdout
    assert "finished matches 2" in " ".join(info.stdout.split())
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["info", "vacuum"])
def test_a_database_of_a_newer_server_is_refused_and_left_alone(
    command: str, tmp_path: Path
) -> None:
    """`db info` once printed a newer server's file as if it knew its tables
    ("schema version 99", its counts, exit 0), where serve, vacuum and replay
    refuse it: its tables may not mean what this version reads in them."""
    db = tmp_path / "s.db"
    _database(db, finished=1)
    with closing(sqlite3.connect(db)) as con, con:
        con.execute("INSERT INTO schema_version VALUES (99)")
    before = _snapshot(tmp_path)
    done = sheepfold("db", command, "--db", str(db))
    assert (done.returncode, done.stdout) == (1, ""), done.stdout
    assert done.stderr.strip().splitlines() == [
        f"sheepfold db: {db}: the database has schema version 99, newer than "
        f"this server's {SCHEMA_VERSION}: upgrade sheepfold"
    ]
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["info", "vacuum"])
def test_a_path_that_cannot_be_a_database_is_one_line(command: str, tmp_path: Path) -> None:
    for path, message in [
        (str(tmp_path), f"{tmp_path} is a folder, not a database file"),
        ("/dev/null", "/dev/null is not a regular file, so it holds no database"),
        ("x" * 5000, f"cannot use {'x' * 60}...: File name too long"),
    ]:
        done = sheepfold("db", command, "--db", path)
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.strip() == f"sheepfold db: {message}"


@pytest.mark.parametrize(
    ("command", "flag", "value"),
    [
        ("info", "--db", ""),
        ("vacuum", "--db", ""),
        ("info", "--wait", "inf"),  # once an OverflowError traceback
        ("vacuum", "--wait", "3601"),
        ("vacuum", "--keep-finished", str(2**66)),  # once "too large to convert to SQLite"
        ("vacuum", "--keep-finished-days", "inf"),
        ("vacuum", "--keep-finished-days", "1e300"),
    ],
)
def test_a_db_flag_value_it_cannot_use_is_a_usage_error(
    command: str, flag: str, value: str, tmp_path: Path
) -> None:
    db = tmp_path / "s.db"
    _database(db, finished=1)
    before = _snapshot(tmp_path)
    args = ["db", command, f"{flag}={value}"] + ([] if flag == "--db" else ["--db", str(db)])
    done = sheepfold(*args)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"sheepfold db {command}: error: argument {flag}:"
    )
    assert _snapshot(tmp_path) == before


def test_vacuum_of_a_locked_database_waits_the_wait_once(tmp_path: Path) -> None:
    """The checkpoint before VACUUM waited the busy timeout out and said so in
    its result, then VACUUM waited it all again: `--wait 5` gave up after 10 s."""
    db = tmp_path / "s.db"
    _database(db, finished=1)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    store = SqliteStore(db, busy_timeout=1.0)
    try:
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            store.vacuum()
        waited = time.monotonic() - started
    finally:
        store.close()
        holder.close()
    assert 0.9 < waited < 1.6


def test_vacuum_beside_a_reader_goes_ahead(tmp_path: Path) -> None:
    """A process that only reads (an open read transaction, the log not empty)
    holds no lock VACUUM needs; the file was once reported locked."""
    db = tmp_path / "s.db"
    _database(db, finished=1)
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("CREATE TABLE pad (x)")
    writer.execute("INSERT INTO pad VALUES (randomblob(100000))")  # frames in the log
    reader = sqlite3.connect(db, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM matches").fetchall()
    store = SqliteStore(db, busy_timeout=0.2)
    try:
        store.vacuum()
    finally:
        store.close()
        reader.close()
        writer.close()


def test_info_counts_pages_in_use_per_match_not_the_write_ahead_log(tmp_path: Path) -> None:
    """A live server's log holds old copies of pages until its checkpoint: once
    counted in 'bytes per match', a live database read 30 times its size."""
    db = tmp_path / "s.db"
    _database(db, finished=4, running=0)
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA wal_autocheckpoint = 0")
        with con:
            con.execute("CREATE TABLE scratch (b BLOB)")
            con.executemany("INSERT INTO scratch VALUES (?)", [(b"x" * 4000,)] * 500)
        with con:
            con.execute("DROP TABLE scratch")
        log = Path(f"{db}-wal").stat().st_size
        assert log > 2_000_000, "the log holds the dropped table's pages"
        info = sheepfold("db", "info", "--db", str(db))
    assert info.returncode == 0, info.stderr
    lines = dict(
        line.split(None, 1) for line in info.stdout.replace(" per match", "_per_match").splitlines()
    )
    per_match = int(lines["bytes_per_match"].replace(",", ""))
    assert per_match * 4 < 200_000, info.stdout
    assert f"(and {log:,} in its write-ahead log)" in lines["size"], info.stdout
