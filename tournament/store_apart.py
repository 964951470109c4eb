"""Writing a tournament database off the run's event loop.

A write waits for another process's lock on the file (another tournament's
runner storing a game in the same database, `tournament forget`, an open
sqlite3 shell) up to its lock wait, and a slow disk as long: on the run's
event loop, that wait stood the loop still, the games in play and a run's
in-process server with it. `written_apart` makes the write in a thread, on a
connection of its own (a sqlite3 connection belongs to the thread that
opened it), set up as the run's own is.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from typing import TypeVar

from tournament.store import Store, StoreError
from tournament.store_lock import LockWait
from tournament.store_open import set_up_for_writing
from tournament.store_read import file_uri

__all__ = ["written_apart"]

T = TypeVar("T")


async def written_apart(
    store: Store, write: Callable[[Store], T], wait: LockWait | None = None
) -> T:
    """`write(apart)`, a write to `store`'s database through `apart`, a Store
    on a connection of its own in a thread, waiting `wait` for another
    process's lock (None: as `store` waits). A database in memory is written
    where it is: no other connection sees it, nor holds its lock."""
    if store.path == ":memory:":
        return write(store)
    wait = wait or store.lock_wait
    if wait.on_wait is not None:  # said on the loop: a live progress line is drawn there
        wait = LockWait(wait.seconds, _on_loop(asyncio.get_running_loop(), wait.on_wait))
    return await asyncio.to_thread(_write, store.path, write, wait)


def _on_loop(
    loop: asyncio.AbstractEventLoop, say: Callable[[float], None]
) -> Callable[[float], None]:
    def said(seconds: float) -> None:
        loop.call_soon_threadsafe(say, seconds)

    return said


def _write(path: str, write: Callable[[Store], T], wait: LockWait) -> T:
    # Never created here ("rw"): a file deleted during the run would come back empty.
    try:
        connection = sqlite3.connect(file_uri(path, "rw"), uri=True, isolation_level=None)
    except sqlite3.Error as error:
        raise StoreError(f"cannot write {path}: {error}") from None
    with contextlib.closing(connection):
        set_up_for_writing(connection)
        return write(Store.on(path, connection, wait))
