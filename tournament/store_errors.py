"""What the tournament database's users raise and catch when it cannot be used."""

from __future__ import annotations

import sqlite3

__all__ = ["NoSuchTournament", "StoreError", "StoreLocked", "is_busy"]


class StoreError(RuntimeError):
    """The database cannot be used for this tournament: its message names the
    file and what differs (a command shows it as it is, with no path before it)."""


class NoSuchTournament(StoreError):
    """The database holds no tournament of the name asked for (or none at all)."""


class StoreLocked(StoreError):
    """Another process held the database locked for longer than the wait."""


def is_busy(error: BaseException) -> bool:
    """Whether SQLite gave up waiting for another connection's lock."""
    return isinstance(error, StoreLocked) or (
        isinstance(error, sqlite3.OperationalError)
        and getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    )
