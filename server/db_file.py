"""The database file a running server holds, watched for being deleted or replaced.

SQLite keeps writing to the file it opened, whatever happens to its name: a
database deleted (`rm`, a clean-up job, a volume emptied) or moved aside while
the server runs goes on taking every move and result, and all of it is lost
when the server stops, while the next server starts on an empty file (or on
whatever took the name) without a word. Before this, nothing said so: reads
opened afresh failed with "no such table: matches" ("try again"), and a second
`serve` could start on the new file beside the first.

So the server compares the file under its `--db` name with the one it holds,
and SQLite's -wal and -shm names with the files beside it that SQLite opened
(server/file_watch.py): once one differs it says so in one error line, turns
health NOT_SERVING and takes no new match; the matches it plays go on. When it
stops, it copies everything it holds into a new file: at the `--db` name when
nothing is there (its folder made again if it went too), else beside it, else
in the temporary folder, so a restart (after moving the copy into place) loses
nothing.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator

from server.file_identity import name_problem
from server.files import SQLITE_COMPANIONS


def file_problem(path: str, held: int) -> str | None:
    """What became of the file at `path` that `held` (an open descriptor of it)
    was opened on, or None while the name still leads to it."""
    was = os.fstat(held)
    return name_problem(path, was.st_dev, was.st_ino)


def beside_problem(beside: tuple[tuple[str, str, int, int], ...]) -> str | None:
    """What became of SQLite's -wal or -shm file (`beside`: what, name, device,
    inode of each as opened), or None while both are as they were. SQLite keeps
    them for as long as the server runs; one deleted under it (a clean-up of
    leftover-looking files) takes every write since the last checkpoint with it
    should the server be killed, and a program opening the database then makes
    new ones that the server does not see, reading the file without its log."""
    for what, name, device, inode in beside:
        if (problem := name_problem(name, device, inode)) is not None:
            return f"lost its {what} ({name} {problem})"
    return None


def save_copy(db: sqlite3.Connection, path: str) -> str:
    """Copy what `db` holds into a new file, owner-only: `path` itself when nothing
    is there, else `path.saved-TIME`, else, when neither can be made there (the
    folder gone and not to be made again, a read-only mount), `NAME.saved-TIME`
    in the temporary folder. A folder deleted with the file (a volume emptied, a
    clean-up of /tmp) is made again, owner-only, so that a restart on the same
    `--db` finds the copy: what the server held was once lost with it. Returns
    the file written; OSError or sqlite3.Error when none could be. A copy that
    fails part way (a full disk) is removed and the next place tried."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        with contextlib.suppress(OSError):
            os.makedirs(folder, mode=0o700)
    failed: OSError | sqlite3.Error | None = None
    for target in _places(path, stamp):
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except OSError as error:
            failed = failed or error
            continue
        os.close(fd)
        try:
            with contextlib.closing(sqlite3.connect(target)) as copy:
                db.backup(copy)
        except (OSError, sqlite3.Error) as error:
            # A full disk (the lost file's pages still held by the server) fails
            # the copy part way: what it wrote goes, else a restart at the
            # `--db` name would start on it, and the next place is tried.
            failed = failed or error
            _remove_copy(target)
            continue
        return target
    assert failed is not None
    raise failed


def _places(path: str, stamp: str) -> Iterator[str]:
    """Where a copy may go, in turn. The temporary folder is looked up only
    when reached: with none usable (a full disk under every one), gettempdir
    raises, which once kept the copy from being tried at the `--db` name."""
    yield path
    yield f"{path}.saved-{stamp}"
    try:
        spare = tempfile.gettempdir()
    except OSError:
        return
    yield os.path.join(spare, f"{os.path.basename(path)}.saved-{stamp}")


def _remove_copy(target: str) -> None:
    for name in (target, *(target + suffix for suffix in SQLITE_COMPANIONS)):
        with contextlib.suppress(OSError):
            os.unlink(name)
