"""One process at a time per tournament: a claim that ends with its process.

`tournament run` and `tournament sprt` hold their tournament's claim while they
play, and `tournament forget` while it deletes. So no command deletes games
that a run is counting, and two runs never play the same missing games side by
side (the second would store none of them and report them as not done).

A claim is an exclusive flock on a small file named after the tournament, in a
folder beside the database (`cup.sqlite-locks/cup.lock`). The kernel drops a
flock when the process holding it ends, however it ends (SIGKILL included), so
a claim never outlives its process; the file stays and is reused. The bots a
run starts do not inherit it (the descriptor is close-on-exec). The file says
who holds it, for the refusal. SQLite's own locks are POSIX record locks,
which a flock does not touch; and every process using a WAL database must be
on one machine, so every one of them sees the flock.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from hashlib import sha256
from pathlib import Path

from tournament.store import StoreError

__all__ = ["Holder", "TournamentBusy", "claimed", "lock_file", "refuse_if_claimed"]

# A config's tournament names (tournament.config) are safe file names; any
# other (a database written by an older sheepfold) is hashed.
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+\-]{0,99}")


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a claim, as its lock file says."""

    pid: int
    host: str
    command: str  # "tournament run", "tournament sprt" or "tournament forget"
    started: float  # time.time()

    def describe(self) -> str:
        where = "" if self.host == socket.gethostname() else f" on {self.host}"
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.started))
        return f"process {self.pid}{where} (sheepfold {self.command}, since {since})"


class TournamentBusy(StoreError):
    """Another process holds the tournament's claim."""

    def __init__(self, database: str, tournament: str, holder: Holder | None) -> None:
        self.holder = holder
        who = holder.describe() if holder is not None else "another process"
        super().__init__(
            f"tournament {tournament!r} in {database} is in use by {who}; "
            "wait for it to finish (or stop it), then try again"
        )


def lock_file(database: str, tournament: str) -> Path:
    """The file whose flock is `tournament`'s claim in `database`: beside the
    database's real path, so every path to the same file finds the same claim."""
    real = Path(database).resolve()
    if _PLAIN.fullmatch(tournament):
        stem = tournament
    else:
        stem = sha256(tournament.encode()).hexdigest()[:32]
    return real.with_name(f"{real.name}-locks") / f"{stem}.lock"


@contextmanager
def claimed(database: str, tournament: str, command: str) -> Iterator[None]:
    """Hold `tournament`'s claim in `database` for the block; TournamentBusy when
    another process holds it. An in-memory database is nobody else's."""
    if database == ":memory:":
        yield
        return
    fd = _take(database, tournament, command)
    try:
        yield
    finally:
        os.close(fd)


def refuse_if_claimed(database: str, tournament: str, command: str) -> None:
    """TournamentBusy when another process holds the claim now: a look before
    a run's slow start (a server, a Ray cluster). Only `claimed` excludes."""
    if database == ":memory:":
        return
    path: Path | None = None
    try:
        path = lock_file(database, tournament)
        fd = _open(path, create=False)
    except (OSError, RuntimeError) as error:
        if path is not None and _in_the_way(path, error):  # refused before the slow start
            raise _cannot_claim(database, tournament, error, path) from None
        return  # never claimed, or a path `claimed` (or the store) will explain
    try:
        _lock(fd, database, tournament, command)
    finally:
        os.close(fd)


def _take(database: str, tournament: str, command: str) -> int:
    """An open descriptor holding the claim (closing it lets go)."""
    path: Path | None = None
    try:
        path = lock_file(database, tournament)
        path.parent.mkdir(exist_ok=True)
        fd = _open(path, create=True)
    except (OSError, RuntimeError) as error:  # RuntimeError: a symbolic link loop
        raise _cannot_claim(database, tournament, error, path) from None
    try:
        _lock(fd, database, tournament, command)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open(path: Path, create: bool) -> int:
    """The lock file, to write its holder into; read-only when another user
    made it (a flock needs no more, but the file keeps naming an earlier holder,
    which `_read` leaves out once that process is gone)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CLOEXEC | (os.O_CREAT if create else 0), 0o666)
    except PermissionError:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)


def _cannot_claim(
    database: str, tournament: str, error: BaseException, path: Path | None = None
) -> StoreError:
    """One line for a claim that cannot be taken. Something other than a folder
    where the lock folder goes (a file, say) is named as such: mkdir says only
    "File exists", and opening a lock file under it "Not a directory"."""
    folder = path.parent if path is not None else f"{database}-locks"
    why = getattr(error, "strerror", None) or error
    if path is not None and _in_the_way(path, error):
        return StoreError(
            f"cannot claim tournament {tournament!r} in {database}: {folder}, where its "
            "lock folder goes, is not a folder; move it away and try again"
        )
    if path is not None and isinstance(error, IsADirectoryError):
        why = f"its lock file {path} is a folder"
    return StoreError(
        f"cannot claim tournament {tournament!r} in {database} (its lock folder {folder}): {why}"
    )


def _in_the_way(path: Path, error: BaseException) -> bool:
    """Whether `error` came of something other than a folder where the lock
    folder goes (not of a database path whose own folder is missing)."""
    return (
        isinstance(error, (FileExistsError, NotADirectoryError))
        and path.parent.exists()
        and not path.parent.is_dir()
    )


def _lock(fd: int, database: str, tournament: str, command: str) -> None:
    """Flock `fd` at once and write this process into it, or TournamentBusy."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise TournamentBusy(database, tournament, _read(fd)) from None
    except OSError as error:
        raise _cannot_claim(database, tournament, error) from None
    holder = Holder(os.getpid(), socket.gethostname(), command, time.time())
    data = json.dumps(asdict(holder)).encode()
    # Written over the old holder, then cut: a reader never finds the file empty.
    # A disk too full for it costs only the name in a refusal, not the claim.
    with suppress(OSError):
        os.pwrite(fd, data, 0)
        os.ftruncate(fd, len(data))


def _read(fd: int) -> Holder | None:
    """The holder a lock file names; None when it names none, or a process
    of this machine that is gone (a holder that could not write the file)."""
    try:
        text = os.pread(fd, 4096, 0).decode()
        data, _ = json.JSONDecoder().raw_decode(text)  # a longer old holder's tail may follow
        holder = Holder(
            pid=int(data["pid"]),
            host=str(data["host"]),
            command=str(data["command"]),
            started=float(data["started"]),
        )
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if not _plausible(holder):
        return None
    return holder if holder.host != socket.gethostname() or _alive(holder.pid) else None


def _plausible(holder: Holder) -> bool:
    """Whether a holder read from the file can be shown in one line (anyone may
    have written that file)."""
    return (
        holder.pid > 0
        and 0 <= holder.started < 1e11
        and all(text.isprintable() and len(text) <= 255 for text in (holder.host, holder.command))
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process, or a number too large to ask about
    return True
