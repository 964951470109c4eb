"""The file size limit (`ulimit -f`) named as the cause of a refused database
write only when it may be: one of the files SQLite writes is within one write
of it. With any limit set, every refusal once blamed it (a folder or disk
problem found first aside), however far below it the files were."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import server.files
from server.files import folder_hint, size_limit_reached
from server.storage import _with_cause

GIB = 1 << 30


def _limited(monkeypatch: pytest.MonkeyPatch, limit: int | None) -> None:
    monkeypatch.setattr(server.files, "file_size_limit", lambda: limit)


def _io_error() -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = sqlite3.SQLITE_IOERR  # type: ignore[attr-defined]
    return error


def test_a_limit_far_above_the_files_is_not_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "s.db"
    db.write_bytes(b"\0" * 8192)
    _limited(monkeypatch, GIB)
    assert size_limit_reached(db) is None
    assert folder_hint(str(db)) == ""
    assert _with_cause(_io_error(), str(db)) == "disk I/O error"


@pytest.mark.parametrize("suffix", ["", "-wal", "-journal"])
def test_a_file_within_a_write_of_the_limit_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    db = tmp_path / "s.db"
    Path(f"{db}{suffix}").write_bytes(b"\0" * (160 * 1024 - 1000))
    _limited(monkeypatch, 160 * 1024)
    assert size_limit_reached(db) == 160 * 1024
    assert (
        folder_hint(str(db))
        == " (this process may write files of 163,840 bytes at most: ulimit -f)"
    )
    assert _with_cause(_io_error(), str(db)) == (
        "disk I/O error; has a file reached the file size limit (163,840 bytes, ulimit -f)?"
    )


def test_a_limit_too_small_for_a_new_database_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its shared-memory index alone (32 KiB) is past a limit of 4 KiB."""
    _limited(monkeypatch, 4096)
    assert size_limit_reached(tmp_path / "new.db") == 4096


def test_no_limit_is_never_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _limited(monkeypatch, None)
    assert size_limit_reached(tmp_path / "new.db") is None
