"""`tournament run` and `forget` while another connection holds the database's
write lock (a second `sqlite3` connection in BEGIN IMMEDIATE, as an open shell
in a transaction holds it), and `report` beside such a lock.

`run` and `forget` once waited 30 s without a word, then stopped on "database
is locked"; they now say at once that they wait, wait up to `--wait SECONDS`,
and name the file and what to do when the lock outlasts it. A report of a
current database takes no write lock at all, so a writer does not hold it up."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from tests.cli.helpers import command, play_cup, random_cup, sheepfold
from tests.conftest import ROOT
from tests.sqlite_locks import write_locked

WAITING = "is locked by another process; waiting for it (at most"


def _played(tmp_path: Path) -> tuple[Path, Path]:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=2, database="cup.sqlite"))
    play_cup(config)
    return config, tmp_path / "cup.sqlite"


def _gave_up(prefix: str, database: Path, wait: str) -> list[str]:
    return [
        f"{prefix}: {database} {WAITING} {wait} s)",
        f"{prefix}: {database} is locked by another process and stayed locked for {wait} s: "
        "find the process that holds it (a tournament run, `tournament forget`, an open "
        "sqlite3 shell), then try again, or wait longer with --wait SECONDS",
    ]


def test_forget_says_it_waits_and_names_a_lock_held_past_the_wait(tmp_path: Path) -> None:
    _, database = _played(tmp_path)
    with write_locked(database):
        done = sheepfold("tournament", "forget", "a", "--db", str(database), "--wait", "1.5")
    assert done.returncode == 1
    assert done.stderr.splitlines() == _gave_up("sheepfold tournament", database, "1.5")
    with closing(sqlite3.connect(database)) as check:
        assert check.execute("SELECT COUNT(*) FROM games").fetchone() == (4,)


def test_forget_goes_on_once_the_lock_it_waits_for_is_let_go(tmp_path: Path) -> None:
    _, database = _played(tmp_path)
    with write_locked(database) as other:
        forget = subprocess.Popen(
            command("tournament", "forget", "a", "--db", str(database)),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert forget.stderr is not None
        said = forget.stderr.readline()  # released once it has said that it waits
        other.execute("ROLLBACK")
        out, rest = forget.communicate(timeout=120)
    assert [said.rstrip("\n"), *rest.splitlines()] == [
        f"sheepfold tournament: {database} {WAITING} 30 s)"
    ]
    assert forget.returncode == 0
    assert out == "forgot 4 games of 'a' in tournament 'cup'\n"


def test_run_says_it_waits_and_names_a_lock_held_past_the_wait(tmp_path: Path) -> None:
    config, database = _played(tmp_path)
    with write_locked(database):
        done = sheepfold("tournament", "run", str(config), "--no-report", "--wait", "1.5")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    waiting, gave_up = _gave_up("sheepfold tournament", database, "1.5")
    assert lines[-1] == gave_up, done.stderr
    # Off a terminal the run's log is JSON lines: the notice is one of them, a
    # warning, where a plain line once broke the stream.
    logged = [json.loads(line) for line in lines[:-1]]
    notices = [entry for entry in logged if entry["event"] == waiting]
    assert [entry["level"] for entry in notices] == ["warning"], done.stderr


def test_a_report_is_not_held_up_by_a_writers_lock(tmp_path: Path) -> None:
    _, database = _played(tmp_path)
    with write_locked(database):
        done = sheepfold("tournament", "report", "--db", str(database), "--bootstrap", "0")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "Elo" in done.stdout
