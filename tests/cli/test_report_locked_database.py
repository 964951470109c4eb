"""`tournament report` and `replay` on a database another process holds locked.

They wait for the lock, and say so on stderr once the wait has lasted a moment
(a report once sat silent for 30 s, then said only "database is locked"); when
the lock outlasts --wait, the error names the file and what to do. The wait is
not bootstrap time either: the progress line's ETA once said hours for a
bootstrap of a second."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from tests.cli.helpers import command, play_cup, random_cup, sheepfold
from tests.conftest import ROOT

LOCK_SECONDS = 4.0
LONGEST_HOLD = 120.0
WAITING = "is locked by another process; waiting for it (at most"


def _hold_locked(
    database: Path, held: threading.Event, release: threading.Event, readers_too: bool
) -> None:
    connection = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    try:
        if readers_too:
            # A connection in exclusive locking mode keeps readers out of a WAL
            # database too, once it has written (as a migration or an sqlite3 shell may).
            connection.execute("PRAGMA locking_mode=EXCLUSIVE")
            connection.execute("BEGIN EXCLUSIVE")
            connection.execute("CREATE TABLE IF NOT EXISTS held (x)")
            connection.execute("COMMIT")
        else:
            connection.execute("BEGIN EXCLUSIVE")
        held.set()
        release.wait(LONGEST_HOLD)
        if connection.in_transaction:
            connection.execute("ROLLBACK")
    finally:
        connection.close()


@contextmanager
def _locked(database: Path, *, readers_too: bool = False) -> Iterator[threading.Event]:
    """The database locked until the event yielded is set (or the block ends)."""
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_locked, args=(database, held, release, readers_too))
    holder.start()
    try:
        assert held.wait(10)
        yield release
    finally:
        release.set()
        holder.join()


def _played(tmp_path: Path) -> Path:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=2, database="cup.sqlite"))
    play_cup(config)
    return tmp_path / "cup.sqlite"


def _eta_seconds(line: str) -> int:
    fields = [int(part) for part in line.rsplit("ETA ", 1)[1].split(":")]
    return sum(value * 60**power for power, value in enumerate(reversed(fields)))


def test_a_wait_for_the_lock_is_not_counted_in_the_bootstrap_eta(tmp_path: Path) -> None:
    database = _played(tmp_path)
    with _locked(database) as release:
        threading.Timer(LOCK_SECONDS, release.set).start()
        done = sheepfold("tournament", "report", "--db", str(database), "--bootstrap", "100")
    assert done.returncode == 0, done.stderr
    assert "Elo" in done.stdout
    etas = [_eta_seconds(line) for line in done.stderr.splitlines() if re.search(r"ETA \d", line)]
    assert all(eta < LOCK_SECONDS * 10 for eta in etas), done.stderr


def test_a_report_says_at_once_that_it_waits_for_a_lock(tmp_path: Path) -> None:
    database = _played(tmp_path)
    free = sheepfold("tournament", "report", "--db", str(database), "--bootstrap", "0")
    assert free.returncode == 0 and free.stderr == "", free.stderr
    with _locked(database, readers_too=True) as release:
        # Released once the report has said that it waits: a slow start cannot miss it.
        report = subprocess.Popen(
            command("tournament", "report", "--db", str(database), "--bootstrap", "0"),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert report.stderr is not None
        said = report.stderr.readline()
        release.set()
        out, rest = report.communicate(timeout=120)
    assert report.returncode == 0, said + rest
    assert "Elo" in out
    assert [said.rstrip("\n"), *rest.splitlines()] == [
        f"sheepfold tournament: {database} {WAITING} 30 s)"
    ]


def test_a_lock_held_past_the_wait_is_named_with_what_to_do(tmp_path: Path) -> None:
    database = _played(tmp_path)
    with closing(sqlite3.connect(database)) as connection:
        (match_id,) = connection.execute("SELECT match_id FROM games LIMIT 1").fetchone()
    with _locked(database, readers_too=True):
        report = sheepfold("tournament", "report", "--db", str(database), "--wait", "1.5")
        replay = sheepfold("replay", match_id, "--db", str(database), "--wait", "1.5")
    for prefix, done in (("sheepfold tournament", report), ("sheepfold replay", replay)):
        assert done.returncode == 1
        assert done.stderr.splitlines() == [
            f"{prefix}: {database} {WAITING} 1.5 s)",
            f"{prefix}: {database} is locked by another process and stayed locked for 1.5 s: "
            "find the process that holds it (a tournament run, `tournament forget`, an open "
            "sqlite3 shell), then try again, or wait longer with --wait SECONDS",
        ], done.stderr
