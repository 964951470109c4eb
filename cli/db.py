"""`sheepfold db info|vacuum`: look after the server's SQLite file.

`vacuum` deletes finished matches the retention options say should go (the
same options as `sheepfold serve`), then rewrites the file so it shrinks.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from cli.values import file_path, number_up_to, seconds_up_to, whole_number
from server.files import Kind, access_refused, file_kind, folder_hint

if TYPE_CHECKING:
    from server.sqlite_store import SqliteStore

BATCH = 1_000
OVER_AND_RUNNING = ("running", "finished", "aborted")
# Bounds that keep every value usable: SQLite's integers are signed 64-bit, and
# a wait is a lock timeout in milliseconds.
MAX_DAYS = 36_500  # a century
MAX_COUNT = 2**63 - 1
MAX_WAIT_SECONDS = 3_600


def add_retention_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep-finished-days",
        type=number_up_to(MAX_DAYS),
        metavar="DAYS",
        help="delete finished and aborted matches that ended more than DAYS ago, "
        f"0 to {MAX_DAYS:,} (default: keep them all)",
    )
    parser.add_argument(
        "--keep-finished",
        type=whole_number(0, MAX_COUNT),
        metavar="COUNT",
        help="keep only the newest COUNT finished and aborted matches, 0 to 2**63 - 1 "
        "(default: all)",
    )


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "db",
        help="inspect or shrink the server's database",
        description="Look after the SQLite file `sheepfold serve --db` writes.",
    )
    actions = parser.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    info = actions.add_parser(
        "info",
        help="matches, moves and bytes in the database",
        description="Print the schema version, matches by status, moves and the file size. "
        "Only reads: a file that is not a server's database is reported and left as it is.",
    )
    vacuum = actions.add_parser(
        "vacuum",
        help="delete old finished matches and shrink the file",
        description="Delete the finished and aborted matches the retention options say "
        "should go (none without them), then rewrite the file so it shrinks. Unfinished "
        "matches are never touched. Best run while no server uses the file: a running "
        "server's writes wait while the file is rewritten.",
    )
    for action in (info, vacuum):
        action.add_argument(
            "--db",
            type=file_path,
            default="sheepfold.db",
            help="the server's SQLite file (default %(default)s)",
        )
        action.add_argument(
            "--wait",
            type=seconds_up_to(MAX_WAIT_SECONDS, zero=True),
            default=5.0,
            metavar="SECONDS",
            help="how long to wait for another process's lock, 0 to "
            f"{MAX_WAIT_SECONDS:,} (default %(default)s)",
        )
    add_retention_arguments(vacuum)
    info.set_defaults(handler=run_info)
    vacuum.set_defaults(handler=run_vacuum)


def _fail(message: str) -> int:
    """One line and exit 1, named `sheepfold db` as every other command's own
    lines name their command (and as an interrupt's line names it)."""
    print(f"sheepfold db: {message}", file=sys.stderr)
    return 1


def _file_bytes(path: Path) -> tuple[int, int]:
    """The database file's size and its write-ahead log's (0: none beside it)."""
    log = Path(f"{path}-wal")
    return path.stat().st_size, log.stat().st_size if log.exists() else 0


def database_file_problem(path: str) -> str | None:
    """Why no database can be at `path`, in one line, or None. Looks only:
    opening a FIFO would wait for a writer."""
    try:
        kind = file_kind(path)
    except OSError as error:  # a name too long, a folder on the way that may not be read
        return f"cannot use {path}: {error.strerror or error}"
    if kind is Kind.REGULAR and access_refused(path, write=False):
        return f"cannot read {path}: permission denied (this user may not read it)"
    return {
        Kind.MISSING: f"no database at {path}",
        Kind.FOLDER: f"{path} is a folder, not a database file",
        Kind.OTHER: f"{path} is not a regular file, so it holds no database",
        Kind.REGULAR: None,
    }[kind]


def _inspect(args: argparse.Namespace) -> sqlite3.Connection | int:
    """A connection that only reads, to the server's database at --db (or the
    exit code after one line saying why not). It never creates, migrates or
    otherwise changes a file, whatever the file holds."""
    from server.sqlite_schema import check_server_columns, check_server_tables, refuse_newer
    from server.sqlite_store import StoreError
    from tournament.store_read import connect_read_only

    path = Path(args.db)
    problem = database_file_problem(args.db)
    if problem is not None:
        return _fail(problem)
    try:
        # Read-only, and a stopped server's file (WAL mode, no -wal beside it) as
        # the unchanging file it is: SQLite cannot read it otherwise in a folder
        # it may not write (a read-only mount, a reader of the owner's group).
        db = connect_read_only(path, timeout=args.wait)
    except sqlite3.Error as error:
        return _fail(_explain(error, args))
    try:
        tables = {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.Error as error:
        db.close()
        return _fail(_explain(error, args))
    if not tables:
        db.close()
        return _fail(f"{args.db} is not a Sheepfold server database: it is empty")
    try:
        check_server_tables(db, args.db)
    except StoreError as error:
        db.close()
        return _fail(str(error))
    try:
        refuse_newer(db)
    except StoreError as error:
        db.close()
        return _fail(f"{args.db}: {error}")
    except sqlite3.Error as error:
        db.close()
        return _fail(_explain(error, args))
    try:
        check_server_columns(db, args.db)
    except StoreError as error:
        db.close()
        return _fail(str(error))
    except sqlite3.Error as error:
        db.close()
        return _fail(_explain(error, args))
    return db


def _open(args: argparse.Namespace) -> SqliteStore | int:
    from server.sqlite_store import SqliteStore, StoreError

    checked = _inspect(args)
    if isinstance(checked, int):
        return checked
    checked.close()
    try:
        return SqliteStore(Path(args.db), busy_timeout=args.wait)
    except StoreError as error:
        return _fail(str(error))
    except sqlite3.Error as error:
        return _fail(_explain(error, args))


def _explain(error: sqlite3.Error, args: argparse.Namespace) -> str:
    from server.sqlite_store import cannot_write, is_read_only

    text = str(error)
    if "locked" in text or "busy" in text:
        return (
            f"{args.db} is locked by another process (a server writing to it?) and stayed "
            f"locked for {args.wait:g} s: try again, or with a longer --wait"
        )
    if is_read_only(error):  # vacuum writes: say why it may not, as serve does
        return f"cannot use {args.db}: {cannot_write(error)}"
    # "unable to open database file": say why, as serve does (a folder it may not write)
    return f"cannot use {args.db}: {text}{folder_hint(args.db)}"


def run_info(args: argparse.Namespace) -> int:
    from server.sqlite_store import StoreError
    from tournament.store_read import read_connection

    db = _inspect(args)
    if isinstance(db, int):
        return db
    db.close()
    try:
        # Read again should a server have started on the file meanwhile (read_connection).
        version, counts, data_bytes = read_connection(
            args.db, _version_counts_and_data_bytes, timeout=args.wait
        )
    except StoreError as error:  # its schema version changed since _inspect read it
        return _fail(f"{args.db}: {error}")
    except sqlite3.Error as error:
        return _fail(_explain(error, args))
    version = int(version or 0)
    size, log_size = _file_bytes(Path(args.db))
    moves = counts.pop("moves")
    matches = sum(counts.values())
    in_log = f" (and {log_size:,} in its write-ahead log)" if log_size else ""
    rows = [
        ("database", f"{args.db} (schema version {version})"),
        ("size", f"{size:,} bytes{in_log}"),
        *((f"{status} matches", f"{counts.get(status, 0):,}") for status in OVER_AND_RUNNING),
        ("moves", f"{moves:,}"),
    ]
    if matches:
        # The pages in use, not the files: a live server's log holds old copies
        # of pages until its checkpoint, and freed pages wait for a vacuum.
        rows.append(("bytes per match", f"{data_bytes / matches:,.0f}"))
    for label, value in rows:
        print(f"{label:<18}{value}")
    return 0


def _version_counts_and_data_bytes(
    db: sqlite3.Connection,
) -> tuple[int | None, dict[str, int], int]:
    from server.sqlite_schema import read_schema_version
    from server.sqlite_store import match_counts

    version = read_schema_version(db)
    (page_size,) = db.execute("PRAGMA page_size").fetchone()
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    (free,) = db.execute("PRAGMA freelist_count").fetchone()
    return version, match_counts(db), (pages - free) * page_size


def run_vacuum(args: argparse.Namespace) -> int:
    store = _open(args)
    if isinstance(store, int):
        return store
    before_bytes = sum(_file_bytes(Path(args.db)))
    before = None
    if args.keep_finished_days is not None:
        before = time.time() - args.keep_finished_days * 86_400
    removed = 0
    try:
        if before is not None or args.keep_finished is not None:
            while (batch := store.prune(before, args.keep_finished, BATCH)) > 0:
                removed += batch
        store.vacuum()
    except sqlite3.Error as error:
        return _fail(_explain(error, args))
    finally:
        store.close()
    after_bytes = sum(_file_bytes(Path(args.db)))
    # Finished and aborted alike, as the retention options say: "finished" alone
    # told of matches removed from a file whose info listed none finished.
    print(
        f"removed {removed:,} finished or aborted matches; {args.db}: "
        f"{before_bytes:,} -> {after_bytes:,} bytes"
    )
    return 0
