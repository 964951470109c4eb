"""Where matches are kept. The server writes every action before it asks for
the next decision, so a store that survives a crash lets the server restore
every unfinished match by replaying seed and actions.

A store is plain blocking code; the server calls it through
`server.storage.StoreWorker` (one writer thread, reader threads), and from its
event loop only through `quick_writes`, which never wait.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from sortedcontainers import SortedList

from server.page_tokens import Position
from server.records import DamagedRecord, MatchRecord, MatchSummary, RecordedMove, StoredMatch

OVER = ("finished", "aborted")
ANY_OVER = "over"  # a `recent` status: finished or aborted


class WouldWait(Exception):
    """A quick write refused because it would have had to wait for a lock (or be
    retried: a full disk); nothing was written."""


class QuickWrites(Protocol):
    def create_match(self, record: MatchRecord) -> None: ...

    def record_move(self, match_id: str, move: RecordedMove) -> None: ...

    def record_joined(self, match_id: str, seat: int) -> None: ...

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None: ...


class Store(Protocol):
    def create_match(self, record: MatchRecord) -> None: ...

    def record_move(self, match_id: str, move: RecordedMove) -> None: ...

    def record_joined(self, match_id: str, seat: int) -> None:
        """`seat` of the match joined (written once a seat, at its first join)."""
        ...

    def quick_writes(self) -> QuickWrites:
        """A match's writes made at once or refused with `WouldWait`, never waiting
        for a lock: the server calls these on its event loop, and hands a refused
        write to its writer thread, which waits."""
        ...

    def checkpoint(self) -> int:
        """Housekeeping after many quick writes (on the writer thread). Returns
        the bytes of a log that another process's reading keeps from being
        started again (0 when nothing does)."""
        ...

    def needs_room(self) -> bool:
        """Whether `make_room` has space to give back now: a look that takes no
        lock and writes nothing (on the event loop, every few quick writes, so
        the writer thread is woken only when there is something to do)."""
        ...

    def make_room(self) -> None:
        """Give back disk space the store holds and does not need (on the writer
        thread, when `needs_room` says so and while the disk is full); never raises."""
        ...

    def probe_write(self) -> None:
        """A write that changes nothing the server reads, failing as a real one
        would while writes cannot be made (a lock, a full disk): how the writer
        thread learns that they can be again when no write of a match is waiting."""
        ...

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None: ...

    def load(self, match_id: str) -> StoredMatch | None: ...

    def summary(self, match_id: str) -> MatchSummary | None: ...

    def unfinished(self) -> list[StoredMatch | DamagedRecord]:
        """Every running match; a row that cannot be read back as its DamagedRecord."""
        ...

    def recent(
        self, game: str, status: str, limit: int, after: Position | None = None
    ) -> list[MatchSummary]:
        """The newest matches, newest first and, created together, by match_id;
        empty `game`/`status` match all, `status` ANY_OVER both "finished" and
        "aborted"; only those after `after` in that order when it is given."""
        ...

    def prune(self, finished_before: float | None, keep: int | None, batch: int) -> int:
        """Delete at most `batch` finished or aborted matches that ended before
        `finished_before` or are older than the newest `keep` of them; returns
        how many went."""
        ...

    def close(self) -> None: ...


def summarize(stored: StoredMatch) -> MatchSummary:
    return MatchSummary(
        stored.record, stored.status, stored.result, stored.end_reason, len(stored.moves)
    )


class MemoryStore:
    """Keeps everything in this process: lost when the server stops."""

    def __init__(self) -> None:
        self._matches: dict[str, StoredMatch] = {}
        # Every match's Position, in a listing's order, by (game, status), either
        # "" for any: ListMatches's filters, as SqliteStore's indexes by status
        # and by game, so that a page costs about what it lists.
        self._listings: dict[tuple[str, str], SortedList] = {}
        # The finished and aborted matches in the order they ended, with when
        # (time.time()), so that a pruning batch by age costs about what it
        # deletes (as the file's index makes it); by count it reads the oldest
        # off the end of their listings.
        self._finished_at: dict[str, float] = {}
        # The server's writer and reader threads share it.
        self._lock = threading.Lock()

    def create_match(self, record: MatchRecord) -> None:
        with self._lock:
            self._create_match(record)

    def record_move(self, match_id: str, move: RecordedMove) -> None:
        with self._lock:
            self._record_move(match_id, move)

    def record_joined(self, match_id: str, seat: int) -> None:
        with self._lock:
            self._record_joined(match_id, seat)

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None:
        with self._lock:
            self._finish_match(match_id, status, result, end_reason)

    def quick_writes(self) -> QuickWrites:
        return _QuickMemoryWrites(self, self._lock)

    def checkpoint(self) -> int:
        return 0

    def needs_room(self) -> bool:
        return False

    def make_room(self) -> None:
        pass

    def probe_write(self) -> None:
        pass

    def _create_match(self, record: MatchRecord) -> None:
        stored = StoredMatch(record, seat_joined=False)
        self._matches[record.match_id] = stored
        self._list(record, ("", stored.status))

    def _list(self, record: MatchRecord, statuses: Iterable[str]) -> None:
        """`record` added to the listings of each of `statuses` ("" for any),
        of its game and of every game."""
        position = Position.of_record(record)
        for status in statuses:
            for game in ("", record.game):
                self._listings.setdefault((game, status), SortedList()).add(position)

    def _unlist(self, record: MatchRecord, status: str) -> None:
        """`record` taken out of the listings of `status` ("" for any)."""
        position = Position.of_record(record)
        for game in ("", record.game):
            self._listings[(game, status)].remove(position)

    def _record_move(self, match_id: str, move: RecordedMove) -> None:
        self._matches[match_id].moves.append(move)

    def _record_joined(self, match_id: str, seat: int) -> None:
        stored = self._matches.get(match_id)
        if stored is not None:  # as an UPDATE of a pruned row: nothing to mark
            stored.seat_joined = True
            stored.joined_seats |= {seat}

    def _finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None:
        stored = self._matches[match_id]
        if stored.status != status:
            self._unlist(stored.record, stored.status)
            self._list(stored.record, (status,))
        stored.status = status
        stored.result = result
        stored.end_reason = end_reason
        self._finished_at.pop(match_id, None)  # to the end of the order they ended in
        self._finished_at[match_id] = time.time()

    def load(self, match_id: str) -> StoredMatch | None:
        with self._lock:
            stored = self._matches.get(match_id)
            if stored is None:
                return None
            return StoredMatch(
                stored.record,
                list(stored.moves),
                stored.status,
                stored.result,
                stored.end_reason,
                stored.seat_joined,
                stored.joined_seats,
            )

    def summary(self, match_id: str) -> MatchSummary | None:
        with self._lock:
            stored = self._matches.get(match_id)
            return None if stored is None else summarize(stored)

    def unfinished(self) -> list[StoredMatch | DamagedRecord]:
        with self._lock:
            return [m for m in self._matches.values() if m.status == "running"]

    def recent(
        self, game: str, status: str, limit: int, after: Position | None = None
    ) -> list[MatchSummary]:
        with self._lock:
            listed = [
                self._listings.get((game, one), SortedList()).irange(after, inclusive=(False, True))
                for one in (OVER if status == ANY_OVER else (status,))
            ]
            # Finished and aborted merged, as SqliteStore merges them.
            positions = itertools.islice(heapq.merge(*listed), limit)
            return [summarize(self._matches[position.match_id]) for position in positions]

    def prune(self, finished_before: float | None, keep: int | None, batch: int) -> int:
        with self._lock:
            doomed: dict[str, None] = {}  # an ordered set
            if keep is not None:
                # The oldest (settled - keep), as the file's store counts them:
                # their listings' ends, merged.
                oldest = heapq.merge(
                    *(reversed(self._listings.get(("", over), SortedList())) for over in OVER),
                    reverse=True,
                )
                due = max(0, min(batch, len(self._finished_at) - keep))
                doomed = dict.fromkeys(p.match_id for p in itertools.islice(oldest, due))
            if finished_before is not None:
                # In the order they ended: the first that ended too lately to go
                # ends the look (a clock set back may leave one due behind it
                # until a later prune).
                for match_id, finished_at in self._finished_at.items():
                    if len(doomed) >= batch or finished_at >= finished_before:
                        break
                    doomed[match_id] = None
            for match_id in doomed:
                stored = self._matches.pop(match_id)
                del self._finished_at[match_id]
                self._unlist(stored.record, stored.status)
                self._unlist(stored.record, "")
            return len(doomed)

    def close(self) -> None:
        with self._lock:
            self._matches.clear()
            self._listings.clear()
            self._finished_at.clear()


class _QuickMemoryWrites:
    """MemoryStore's writes, refused while a reader thread holds its lock."""

    def __init__(self, store: MemoryStore, lock: threading.Lock) -> None:
        self._store = store
        self._lock = lock

    def create_match(self, record: MatchRecord) -> None:
        self._now(self._store._create_match, record)

    def record_move(self, match_id: str, move: RecordedMove) -> None:
        self._now(self._store._record_move, match_id, move)

    def record_joined(self, match_id: str, seat: int) -> None:
        self._now(self._store._record_joined, match_id, seat)

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None:
        self._now(self._store._finish_match, match_id, status, result, end_reason)

    def _now(self, write: Callable[..., None], *args: Any) -> None:
        if not self._lock.acquire(blocking=False):
            raise WouldWait
        try:
            write(*args)
        finally:
            self._lock.release()
