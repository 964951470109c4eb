"""Files a user names (a certificate, a config, a database): what kind of file
is there, and reading a regular file of bounded size. /dev/zero would be read
until memory runs out and opening a FIFO waits for a writer, so the kind is
looked at before anything is read. Callers word the errors their own way."""

from __future__ import annotations

import enum
import os
import resource
import shutil
import stat
from pathlib import Path

# What "1 MB" means for every file a user names: far beyond any real
# certificate or config, and small enough to read at once.
MAX_USER_FILE_BYTES = 1024 * 1024
# The files SQLite keeps beside a database `DB`, named `DB` and one of these.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


class Kind(enum.Enum):
    MISSING = "missing"
    FOLDER = "folder"
    OTHER = "other"  # a device, a FIFO, a socket: no file to read
    REGULAR = "regular"


def kind_of(mode: int) -> Kind:
    """The kind of an existing file, from its `st_mode`."""
    if stat.S_ISDIR(mode):
        return Kind.FOLDER
    return Kind.REGULAR if stat.S_ISREG(mode) else Kind.OTHER


def file_kind(path: str | Path) -> Kind:
    """What is at `path`; looks only, nothing is opened. Raises OSError for
    anything but a missing file (a name too long, a folder that may not be read)."""
    try:
        return kind_of(os.stat(path).st_mode)
    except FileNotFoundError:
        return Kind.MISSING


def not_a_database_file(path: str | Path) -> str | None:
    """Why no SQLite database can be at `path`, as the rest of a sentence about
    it ("is a folder, not a database file"), or None. Looks only. SQLite would
    say just "unable to open database file", or open /dev/null and write
    /dev/null-journal beside it. A path that cannot be looked at is left to
    whatever opens it to report."""
    try:
        kind = file_kind(path)
    except OSError:
        return None
    if kind is Kind.FOLDER:
        return "is a folder, not a database file"
    if kind is Kind.OTHER:
        return "is not a regular file, so it cannot hold a database"
    return None


def create_owner_only(path: str | Path) -> bool:
    """Create the file at `path`, empty and readable by its owner only, unless
    something is there already (an existing file keeps the mode its operator
    gave it). For a database that holds secrets (the seeds of running matches,
    a tournament's deal secret): SQLite would create it world-readable under
    the usual umask, and makes its -wal and -shm files with the mode of the
    database file. A path that cannot be created is left to SQLite to report.
    A symbolic link to nothing yet is followed, as SQLite follows it: O_EXCL
    alone refuses any link, and SQLite then made the file it points to
    world-readable. True when this call created the file."""
    if os.path.islink(path) and not os.path.exists(path):
        path = os.path.realpath(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except OSError:
        return False
    os.close(fd)
    return True


class NotRegular(Exception):
    """The file opened is not a regular one."""

    def __init__(self, kind: Kind) -> None:
        super().__init__(kind.value)
        self.kind = kind


class TooLarge(Exception):
    """The file holds more than it may."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(f"more than {max_bytes:,} bytes")
        self.max_bytes = max_bytes


def read_regular(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of the regular file at `path`, at most `max_bytes` of them.
    Its kind is checked once it is open (O_NONBLOCK: a FIFO does not wait for a
    writer), so nothing can be swapped in between. Raises NotRegular, TooLarge,
    or OSError when it cannot be opened or read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    # Looked at before it is wrapped: a folder cannot be made a file object.
    kind = kind_of(os.fstat(fd).st_mode)
    if kind is not Kind.REGULAR:
        os.close(fd)
        raise NotRegular(kind)
    with os.fdopen(fd, "rb") as file:
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(max_bytes)
    return data


class UnusablePem(Exception):
    """A PEM file (certificate, key, authority) that cannot be read; the message
    says why in a few words, for the caller to put after the file's name."""


def read_pem(path: str | Path) -> bytes:
    """The bytes of a PEM file a user named: a regular file of at most
    MAX_USER_FILE_BYTES (a certificate chain and its key are a few kilobytes)."""
    try:
        return read_regular(path, MAX_USER_FILE_BYTES)
    except OSError as error:
        raise UnusablePem(error.strerror or str(error)) from None
    except NotRegular:
        raise UnusablePem("not a regular file") from None
    except TooLarge:
        raise UnusablePem("larger than a PEM file can be (1 MB)") from None


def access_refused(path: str | Path, *, write: bool) -> bool:
    """True when the file at `path` is there but this user may not open it to
    read (or to read and write): its mode, owner or ACL, or a folder on the way
    that may not be entered. SQLite says only "unable to open database file".
    Opening changes nothing (no O_CREAT, no O_TRUNC; O_NONBLOCK: a FIFO does not
    wait); a read-only mount (EROFS) is not a refusal of the user."""
    flags = (os.O_RDWR if write else os.O_RDONLY) | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except PermissionError:
        return True
    except OSError:
        return False
    os.close(fd)
    return False


def access_hint(path: str | Path, *, write: bool) -> str:
    """' (permission denied: ...)' to put after SQLite's error, or ''."""
    if not access_refused(path, write=write):
        return ""
    allowed = "read and write" if write else "read"
    return f" (permission denied: this user may not {allowed} {path})"


# Less free than this beside a database that SQLite refused: the disk is full.
LOW_DISK_BYTES = 1 << 20


def folder_hint(db: str) -> str:
    """Why SQLite may have refused a file: this user may not open it, its
    folder is missing, or cannot be
    written (it takes the database's -wal and -shm files), or its disk is full, or it
    is on a file system such as /proc that holds no files, or the process may write
    only small files (SQLite says only "disk I/O error" or "unable to open
    database file")."""
    refused = access_hint(db, write=True)
    if refused:
        return refused
    folder = os.path.dirname(os.path.abspath(db))
    link = ""
    if os.path.islink(db):  # SQLite opens what it leads to: a link to a folder not there
        folder = os.path.dirname(os.path.realpath(db))
        link = f": {db} is a link to {os.path.realpath(db)}"
    if not os.path.isdir(folder):
        return f" (there is no folder {folder}{link})"
    if not os.access(folder, os.W_OK):
        return (
            f" (the folder {folder} cannot be written, and SQLite keeps files beside the database)"
        )
    companion = _odd_companion(os.path.realpath(db))
    if companion:
        return companion
    try:
        usage = shutil.disk_usage(folder)
    except OSError:
        return ""
    if usage.total == 0:  # /proc, /sys: no room at all, and never any
        return f" (the folder {folder} cannot hold files: its file system, like /proc, has no room)"
    if usage.free < LOW_DISK_BYTES:
        return f" (the disk holding {folder} is full: {usage.free} bytes free)"
    limit = size_limit_reached(db)
    if limit is not None:
        return f" (this process may write files of {limit:,} bytes at most: ulimit -f)"
    return ""


def _odd_companion(db: str) -> str:
    """' (DB-wal is a folder ...)' when one of the files SQLite keeps beside the
    database is not a file it can open: it said only "unable to open database
    file", of a database that was there and readable."""
    for suffix in SQLITE_COMPANIONS:
        companion = db + suffix
        if os.path.lexists(companion) and not os.path.isfile(companion):
            what = "a folder" if os.path.isdir(companion) else "not a regular file"
            return (
                f" ({companion} is {what}: SQLite keeps its own file of that name beside "
                "the database; move it away)"
            )
        if os.path.isfile(companion) and access_refused(companion, write=True):
            return f" (permission denied: this user may not read and write {companion})"
    return ""


def file_size_limit() -> int | None:
    """The largest file this process may write, in bytes (`ulimit -f`, systemd's
    LimitFSIZE, `docker run --ulimit fsize=`), or None when there is none. Past it
    a write fails with EFBIG (Python ignores SIGXFSZ), which SQLite reports as a
    bare "disk I/O error"."""
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return None if limit == resource.RLIM_INFINITY else limit


# What SQLite writes past a file's end at once, at most: a page of the largest
# size with its write-ahead log frame header, and the 32 KiB its shared-memory
# index (-shm) grows by.
_LARGEST_STEP = 65536 + 24
_SHM_STEP = 32768


def size_limit_reached(db: str | Path) -> int | None:
    """The file size limit (file_size_limit) when it may be what refused a
    write to the SQLite database at `db`: one of the files SQLite writes (the
    database, its -wal, -journal or -shm) is within one write of it; None
    otherwise (no limit, or every file far below it: a limit set for other
    reasons is no cause of a full disk's or a permission's failure)."""
    limit = file_size_limit()
    if limit is None:
        return None
    for suffix, step in (
        ("", _LARGEST_STEP),
        ("-wal", _LARGEST_STEP),
        ("-journal", _LARGEST_STEP),
        ("-shm", _SHM_STEP),
    ):
        try:
            size = os.stat(f"{db}{suffix}").st_size
        except OSError:
            size = 0  # a file not there yet is made from nothing
        if size + step > limit:
            return limit
    return None
