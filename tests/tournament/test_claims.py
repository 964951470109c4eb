"""A tournament's claim (tournament.claims): one holder at a time, per tournament
and database, gone with its process however the process ends."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tournament.claims import Holder, TournamentBusy, claimed, lock_file, refuse_if_claimed
from tournament.store import StoreError

HOLD_AND_SLEEP = """
import sys, time
from tournament.claims import claimed
with claimed(sys.argv[1], sys.argv[2], "tournament run"):
    print("held", flush=True)
    time.sleep(120)
"""


def _holding_process(database: Path, tournament: str) -> subprocess.Popen[str]:
    """Another process that holds the claim until it is killed."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD_AND_SLEEP, str(database), tournament],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "held\n"
    return process


def test_a_held_claim_refuses_another_naming_its_holder(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.sqlite")
    with claimed(db, "cup", "tournament run"):
        with pytest.raises(TournamentBusy) as busy, claimed(db, "cup", "tournament forget"):
            pass
        with pytest.raises(TournamentBusy):
            refuse_if_claimed(db, "cup", "tournament run")
    assert busy.value.holder is not None and busy.value.holder.pid == os.getpid()
    assert str(busy.value).startswith(
        f"tournament 'cup' in {db} is in use by process {os.getpid()} "
        "(sheepfold tournament run, since "
    )
    assert isinstance(busy.value, StoreError)  # what every tournament command reports
    with claimed(db, "cup", "tournament forget"):  # let go at the end of the block
        pass


def test_other_tournaments_are_not_held_up_and_other_paths_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "cup.sqlite"
    (tmp_path / "link.sqlite").symlink_to(db)
    monkeypatch.chdir(tmp_path)
    with claimed(str(db), "cup", "tournament run"):
        with claimed(str(db), "other", "tournament run"):
            pass
        for same in ("cup.sqlite", "link.sqlite", f"{tmp_path}/./cup.sqlite"):
            with pytest.raises(TournamentBusy), claimed(same, "cup", "tournament run"):
                pass


def test_any_stored_name_gets_a_lock_file_in_the_lock_folder(tmp_path: Path) -> None:
    """Names from a config are file names; a database may hold others."""
    db = str(tmp_path / "cup.sqlite")
    folder = tmp_path / "cup.sqlite-locks"
    assert lock_file(db, "cup-2.b") == folder / "cup-2.b.lock"
    for name in ("../../escape", ".hidden", "x" * 300, "two words", "/", ""):
        path = lock_file(db, name)
        assert path.parent == folder and len(path.name) < 100
        with claimed(db, name, "tournament run"):
            assert path.exists()
    assert lock_file(db, "../a") != lock_file(db, "../b")


def test_an_in_memory_database_needs_no_claim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with claimed(":memory:", "cup", "tournament run"), claimed(":memory:", "cup", "x"):
        refuse_if_claimed(":memory:", "cup", "tournament run")
    assert list(tmp_path.iterdir()) == []


def test_a_look_creates_nothing(tmp_path: Path) -> None:
    refuse_if_claimed(str(tmp_path / "cup.sqlite"), "cup", "tournament run")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "content",
    [
        b"\xff not json",
        b"[1, 2]",
        b'{"pid": -1, "host": "h", "command": "c", "started": 0}',
        b'{"pid": 1, "host": "two\\nlines", "command": "c", "started": 0}',
        b'{"pid": 1, "host": "h", "command": "c", "started": NaN}',
        b'{"pid": 1, "host": "h", "command": "c", "started": 1e300}',
    ],
)
def test_an_unreadable_lock_file_still_refuses(tmp_path: Path, content: bytes) -> None:
    """Anyone may write that file: what it says never breaks the one line."""
    db = str(tmp_path / "cup.sqlite")
    with claimed(db, "cup", "tournament run"):
        lock_file(db, "cup").write_bytes(content)
        with pytest.raises(TournamentBusy, match="in use by another process;"):
            refuse_if_claimed(db, "cup", "tournament run")


def test_a_holder_named_in_the_file_that_is_gone_is_not_named(tmp_path: Path) -> None:
    """The file names the last process that could write it; a holder that could
    not (another user's file) leaves an older name there."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait(10)
    db = str(tmp_path / "cup.sqlite")
    with claimed(db, "cup", "tournament run"):
        stale = Holder(gone.pid, socket.gethostname(), "tournament run", 0.0)
        lock_file(db, "cup").write_text(json.dumps(asdict(stale)))
        with pytest.raises(TournamentBusy) as busy:
            refuse_if_claimed(db, "cup", "tournament run")
    assert busy.value.holder is None and "in use by another process;" in str(busy.value)


def test_a_file_where_the_lock_folder_goes_is_named_as_such(tmp_path: Path) -> None:
    """Once "(its lock folder …): File exists", which did not say what was wrong."""
    db = tmp_path / "cup.sqlite"
    (tmp_path / "cup.sqlite-locks").write_text("a file, not a folder")
    expected = (
        f"cannot claim tournament 'cup' in {db}: {db}-locks, where its lock folder goes, "
        "is not a folder; move it away and try again"
    )
    with pytest.raises(StoreError) as error, claimed(str(db), "cup", "tournament run"):
        pass
    assert str(error.value) == expected
    with pytest.raises(StoreError) as early:  # the look before a run's slow start
        refuse_if_claimed(str(db), "cup", "tournament run")
    assert str(early.value) == expected


def test_a_folder_where_the_lock_file_goes_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "cup.sqlite"
    lock_file(str(db), "cup").mkdir(parents=True)
    with pytest.raises(StoreError) as error, claimed(str(db), "cup", "tournament run"):
        pass
    assert str(error.value) == (
        f"cannot claim tournament 'cup' in {db} (its lock folder {db}-locks): "
        f"its lock file {db}-locks/cup.lock is a folder"
    )


def test_a_killed_holder_leaves_no_claim(tmp_path: Path) -> None:
    db = tmp_path / "cup.sqlite"
    holder = _holding_process(db, "cup")
    try:
        with pytest.raises(TournamentBusy) as busy, claimed(str(db), "cup", "tournament forget"):
            pass
        assert busy.value.holder is not None and busy.value.holder.pid == holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    with claimed(str(db), "cup", "tournament forget"):
        pass


def test_a_child_process_does_not_inherit_the_claim(tmp_path: Path) -> None:
    """A bot that outlives its runner (it ignores SIGTERM, the runner was
    SIGKILLed) must not keep the tournament claimed."""
    db = str(tmp_path / "cup.sqlite")
    with claimed(db, "cup", "tournament run"):
        child = subprocess.Popen(["sleep", "60"], close_fds=False)
    try:
        with claimed(db, "cup", "tournament run"):
            assert child.poll() is None
    finally:
        child.kill()
        child.wait(10)
