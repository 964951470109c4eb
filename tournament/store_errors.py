"""What the tournament database's users raise and catch when it cannot be used."""

from __future__ import annotations

import sqlite3

__all__ = ["NoSuchTournament", "StoreError", "StoreLocked", "is_busy", "latest_error"]


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


def latest_error(damaged: StoreError, others: list[str]) -> StoreError:
    """A command asked for the latest tournament when a damaged row may be it:
    the row's error, and the flag that reads the others (named, so that the
    user can type it: "by its name" once left them to guess how)."""
    one = len(others) == 1
    named = others[0] if one else f"NAME ({', '.join(others)})"
    return StoreError(
        f"{damaged}; meanwhile {'the other tournament' if one else 'the others'} in the "
        f"file can be read with --tournament {named}"
    )
