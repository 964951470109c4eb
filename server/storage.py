"""The server's only way to its store: no call waits on the event loop.

Writes go, in the order they were asked for, through one writer thread and a
queue, except that a match's writes (creating it, its first join, its moves,
its end) are made straight from the event loop when that needs no waiting (no
other thread or process holds the database's write lock), since the hand-off
to a thread and back costs several times the insert itself; a write that would
wait joins the queue instead.
A write that fails because the database is busy or locked (another process
holds its write lock, the disk is full) is retried until it is made:
a match waits for its move to be written before it asks for the next decision,
so a slow database slows matches down and never loses or kills one. A write
with a deadline (creating a match) gives up instead, with `StoreUnavailable`.
Reads run on a few reader threads (server/store_reads.py); in WAL mode they
do not wait for writes.

While writes are failing the worker reports the store unhealthy (the server's
health check says NOT_SERVING) and reports it healthy again once one succeeds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import structlog

from server.files import size_limit_reached
from server.page_tokens import Position
from server.records import DamagedRecord, MatchRecord, MatchSummary, RecordedMove, StoredMatch
from server.store import Store, WouldWait
from server.store_errors import (
    DAMAGED_CODES,
    TRANSIENT,
    StoreRefused,
    StoreUnavailable,
)
from server.store_reads import READ_REST, StoreReads

T = TypeVar("T")

RETRY_FIRST, RETRY_MAX = 0.05, 1.0
# A write failing with these may need room the write-ahead log holds: a full disk,
# or (a bare "disk I/O error") a file at the process's file size limit.
_NO_ROOM = (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)
# Writes made on the event loop between two checkpoints of the write-ahead log.
CHECKPOINT_EVERY = 1000
# Writes made on the event loop between two looks at whether the write-ahead log
# has outgrown the room left on its disk (Store.needs_room). The look is made on
# the loop (two file system calls, about 3 us) and the writer thread is woken
# only to empty the log (Store.make_room): woken for every look, a job, a thread
# switch and the look itself on the writer thread came to more than the look.
ROOM_CHECK_EVERY = 16


@dataclass(slots=True)
class _Job:
    call: Callable[[], Any]
    what: str
    deadline: float | None  # time.monotonic(); None: retried until made
    # The match written (`match_id`, `game`), for every line logged about the write;
    # nothing for housekeeping, which is about no match.
    about: dict[str, str] = field(default_factory=dict)
    # Housekeeping (a checkpoint, making room) is no write of a move or a match:
    # sheepfold_db_write_seconds leaves it out.
    housekeeping: bool = False
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)
    _state: str = "queued"  # queued | running | abandoned
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def claim(self) -> bool:
        with self._lock:
            if self._state == "abandoned":
                return False
            self._state = "running"
            return True

    def abandon(self) -> bool:
        """Withdraw a job the writer has not started; False once it has."""
        with self._lock:
            if self._state == "running":
                return False
            self._state = "abandoned"
            return True


_STOP = object()


class StoreWorker:
    """Async access to a blocking `Store`."""

    def __init__(
        self,
        store: Store,
        *,
        write_timeout: float = 5.0,
        read_timeout: float = 5.0,
        readers: int = 2,
        read_rest: float = READ_REST,
        on_health: Callable[[bool], None] | None = None,
        on_written: Callable[[float], None] | None = None,
    ) -> None:
        self.store = store
        # Called on the writer thread with each write's seconds, waits for a lock included.
        self.on_written = on_written
        self.write_timeout = write_timeout
        self.healthy = True
        # SQLite's message once a write found the file damaged; health stays
        # NOT_SERVING from then on.
        self.damaged: str | None = None
        self.on_health = on_health
        self.log = structlog.get_logger("sheepfold.storage")
        self._queue: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        self._stopping = False
        self._close_deadline = float("inf")
        # Writes given up at shutdown, blocked past the grace (counted by the writer).
        self._dropped = 0
        # What the writer last retried on, with its likely cause.
        self._last_error = "database is locked; is another process holding it?"
        self._writing = False  # the writer thread is making a write
        self._written_now = 0  # writes made on the loop since the last checkpoint
        self._log_held = False  # the last checkpoint found a reader holding the log
        self._quick = store.quick_writes()
        open_readers = getattr(store, "open_readers", None)
        if open_readers is not None:
            open_readers(readers)  # now, while the file's name surely leads to it
        self._reads = StoreReads(
            readers,
            timeout=read_timeout,
            rest=read_rest,
            initializer=getattr(store, "take_reader", None),
        )
        set_busy = getattr(store, "set_busy_timeout", None)
        if set_busy is not None:
            # Short waits inside SQLite, so the writer notices a lock and reports it.
            set_busy(0.25)
        self._writer = threading.Thread(
            target=self._write_forever, name="sheepfold-store-write", daemon=True
        )
        self._writer.start()

    @property
    def pending_writes(self) -> int:
        """Writes queued behind the one being made (approximate, for logs)."""
        return self._queue.qsize()

    @property
    def unwritten(self) -> int:
        """Writes not made yet: the one being made or retried, and those queued
        behind it. A lone move waiting on a lock or a full disk counts."""
        return self._queue.qsize() + int(self._writing)

    # ------------------------------------------------------------ writes

    # A match waits for each of its writes before it goes on, so its writes stay in
    # order whichever way each one goes: made at once on the event loop when no
    # lock is in the way, else queued for the writer thread, which waits. Its
    # join alone is not waited for: it only ever sets a flag, in any order.

    # Each names the match's game as well as its id, for the lines logged about
    # the write: a restored match is never created here, and a table of games
    # by match id kept by the worker would only grow.

    def create_match_now(self, record: MatchRecord) -> bool:
        """Written at once if no lock is in the way; False (nothing written) if not."""
        about = _about(record.match_id, record.game)
        return self._write_now(self._quick.create_match, "create match", about, record)

    async def create_match(self, record: MatchRecord) -> None:
        """Written within `write_timeout`, or StoreUnavailable and nothing written."""
        if self.create_match_now(record):
            return
        about = _about(record.match_id, record.game)
        await self._write(lambda: self.store.create_match(record), "create match", about, True)

    async def record_move(self, match_id: str, move: RecordedMove, *, game: str) -> None:
        about = _about(match_id, game)
        if self._write_now(self._quick.record_move, "record move", about, match_id, move):
            return
        await self._write(
            lambda: self.store.record_move(match_id, move), "record move", about, False
        )

    def record_joined(self, match_id: str, seat: int, *, game: str) -> None:
        """That `seat` of the match joined; nobody waits for it, as a join must not
        wait for the database. Made at once when no lock is in the way, else
        queued for the writer thread, which retries it until it is made. Should
        the server die before it is: a restored match with a move counts as
        joined anyway, one with none is aborted as nobody's (see Match._run)."""
        about = _about(match_id, game)
        try:
            if self._write_now(self._quick.record_joined, "record a join", about, match_id, seat):
                return
        except StoreRefused:
            return  # logged; only a restart of a match with no move loses by it
        if self._stopping:
            return  # the writer may have stopped: as if the server had died now
        join = _Job(lambda: self.store.record_joined(match_id, seat), "record a join", None, about)
        self._queue.put(join)

    async def finish_match(
        self, match_id: str, status: str, result: bytes, end_reason: str, *, game: str
    ) -> None:
        args = (match_id, status, result, end_reason)
        about = _about(match_id, game)
        if self._write_now(self._quick.finish_match, "finish match", about, *args):
            return
        await self._write(lambda: self.store.finish_match(*args), "finish match", about, False)

    def _write_now(
        self, write: Callable[..., None], what: str, about: dict[str, str], *args: Any
    ) -> bool:
        """`write` made on the event loop if no lock is in the way; False when it
        would have to wait (nothing written). A hand-off to the writer thread and
        back costs several times the insert itself."""
        if self._stopping:
            return False
        started = time.monotonic()
        try:
            write(*args)
        except WouldWait:
            return False
        except sqlite3.Error as error:
            raise self._refused(error, what, about) from None
        if not self.healthy and not self._writing:
            self._set_health(True)
        if self.on_written is not None:
            self.on_written(time.monotonic() - started)
        self._written_now += 1
        if self._written_now % ROOM_CHECK_EVERY == 0 and self.store.needs_room():
            self._housekeeping(self.store.make_room, "make room")
        if self._written_now >= CHECKPOINT_EVERY:
            self._written_now = 0
            self._housekeeping(self._checkpoint, "checkpoint")
        return True

    def _checkpoint(self) -> None:
        """The store's checkpoint, and a warning once while another process's read
        keeps the write-ahead log growing: nothing else said so, and the log's
        file grew past its 16 MB by every write until the disk was full."""
        held = self.store.checkpoint()
        if held and not self._log_held:
            path = getattr(self.store, "path", "the database")
            self.log.warning(
                "write-ahead log held by another process's read",
                path=f"{path}-wal",
                log_bytes=held,
                problem="another process has kept a read transaction open on the "
                "database since before the log began (an sqlite3 shell left in BEGIN, "
                "a long report or backup), so the log cannot start again and grows by "
                "every write",
                advice="end that transaction: the next checkpoint then starts the log "
                "again and cuts its file back",
            )
        elif not held and self._log_held:
            self.log.info("write-ahead log started again after a read held it")
        self._log_held = held > 0

    def _housekeeping(self, call: Callable[[], None], what: str) -> None:
        self._queue.put(_Job(call, what, time.monotonic() + 60, housekeeping=True))

    async def prune(self, finished_before: float | None, keep: int | None, batch: int) -> int:
        return int(
            await self._write(
                lambda: self.store.prune(finished_before, keep, batch), "prune", {}, True
            )
        )

    async def _write(
        self, call: Callable[[], T], what: str, about: dict[str, str], bounded: bool
    ) -> T:
        if self._stopping:
            raise StoreUnavailable("the server is shutting down")
        deadline = time.monotonic() + self.write_timeout if bounded else None
        job = _Job(call, what, deadline, about)
        self._queue.put(job)
        waiting = asyncio.wrap_future(job.future)
        # Nobody may await it any more (its match cancelled at shutdown); how it
        # ended is logged by the writer, not again as "exception never retrieved".
        waiting.add_done_callback(_seen)
        if not bounded:
            # A cancelled match (shutdown) must not withdraw a move: it is still written.
            return await asyncio.shield(waiting)
        try:
            return await asyncio.wait_for(asyncio.shield(waiting), self.write_timeout)
        except TimeoutError:
            if job.abandon():
                raise StoreUnavailable(self._unavailable(what)) from None
        return await waiting  # already running: its own deadline ends it soon

    def _unavailable(self, what: str) -> str:
        return (
            f"the database cannot be written now ({self._last_error}): could not {what} "
            f"within {self.write_timeout:g} s; nothing was written, try again"
        )

    def _write_forever(self) -> None:
        while True:
            try:
                probing = not self.healthy and self.damaged is None
                job = self._queue.get(timeout=RETRY_MAX if probing else None)
            except queue.Empty:
                self._probe()
                continue
            if job is _STOP:
                return
            assert isinstance(job, _Job)
            self._writing = True
            try:
                if job.claim():
                    self._run(job)
            finally:
                self._writing = False

    def _run(self, job: _Job) -> None:
        started = time.monotonic()
        delay = RETRY_FIRST
        waiting_since: float | None = None
        while True:
            try:
                result = job.call()
            except TRANSIENT as error:
                now = time.monotonic()
                self._last_error = _with_cause(error, getattr(self.store, "path", None))
                if waiting_since is None:
                    waiting_since = now
                    self.log.warning(
                        "database write waiting",
                        what=job.what,
                        **job.about,
                        error=self._last_error,
                        pending=self.pending_writes,
                    )
                self._set_health(False)
                if getattr(error, "sqlite_errorcode", 0) & 0xFF in _NO_ROOM:
                    self.store.make_room()  # the log may hold what the write needs
                if (job.deadline is not None and now + delay > job.deadline) or (
                    self._stopping and job.deadline is None and self._gave_up(job)
                ):
                    job.future.set_exception(StoreUnavailable(self._unavailable(job.what)))
                    return
                time.sleep(delay)
                delay = min(RETRY_MAX, delay * 2)
                continue
            except sqlite3.Error as error:
                job.future.set_exception(self._refused(error, job.what, job.about))
                return
            except BaseException as error:  # a bug: the caller sees it
                job.future.set_exception(error)
                return
            if waiting_since is not None:
                self.log.info(
                    "database write made after waiting",
                    what=job.what,
                    **job.about,
                    waited_seconds=round(time.monotonic() - waiting_since, 3),
                )
            self._set_health(True)
            if self.on_written is not None and not job.housekeeping:
                self.on_written(time.monotonic() - started)
            job.future.set_result(result)
            return

    def _refused(self, error: sqlite3.Error, what: str, about: dict[str, str]) -> StoreRefused:
        """A write the database refused for good, logged. A damaged file (its
        pages malformed, or no database at all any more) refuses every write
        that reaches the damage: health turns NOT_SERVING for good, as every
        write failing says, where it once said SERVING to the end."""
        self.log.error("database refused a write", what=what, **about, error=str(error))
        if getattr(error, "sqlite_errorcode", 0) & 0xFF in DAMAGED_CODES and self.damaged is None:
            self.damaged = str(error)
            path = getattr(self.store, "path", "the database")
            self.log.error(
                "database file damaged",
                path=path,
                error=self.damaged,
                problem="SQLite found the file's pages damaged (a disk fault, bytes "
                "overwritten by another program): writes that reach them are refused, and "
                "the matches they end are failed",
                advice="stop the server, then serve your last backup of the file, or what "
                f"sqlite3 recovers of it in a new file (sqlite3 {path} .recover | "
                "sqlite3 NEW.db)",
            )
            if self.healthy:  # without `_set_health`'s line: the server does not wait
                self.healthy = False
                if self.on_health is not None:
                    self.on_health(False)
        return StoreRefused(f"the database refused to {what}: {error}")

    def _probe(self) -> None:
        """While unhealthy with no write to make (the write that failed had a
        deadline, a `CreateMatch`): a write that changes nothing, and healthy
        again once it is made. Health once waited for the next write of a match,
        and a server with none in play stayed NOT_SERVING after the lock or the
        full disk was gone, out of a readiness probe's rotation for good."""
        if self._stopping:
            return
        try:
            self.store.probe_write()
        except TRANSIENT as error:
            self._last_error = _with_cause(error, getattr(self.store, "path", None))
            if getattr(error, "sqlite_errorcode", 0) & 0xFF in _NO_ROOM:
                self.store.make_room()
            return
        except sqlite3.Error:
            return  # refused for good: the next write of a match says so
        self._set_health(True)

    def _gave_up(self, job: _Job) -> bool:
        """At shutdown a write still blocked past the close deadline is dropped."""
        if time.monotonic() < self._close_deadline:
            return False
        self.log.error("database write dropped at shutdown", what=job.what, **job.about)
        self._dropped += 1
        return True

    def _set_health(self, healthy: bool) -> None:
        if healthy and self.damaged is not None:
            return  # for good: a damaged file does not mend itself
        if healthy != self.healthy:
            self.healthy = healthy
            if not healthy:
                self.log.warning("database unavailable for writes; the server waits")
            else:
                self.log.info("database writable again")
            if self.on_health is not None:
                self.on_health(healthy)

    # ------------------------------------------------------------ reads

    async def load(self, match_id: str) -> StoredMatch | None:
        return await self._reads.run(lambda: self.store.load(match_id))

    async def summary(self, match_id: str) -> MatchSummary | None:
        return await self._reads.run(lambda: self.store.summary(match_id))

    async def recent(
        self, game: str, status: str, limit: int, after: Position | None = None
    ) -> list[MatchSummary]:
        return await self._reads.run(lambda: self.store.recent(game, status, limit, after))

    async def run(self, call: Callable[[], T]) -> T:
        """Any blocking work that reads (rebuilding a stored match) on a reader thread."""
        return await self._reads.run(call)

    @property
    def reads_waiting(self) -> int:
        """Reads in line for a reader thread."""
        return self._reads.waiting

    def unfinished(self) -> list[StoredMatch | DamagedRecord]:
        """Blocking: for starting up, before the server serves anyone."""
        return self.store.unfinished()

    # ------------------------------------------------------------ closing

    async def close(self, timeout: float = 10.0) -> int:
        """Write what is queued (waiting up to `timeout` for a locked database),
        then close the store. Returns how many writes were left unwritten: those
        dropped, blocked past `timeout`, and those the writer never reached. The
        dropped once went uncounted, so a stop that lost moves exited 0."""
        self._stopping = True
        self._close_deadline = time.monotonic() + timeout
        self._queue.put(_STOP)
        await asyncio.to_thread(self._writer.join, timeout + 2 * RETRY_MAX)
        if self._writer.is_alive():
            unwritten = self.pending_writes
            self.log.error("database writer did not stop", unwritten=unwritten)
            # The writer still holds the store: closing it would break it.
            return max(self._dropped + unwritten, 1)
        await asyncio.to_thread(self._reads.shutdown)
        await asyncio.to_thread(self.store.close)
        return self._dropped


class MatchWriter(Protocol):
    """What a match writes while it runs; `game` is the match's, for the log."""

    async def record_move(self, match_id: str, move: RecordedMove, *, game: str) -> None: ...

    def record_joined(self, match_id: str, seat: int, *, game: str) -> None: ...

    async def finish_match(
        self, match_id: str, status: str, result: bytes, end_reason: str, *, game: str
    ) -> None: ...


class InlineWriter:
    """Writes straight into a blocking store: for a match driven without a
    server (tests, tools) on a store that never blocks, such as MemoryStore."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def record_move(self, match_id: str, move: RecordedMove, *, game: str) -> None:
        self.store.record_move(match_id, move)

    def record_joined(self, match_id: str, seat: int, *, game: str) -> None:
        self.store.record_joined(match_id, seat)

    async def finish_match(
        self, match_id: str, status: str, result: bytes, end_reason: str, *, game: str
    ) -> None:
        self.store.finish_match(match_id, status, result, end_reason)


def match_writer(store: Store | StoreWorker) -> MatchWriter:
    return store if isinstance(store, StoreWorker) else InlineWriter(store)


def _about(match_id: str, game: str) -> dict[str, str]:
    """The fields naming a match on every line logged about one of its writes."""
    return {"match_id": match_id, "game": game}


def _with_cause(error: sqlite3.Error, path: str | None = None) -> str:
    """SQLite's message for a write it would not make now, and the likely cause:
    a full disk was once reported as "database or disk is full; is another
    process holding it?". The file size limit is named only when a file of the
    database at `path` is within a write of it (any I/O error once named it)."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code == sqlite3.SQLITE_FULL:
        return f"{error}; is the disk holding it full?"
    limit = None if path is None or path == ":memory:" else size_limit_reached(path)
    if code == sqlite3.SQLITE_IOERR and limit is not None:
        return f"{error}; has a file reached the file size limit ({limit:,} bytes, ulimit -f)?"
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return f"{error}; is another process holding it?"
    return str(error)


def _seen(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
