"""The SQL of a server database's match rows: writing a match, its moves and its
end, and reading them back as records, each through the connection it is given.

`SqliteStore` (server/sqlite_store.py) owns the connections, their locks and the
file; `sheepfold db` and `sheepfold replay` read through a connection of their own
that cannot write (`load_match`, `match_counts`).
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from server.records import (
    ClockConfig,
    DamagedRecord,
    MatchRecord,
    MatchSummary,
    RecordedMove,
    StoredMatch,
)
from server.store import OVER, WouldWait


def insert_match(db: sqlite3.Connection, record: MatchRecord) -> None:
    db.execute(
        "INSERT INTO matches (match_id, game, players, options_json, seed,"
        " decision_seconds, time_bank_seconds, max_strikes, token_hashes_json,"
        " created_at, status, rules_version, seat_joined)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, 0)",
        (
            record.match_id,
            record.game,
            record.players,
            json.dumps(record.options, sort_keys=True),
            str(record.seed),
            record.clock.decision_seconds,
            record.clock.time_bank_seconds,
            record.clock.max_strikes,
            json.dumps(list(record.token_hashes)),
            record.created_at,
            record.rules_version,
        ),
    )


def insert_move(db: sqlite3.Connection, match_id: str, move: RecordedMove) -> None:
    db.execute(
        "INSERT INTO moves (match_id, move, seat, action_index, label, forced, bank)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (match_id, move.move, move.seat, move.index, move.label, move.forced, move.bank),
    )


def mark_joined(db: sqlite3.Connection, match_id: str, seat: int) -> None:
    db.execute(
        "UPDATE matches SET seat_joined = seat_joined | ? WHERE match_id = ?",
        (joined_bits(seat), match_id),
    )


# A game seats a few players; a seat past this one (never) is stored as "some
# seat joined" alone, within SQLite's 64-bit integers.
LAST_SEAT_STORED = 61


def joined_bits(seat: int) -> int:
    """What a join of `seat` sets in `matches.seat_joined`: bit 0 (1), "some seat
    joined", which is all a server before it read or wrote (a file stays
    readable by one), and bit `seat` + 1, that this seat did."""
    return 1 | (2 << seat) if 0 <= seat <= LAST_SEAT_STORED else 1


def seats_joined(stored: object, players: int) -> frozenset[int]:
    """The seats `matches.seat_joined` says joined (none for a value of a server
    that kept no seats, 1, or one edited by hand that is no whole number)."""
    if type(stored) is not int:
        return frozenset()
    return frozenset(seat for seat in range(players) if stored & joined_bits(seat) > 1)


def mark_finished(
    db: sqlite3.Connection, match_id: str, status: str, result: bytes, end_reason: str
) -> None:
    db.execute(
        "UPDATE matches SET status = ?, result = ?, end_reason = ?, finished_at = ?,"
        " move_count = (SELECT COUNT(*) FROM moves WHERE match_id = ?)"
        " WHERE match_id = ?",
        (status, result, end_reason, time.time(), match_id, match_id),
    )


class SqliteQuickWrites:
    """The writes on the event loop's connection, which never waits for a lock:
    each is one statement (a transaction of its own) or `WouldWait`."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock | None) -> None:
        self._db = db
        self._lock = lock  # the shared connection's, for an in-memory database

    def create_match(self, record: MatchRecord) -> None:
        self._now(insert_match, record)

    def record_move(self, match_id: str, move: RecordedMove) -> None:
        self._now(insert_move, match_id, move)

    def record_joined(self, match_id: str, seat: int) -> None:
        self._now(mark_joined, match_id, seat)

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None:
        self._now(mark_finished, match_id, status, result, end_reason)

    def _now(self, write: Callable[..., None], *args: Any) -> None:
        lock = self._lock
        if lock is not None and not lock.acquire(blocking=False):
            raise WouldWait
        try:
            write(self._db, *args)
        except sqlite3.OperationalError:
            # Busy or locked (it would have to wait), or full or failing I/O (to
            # retry): either way the writer thread's to make, as it waits and retries.
            raise WouldWait from None
        finally:
            if lock is not None:
                lock.release()


def readable_summary(row: Sequence[object]) -> MatchSummary | None:
    """The row's summary, or None for a damaged row (a listing leaves it out;
    reading that match alone says it is damaged)."""
    try:
        return row_summary(row)
    except DamagedRecord:
        return None


def row_summary(row: Sequence[object]) -> MatchSummary:
    try:
        return _parsed_summary(row)
    # OverflowError: int() of an infinite REAL raised it, before _whole refused one.
    except (ValueError, TypeError, AttributeError, OverflowError) as error:
        game = row[1] if isinstance(row[1], str) else None
        raise DamagedRecord(str(row[0]), str(error) or type(error).__name__, game) from None


def _parsed_summary(row: Sequence[object]) -> MatchSummary:
    (
        match_id,
        game,
        players,
        options_json,
        seed,
        decision_seconds,
        time_bank_seconds,
        max_strikes,
        token_hashes_json,
        created_at,
        status,
        result,
        end_reason,
        move_count,
        rules_version,
        _seat_joined,  # not part of a summary: `stored_match` reads it
    ) = row
    if not isinstance(game, str):
        # Not str(game): a blob (kept as it is in a TEXT column) was read as a
        # game called "b'...'".
        raise TypeError(f"the game is not a name but a {type(game).__name__}: {game!r:.40}")
    options = json.loads(str(options_json))
    if not isinstance(options, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in options.items()
    ):
        raise ValueError(f"options are not names and texts: {str(options_json)[:80]}")
    hashes = json.loads(str(token_hashes_json))
    if not isinstance(hashes, list) or not all(isinstance(h, str) for h in hashes):
        raise ValueError("the seat token hashes are not a list of texts")
    if status not in ("running", *OVER):
        raise ValueError(f"unknown status {str(status)[:40]!r}")
    if result is not None and not isinstance(result, bytes):
        # Not bytes(result): of a number that is as many zero bytes (0 an empty
        # result that parses, 2**63 - 1 an OverflowError).
        raise TypeError(f"the result is not a blob but {type(result).__name__}")
    record = MatchRecord(
        match_id=str(match_id),
        game=game,
        players=_whole("players", players),
        options=options,
        seed=int(str(seed)),
        clock=ClockConfig(
            decision_seconds=_seconds("decision_seconds", decision_seconds),
            time_bank_seconds=_seconds("time_bank_seconds", time_bank_seconds),
            max_strikes=_whole("max_strikes", max_strikes),
        ),
        token_hashes=tuple(hashes),
        created_at=_finite("created_at", created_at),
        rules_version=_whole("rules_version", rules_version),
    )
    return MatchSummary(
        record=record,
        status=str(status),
        result=result,
        end_reason=str(end_reason),
        moves=_whole("move_count", move_count),
    )


def _whole(column: str, value: object) -> int:
    """An INTEGER column's value. Not int(value): a REAL kept in it (2.7, edited
    by hand) was read as 2, and 1e999 raised OverflowError."""
    if isinstance(value, int):
        return value
    raise ValueError(f"{column} is not a whole number: {str(value)[:40]}")


def _finite(column: str, value: object) -> float:
    """A REAL column's value. Not float(value): it took inf (1e999, or the
    text 'inf') as a time, and a clock of it as a deadline never reached."""
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    raise ValueError(f"{column} is not a finite number: {str(value)[:40]}")


def _seconds(column: str, value: object) -> float:
    """A clock's REAL column: finite and not negative, as CreateMatch takes it."""
    seconds = _finite(column, value)
    if seconds < 0:
        raise ValueError(f"{column} is negative: {seconds:g}")
    return seconds


SELECT_MATCH = (
    "SELECT match_id, game, players, options_json, seed, decision_seconds,"
    " time_bank_seconds, max_strikes, token_hashes_json, created_at, status, result,"
    " end_reason, move_count, rules_version, seat_joined FROM matches"
)


def load_match(db: sqlite3.Connection, match_id: str) -> StoredMatch | None:
    """The match `match_id` as stored in the server database `db` is connected to
    (None when there is none), read through that connection alone: a
    connection that cannot write reads it as well (`sheepfold replay`)."""
    row = db.execute(f"{SELECT_MATCH} WHERE match_id = ?", (match_id,)).fetchone()
    return None if row is None else stored_match(db, row)


def stored_match(db: sqlite3.Connection, row: Sequence[object]) -> StoredMatch:
    summary = row_summary(row)
    *_, seat_joined = row
    moves = [
        RecordedMove(move, seat, index, label, forced, bank)
        for move, seat, index, label, forced, bank in db.execute(
            "SELECT move, seat, action_index, label, forced, bank FROM moves"
            " WHERE match_id = ? ORDER BY move",
            (summary.record.match_id,),
        )
    ]
    return StoredMatch(
        record=summary.record,
        moves=moves,
        status=summary.status,
        result=summary.result,
        end_reason=summary.end_reason,
        seat_joined=bool(seat_joined),
        joined_seats=seats_joined(seat_joined, summary.record.players),
    )


def match_counts(db: sqlite3.Connection) -> dict[str, int]:
    """Matches by status, and every recorded move (`moves`), in a server's database
    (`sheepfold db info` reads them through a connection that cannot write)."""
    found = dict(db.execute("SELECT status, COUNT(*) FROM matches GROUP BY status"))
    found["moves"] = db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    return {str(k): int(v) for k, v in found.items()}
