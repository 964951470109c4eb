"""The default store: one SQLite file in WAL mode, through the standard library.

Every action is committed as it is applied (`record_move`), before the match
asks for the next decision, so a server killed at any moment restores each
unfinished match by replaying its seed and actions. With WAL and
`synchronous=NORMAL` a commit survives the process dying (SIGKILL, crash); only
a power cut can lose the last few commits (see docs/operations.md).

Writes go through one connection (the server's writer thread); reads use one
connection per reading thread, so in WAL mode a read never waits for a write,
not even for another process holding the write lock.

The schema and its migrations are in server/sqlite_schema.py, the SQL that writes
and reads a match's rows in server/sqlite_rows.py.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
import urllib.parse
from pathlib import Path

from games.words import count
from server import db_file
from server.files import create_owner_only, file_size_limit, not_a_database_file
from server.page_tokens import Position
from server.records import DamagedRecord, MatchRecord, MatchSummary, RecordedMove, StoredMatch
from server.sqlite_rows import (
    SELECT_MATCH,
    SqliteQuickWrites,
    insert_match,
    insert_move,
    load_match,
    mark_finished,
    mark_joined,
    match_counts,
    readable_summary,
    row_summary,
    stored_match,
)
from server.sqlite_schema import (
    StoreError,
    check_server_columns,
    check_server_tables,
    migrate,
)
from server.store import ANY_OVER, OVER, QuickWrites

# The write-ahead log is started again by the checkpoint that finds it longer
# than this, and its file cut back to this length when it is.
LOG_LIMIT_BYTES = 16 * 1024 * 1024
WAL_FRAME_HEADER_BYTES = 24


def _log_outgrows_disk(path: str) -> bool:
    """Whether the write-ahead log of the database at `path` is larger than the
    room left for it: on its disk, or under the process's file size limit, which
    it reached alone as it reached a small disk (False when either cannot be read)."""
    try:
        log = os.stat(path + "-wal").st_size
        disk = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    room = disk.f_bavail * disk.f_frsize
    limit = file_size_limit()
    if limit is not None:
        # The log is one file under the limit: it is emptied once it holds half of
        # it, so the room it has left is as much as it has grown to. Why half and
        # not "within one write of the limit" (what names the limit as an error's
        # cause, server.files.size_limit_reached): the log is looked at every 16
        # writes (server.storage.ROOM_CHECK_EVERY), and what they add has no bound
        # (a page per table and index touched, a match's record at once). A
        # write that does reach the limit is not lost (it waits and is retried
        # after this empties the log), but the server says NOT_SERVING and logs
        # a warning meanwhile, which a margin as large as the log avoids for a
        # few milliseconds of emptying it sooner. The disk is weighed the same way:
        # the log against the room left beside it.
        room = min(room, limit - log)
    return log > room


class UnreadableMatches(StoreError):
    """The unfinished matches of a damaged file cannot be read: the server cannot start on it."""


class SqliteStore:
    """Matches, their actions and results in one SQLite file."""

    def __init__(
        self, path: str | Path, *, busy_timeout: float = 5.0, serving: bool = False
    ) -> None:
        """`serving`: this is a server's store, and no other server may serve the
        same file at the same time (StoreError if one does)."""
        self.path = str(path)
        problem = None if self.path == ":memory:" else not_a_database_file(self.path)
        if problem is not None:
            raise StoreError(f"it {problem}")
        self._busy_ms = int(busy_timeout * 1000)
        fresh: tuple[str, ...] = ()  # the files this start makes, none there before
        if self.path != ":memory:":
            absent = _absent_files(self.path)
            if create_owner_only(self.path):  # it holds the seeds of running matches
                fresh = absent
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._claim: int | None = None
        self.saved_copy: str | None = None
        self.save_failed: str | None = None
        if serving and self.path != ":memory:":
            try:
                self._claim = _claim(self.path)
            except StoreError:  # another server's file now: none of it is ours to remove
                self._db.close()
                raise
        self._beside: tuple[tuple[str, str, int, int], ...] = ()
        try:
            self._open(serving)
            if self._claim is not None:
                self._beside = _files_beside(self.path)
        except BaseException:
            # A file this start made and could not finish (a full disk) goes: a
            # 0-byte or half-made one was left for the next start to trip on.
            for made in fresh:
                with contextlib.suppress(OSError):
                    os.unlink(made)
            raise

    def _open(self, serving: bool) -> None:
        self._lock = threading.Lock()
        self._readers = threading.local()
        self._page_bytes: int | None = None
        self._reader_connections: list[sqlite3.Connection] = []
        self._spare_readers: list[sqlite3.Connection] = []  # opened, no thread's yet
        self._db.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        try:  # before anything is written: another program's file stays as it is
            check_server_tables(self._db, self.path)
            check_server_columns(self._db, self.path)
        except StoreError:
            self.close()
            raise
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(f"PRAGMA journal_size_limit={LOG_LIMIT_BYTES}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self.version = migrate(self._db)
            if serving:
                _check_writable(self._db, self._busy_ms)
        except sqlite3.OperationalError as error:
            self.close()
            if is_read_only(error):  # a file to migrate, or a journal to switch
                raise cannot_write(error) from None
            raise
        except StoreError:
            self.close()
            raise
        self._quick = self._db if self.path == ":memory:" else self._quick_connection()

    def _quick_connection(self) -> sqlite3.Connection:
        """The event loop's own connection (`quick_writes`): it never waits for a
        lock, and never checkpoints (an fsync); `checkpoint` does that elsewhere."""
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=0)
        db.execute("PRAGMA busy_timeout=0")
        db.execute("PRAGMA synchronous=NORMAL")
        # The write that starts the log again cuts its file back (see `checkpoint`).
        db.execute(f"PRAGMA journal_size_limit={LOG_LIMIT_BYTES}")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA wal_autocheckpoint=0")
        return db

    def set_busy_timeout(self, seconds: float) -> None:
        """How long one write waits for another process's lock before it fails
        (the server's writer retries, so it keeps this short)."""
        with self._lock:
            self._db.execute(f"PRAGMA busy_timeout={int(seconds * 1000)}")

    def open_readers(self, count: int) -> None:
        """`count` read connections opened now, while the file's name surely leads
        to it, for the reader threads to take (`_reader`). A thread once opened
        its own by name at its first read: after the file was renamed or deleted
        under the server it found none, and every read of a stored match answered
        UNAVAILABLE until a restart, while the server's writes went on."""
        if self.path == ":memory:":
            return
        for _ in range(count):
            try:
                db = self._read_connection()
                # Its first read opens the write-ahead log and its index, by name too.
                db.execute("SELECT version FROM schema_version LIMIT 1").fetchall()
            except sqlite3.Error:
                return  # the threads left without one open their own, as before
            with self._lock:
                self._spare_readers.append(db)

    def take_reader(self) -> None:
        """On a reader thread as it starts: a connection `open_readers` opened
        becomes this thread's (other threads, such as the start's restore, open
        their own, and take none of those)."""
        with self._lock:
            if self._spare_readers and getattr(self._readers, "db", None) is None:
                self._readers.db = self._spare_readers.pop()

    def _reader(self) -> sqlite3.Connection:
        """This thread's read connection (the writer's own for an in-memory file)."""
        if self.path == ":memory:":
            return self._db
        db: sqlite3.Connection | None = getattr(self._readers, "db", None)
        if db is None:
            db = self._read_connection()
            self._readers.db = db
        return db

    def _read_connection(self) -> sqlite3.Connection:
        # Never creates the file: one deleted under a running server must not
        # come back empty, for the next server to start on without a word.
        uri = f"file:{urllib.parse.quote(os.path.abspath(self.path))}?mode=rw"
        db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        db.execute("PRAGMA query_only=ON")
        with self._lock:
            self._reader_connections.append(db)
        return db

    # ------------------------------------------------------------ writes

    def create_match(self, record: MatchRecord) -> None:
        with self._lock:
            insert_match(self._db, record)

    def record_move(self, match_id: str, move: RecordedMove) -> None:
        with self._lock:
            insert_move(self._db, match_id, move)

    def record_joined(self, match_id: str, seat: int) -> None:
        with self._lock:
            mark_joined(self._db, match_id, seat)

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None:
        with self._lock:
            mark_finished(self._db, match_id, status, result, end_reason)

    def quick_writes(self) -> QuickWrites:
        return SqliteQuickWrites(self._quick, self._lock if self._quick is self._db else None)

    def checkpoint(self) -> int:
        """Copy the write-ahead log into the database file (the quick connection
        never checkpoints itself), and have the log started again once it holds
        more than `LOG_LIMIT_BYTES`.

        A passive checkpoint never holds a write up, but it leaves the log to be
        started again by the next write that finds it wholly copied, and under
        steady load a quick write always lands while the checkpoint runs: the log
        grew by every write for as long as the load lasted (75 MB in 20 seconds
        of ten matches). A RESTART checkpoint copies the few pages written since
        and holds writes off meanwhile (3-4 ms at 100 matches); the next write
        then starts the log from its beginning, and `journal_size_limit` cuts
        its file back to the limit. Emptying the file instead (TRUNCATE) held
        writes off three times as long, each quick write in that time handed to
        the writer thread and its match waiting: at 100 matches 3% of moves,
        and the p99 round trip doubled.

        Returns the log's bytes when it is past the limit and another
        connection's read transaction, begun on an older state of the file,
        keeps its pages from being copied and the log from starting again (an
        `sqlite3` shell left in `BEGIN`): until it ends, the log grows by every
        write. 0 otherwise.
        """
        with self._lock:
            _, log_frames, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            log_bytes = log_frames * self._frame_bytes()
            if log_bytes <= LOG_LIMIT_BYTES:
                return 0
            busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
            # A passive checkpoint waits for no lock: only an older reader's pages stop it.
            return log_bytes if busy and copied < log_frames else 0

    def _frame_bytes(self) -> int:
        """The length of one frame of the write-ahead log: a page and its header."""
        if self._page_bytes is None:
            self._page_bytes = int(self._db.execute("PRAGMA page_size").fetchone()[0])
        return self._page_bytes + WAL_FRAME_HEADER_BYTES

    def needs_room(self) -> bool:
        """Whether the write-ahead log has grown past the room left for it (two
        file system calls, no lock: `make_room` looks again under its lock)."""
        return _log_outgrows_disk(self.path)

    def make_room(self) -> None:
        """Empty the write-ahead log once it has grown past the room left on its
        disk. The log grows by every write (a move adds a few KB of pages) until
        a checkpoint, and a checkpoint comes every 1,000 writes: on a disk with
        less room than that the log alone filled it, the matches' data a few
        dozen KB, and the server then waited for space for ever. A checkpoint
        that cannot be made now (no room even for the pages it copies, a lock)
        is left for the next call."""
        with self._lock:
            if not _log_outgrows_disk(self.path):
                return
            with contextlib.suppress(sqlite3.OperationalError):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def probe_write(self) -> None:
        """The file's `user_version` (which the server never reads) written again
        as it is: SQLite writes the page that holds it even so, so this needs
        the write lock and room in the log as a move does."""
        with self._lock:
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            self._db.execute(f"PRAGMA user_version = {version}")

    def prune(self, finished_before: float | None, keep: int | None, batch: int) -> int:
        """Delete old finished and aborted matches, at most `batch` in one transaction."""
        over = "status IN ('finished', 'aborted')"
        # Each part is limited to a batch, so the union (which drops a match both
        # name) reads at most two batches, however many matches are due.
        parts, params = [], []
        if finished_before is not None:
            parts.append(
                f"SELECT * FROM (SELECT match_id FROM matches WHERE {over}"
                " AND COALESCE(finished_at, created_at) < ? LIMIT ?)"
            )
            params += [finished_before, batch]
        if keep is not None:
            # The matches past the newest `keep` are the oldest (settled - keep):
            # counted on the index, then read oldest first. Selecting those
            # "not among the newest keep" sorted every settled match and
            # listed `keep` of them for every batch of 200: with
            # --keep-finished 100000, a fifth of a second a batch, every live
            # match's writes waiting behind it. max(0, ...): a negative LIMIT
            # is no limit at all.
            parts.append(
                f"SELECT * FROM (SELECT match_id FROM matches WHERE {over} ORDER BY created_at"
                f" LIMIT max(0, min(?, (SELECT COUNT(*) FROM matches WHERE {over}) - ?)))"
            )
            params += [batch, keep]
        if not parts:
            return 0
        with self._lock, self._db:
            doomed = self._db.execute(
                f"{' UNION '.join(parts)} LIMIT ?", (*params, batch)
            ).fetchall()
            if not doomed:
                return 0
            self._db.executemany("DELETE FROM moves WHERE match_id = ?", doomed)
            deleted = self._db.executemany("DELETE FROM matches WHERE match_id = ?", doomed)
            if deleted.rowcount < len(doomed):
                # A damaged index of match ids lists no match the table holds:
                # deleting by id deletes nothing and raises nothing, and the
                # same matches were selected again, batch after batch, for ever.
                missing = len(doomed) - deleted.rowcount
                raise sqlite3.DatabaseError(
                    f"its index of match ids is damaged: {missing} of "
                    f"{count(len(doomed), 'match', 'matches')} to delete "
                    f"{'was' if missing == 1 else 'were'} not found by id (back the file up, "
                    "then run sqlite3 on it with 'REINDEX;' and 'PRAGMA integrity_check;')"
                )
        return len(doomed)

    def vacuum(self) -> None:
        """Give the space of deleted matches back to the file system."""
        with self._lock:
            # Only VACUUM waits for a writer's lock (and fails, locked, past the busy
            # timeout). A TRUNCATE checkpoint before it also waited the timeout out,
            # for a writer or a mere reader, and then reported busy instead of
            # raising, so a locked file took twice --wait to give up on.
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    # ------------------------------------------------------------ reads

    def counts(self) -> dict[str, int]:
        """Matches by status, and every recorded move (`moves`)."""
        return match_counts(self._reader())

    def load(self, match_id: str) -> StoredMatch | None:
        return load_match(self._reader(), match_id)

    def summary(self, match_id: str) -> MatchSummary | None:
        row = self._reader().execute(f"{SELECT_MATCH} WHERE match_id = ?", (match_id,)).fetchone()
        return None if row is None else row_summary(row)

    def unfinished(self) -> list[StoredMatch | DamagedRecord]:
        """Every match still running, oldest first; a row that cannot be read
        back is there as its DamagedRecord, so one row cannot stop the rest."""
        db = self._reader()
        found: list[StoredMatch | DamagedRecord] = []
        try:
            query = f"{SELECT_MATCH} WHERE status = 'running' ORDER BY created_at"
            for row in db.execute(query).fetchall():
                try:
                    found.append(stored_match(db, row))
                except DamagedRecord as damaged:
                    found.append(damaged)
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError):  # locked, I/O: not the file's pages
                raise
            # Pages SQLite cannot read (a disk fault, bytes overwritten): which
            # matches are unfinished cannot be known, so none can be restored.
            raise UnreadableMatches(
                f"its unfinished matches cannot be read ({error}): the file is damaged; "
                "serve your last backup of it, or what sqlite3 recovers of it in a new "
                f"file (sqlite3 {self.path} .recover | sqlite3 NEW.db)"
            ) from None
        return found

    def recent(
        self, game: str, status: str, limit: int, after: Position | None = None
    ) -> list[MatchSummary]:
        """The newest matches, optionally of one game and one status, and only
        those after `after` (server/page_tokens.py). A row that cannot be read
        back is left out, and rows after it read in its place: a listing one
        short said it was the last page."""
        found: list[MatchSummary] = []
        while True:
            wanted = limit - len(found)
            rows = self._newest_rows(game, status, wanted, after)
            readable = [summary for summary in map(readable_summary, rows) if summary is not None]
            found += readable
            if len(rows) < wanted or len(readable) == len(rows):
                return found  # the file has no more, or nothing was left out
            last = rows[-1]
            created_at = last[_CREATED_AT]
            if not isinstance(created_at, float | int):
                return found  # no place to read on from
            after = Position.of(float(created_at), str(last[_MATCH_ID]))

    def _newest_rows(
        self, game: str, status: str, limit: int, after: Position | None
    ) -> list[tuple[object, ...]]:
        if status == ANY_OVER and not game:
            # One status at a time, each read in its index's order as far as
            # `limit`, then merged: `status IN (...)` with match_id breaking ties
            # sorted every match over in the file (23 ms a call at 50,000 of
            # them, 2.5 ms so).
            finished, params = _newest(game, OVER[0], limit, after)
            aborted, more = _newest(game, OVER[1], limit, after)
            query = f"SELECT * FROM ({finished}) UNION ALL SELECT * FROM ({aborted}){_NEWEST_FIRST}"
            params += [*more, limit]
        else:
            query, params = _newest(game, status, limit, after)
        return self._reader().execute(query, params).fetchall()

    def file_problem(self) -> str | None:
        """A serving store's file deleted or replaced under its name (server/db_file.py)."""
        if self._claim is None:
            return None
        return db_file.file_problem(self.path, self._claim) or db_file.beside_problem(self._beside)

    def close(self) -> None:
        """Close; a serving store whose file was deleted or replaced first copies
        what it holds into a new file (`saved_copy`, or `save_failed`)."""
        with self._lock:
            if self.file_problem() is not None:
                try:
                    self.saved_copy = db_file.save_copy(self._db, self.path)
                except (OSError, sqlite3.Error) as error:
                    self.save_failed = str(error)
            for db in self._reader_connections:
                db.close()
            self._reader_connections.clear()
            self._spare_readers.clear()
            quick = getattr(self, "_quick", self._db)
            if quick is not self._db:
                quick.close()
            self._db.close()
            if self._claim is not None:
                os.close(self._claim)  # the file is free for another server
                self._claim = None


_NEWEST_FIRST = " ORDER BY created_at DESC, match_id LIMIT ?"
_MATCH_ID, _CREATED_AT = 0, 9  # of SELECT_MATCH's columns


def _newest(game: str, status: str, limit: int, after: Position | None) -> tuple[str, list[object]]:
    """The query of `SqliteStore.recent`, and its parameters."""
    clauses: list[str] = []
    params: list[object] = []
    if game:
        clauses.append("game = ?")
        params.append(game)
    if status == ANY_OVER:
        clauses.append("status IN (?, ?)")
        params.extend(OVER)
    elif status:
        clauses.append("status = ?")
        params.append(status)
    if after is not None:
        # The first clause alone is what the indexes on created_at can seek to.
        clauses.append("created_at <= ? AND (created_at < ? OR match_id > ?)")
        params.extend([after.created_at, after.created_at, after.match_id])
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    return f"{SELECT_MATCH}{where}{_NEWEST_FIRST}", [*params, limit]


def _check_writable(db: sqlite3.Connection, busy_ms: int) -> None:
    """StoreError when the file can be read but not written (a read-only file
    or folder, a read-only mount): SQLite then opens it read-only without a
    word, and the server would start only to refuse every match. A file merely
    busy with another process's write is left to the writer's retries."""
    db.execute("PRAGMA busy_timeout=0")  # busy is not read-only: do not wait to find out
    try:
        # A write that changes nothing: in WAL mode taking the write lock alone
        # succeeds on a read-only file; opening a write transaction does not.
        db.execute("BEGIN IMMEDIATE")
        db.execute("DELETE FROM schema_version WHERE 0")
    except sqlite3.OperationalError as error:
        if is_read_only(error):
            raise cannot_write(error) from None
    finally:
        if db.in_transaction:
            db.execute("ROLLBACK")
        db.execute(f"PRAGMA busy_timeout={busy_ms}")


def is_read_only(error: sqlite3.Error) -> bool:
    return getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_READONLY


def cannot_write(error: sqlite3.Error) -> StoreError:
    return StoreError(f"it cannot be written ({error}): a read-only file, folder or mount")


def _claim(path: str) -> int:
    """An exclusive flock on the database file, held until closed. SQLite's own
    locks are POSIX record locks, which a flock does not touch: readers, backups
    and `sheepfold db` go on as before; only a second server is refused. Two
    servers on one file would both restore its unfinished matches and play
    them twice."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreError(
            "another sheepfold server is serving this file (one server per file)"
        ) from None
    return fd


def _files_beside(path: str) -> tuple[tuple[str, str, int, int], ...]:
    """SQLite's -wal and -shm files beside a serving store's file, as opened:
    (what, name, device, inode) of each."""
    found = []
    for what, name in (("write-ahead log", f"{path}-wal"), ("shared memory", f"{path}-shm")):
        with contextlib.suppress(OSError):
            now = os.stat(name)
            found.append((what, name, now.st_dev, now.st_ino))
    return tuple(found)


def _absent_files(path: str) -> tuple[str, ...]:
    """Of the database file and SQLite's -wal and -shm beside it, those not there."""
    return tuple(p for p in (path, f"{path}-wal", f"{path}-shm") if not os.path.lexists(p))
