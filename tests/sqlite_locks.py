"""Another connection holding a SQLite database's locks, as a test needs it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path


@contextmanager
def write_locked(database: Path) -> Iterator[sqlite3.Connection]:
    """A second connection holding the write lock (RESERVED, as an `sqlite3`
    shell in BEGIN IMMEDIATE holds it) until the block ends, or until the test
    rolls it back through the connection yielded."""
    with closing(sqlite3.connect(database, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        try:
            yield other
        finally:
            if other.in_transaction:
                other.execute("ROLLBACK")
