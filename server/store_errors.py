"""What the store's worker raises for a read or a write it could not make, and
which of SQLite's errors mean what: shared by its writes (server/storage.py)
and its reads (server/store_reads.py), and told to clients by the gRPC calls
(server/arena_calls.py) with the status each names."""

from __future__ import annotations

import sqlite3

# Transient: the database is busy, locked, full or briefly unreadable.
TRANSIENT = (sqlite3.OperationalError,)
# SQLite's primary codes for pages it cannot make sense of.
DAMAGED_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class StoreUnavailable(Exception):
    """A read or a write with a deadline could not be made in time; the client
    gets UNAVAILABLE with this message."""


class StoreCrowded(StoreUnavailable):
    """A read refused at once: its client address already has as many reads
    waiting as it may (or the server as many as it takes from every address).
    The client gets RESOURCE_EXHAUSTED with this message."""


class StoreRefused(Exception):
    """The database refused a write or a read for good (a constraint, a damaged
    file): retrying would not help. The client gets INTERNAL with this message."""


class StoreDamaged(StoreRefused):
    """A read met pages SQLite cannot make sense of (a damaged file, SQLITE_CORRUPT
    or SQLITE_NOTADB): the client gets DATA_LOSS, as for a damaged row, not INTERNAL,
    which says the server itself failed."""
