"""Waiting for another process's lock on a database: how long, the one line a
command says when the wait begins, and the StoreLocked when it runs out.

Every command that opens a tournament database (`run`, `sprt`, `forget`,
`report`) and `replay` wait the same way, up to their `--wait SECONDS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from tournament.store_errors import StoreLocked, is_busy

__all__ = ["LOCK_WAIT_SECONDS", "NOTICE_SECONDS", "SILENT_WAIT", "LockWait", "waiting_for_lock"]

# How long a command waits for another process's lock by default, and after how
# long of it a command says that it is waiting (a lock held that long is no
# runner's brief write: the user may be waiting on a forgotten process).
LOCK_WAIT_SECONDS = 30.0
NOTICE_SECONDS = 1.0

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class LockWait:
    """How long to wait for another process's lock on the file, and what to
    call once it has been waited for a moment (waiting_for_lock)."""

    seconds: float = LOCK_WAIT_SECONDS
    on_wait: Callable[[float], None] | None = None


SILENT_WAIT = LockWait()  # the default wait, said nowhere


def waiting_for_lock(
    path: str | Path,
    attempt: Callable[[float], T],
    wait: float = LOCK_WAIT_SECONDS,
    on_wait: Callable[[float], None] | None = None,
) -> T:
    """`attempt(timeout)`, a use of the database at `path` that waits up to
    `timeout` seconds for another process's lock: when `on_wait` is given and
    the lock is still held after NOTICE_SECONDS, `on_wait(wait)` is called (a
    command says it waits, and how long at most) and the attempt made again
    for the rest of `wait`. StoreLocked, naming the file and what to do, when
    the lock was held throughout."""
    first = min(NOTICE_SECONDS, wait) if on_wait is not None else wait
    try:
        return attempt(first)
    except Exception as error:
        if not is_busy(error):
            raise
        if first >= wait:
            raise _locked(path, wait) from None
    assert on_wait is not None
    on_wait(wait)
    try:
        return attempt(wait - first)
    except Exception as error:
        if is_busy(error):
            raise _locked(path, wait) from None
        raise


def _locked(path: str | Path, wait: float) -> StoreLocked:
    return StoreLocked(
        f"{path} is locked by another process and stayed locked for {wait:g} s: find the "
        "process that holds it (a tournament run, `tournament forget`, an open sqlite3 "
        "shell), then try again, or wait longer with --wait SECONDS"
    )
