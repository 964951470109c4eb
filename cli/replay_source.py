"""Where `sheepfold replay` finds a match: a server database or a tournament database.

Both kinds of file are SQLite; the tables tell them apart. The file is looked
at read-only first, so a tournament database is never migrated as a server
one (or the other way round), and a file that is neither gives one clear line.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sheepfold.v1 import arena_pb2

from cli.db import database_file_problem
from games.options import brief
from server.files import folder_hint
from server.records import DamagedRecord, StoredMatch, stored_result
from server.sqlite_schema import (
    SCHEMA_VERSION,
    MissingColumns,
    check_server_columns,
    read_schema_version,
)
from server.sqlite_store import SqliteStore, load_match
from server.sqlite_store import StoreError as ServerStoreError
from server.summaries import clock_settings
from tournament.store import Store as TournamentStore
from tournament.store import StoreError as TournamentStoreError
from tournament.store import StoreLocked
from tournament.store_lock import SILENT_WAIT, LockWait, waiting_for_lock
from tournament.store_read import read_connection, read_tournament

T = TypeVar("T")


class SourceError(Exception):
    """The match cannot be read (no file, not a Sheepfold database, no such match)."""


@dataclass(frozen=True, slots=True)
class Move:
    move: int
    seat: int
    index: int
    label: str
    forced: str  # "", "timeout", "disqualified" (server db) or "forced" (tournament db)


@dataclass(frozen=True, slots=True)
class MatchToReplay:
    """A finished match, whichever database it came from."""

    match_id: str
    game: str
    players: int
    options: dict[str, str]
    seed: int
    clock: arena_pb2.ClockSettings
    rules_version: int  # the game's rules version the match was played under
    moves: list[Move] = field(default_factory=list)
    result: arena_pb2.MatchResult | None = None
    end_reason: str = ""
    source: str = ""  # "server database" or "tournament NAME"


def database_kind(path: str, lock: LockWait = SILENT_WAIT) -> str:
    """'server' or 'tournament'; SourceError for anything else."""
    problem = database_file_problem(path)
    if problem is not None:
        raise SourceError(problem)
    try:
        # Read-only, and a stopped server's file (WAL mode, no -wal beside it) as
        # the unchanging file it is: SQLite cannot read it otherwise in a folder
        # it may not write (a read-only mount, a reader of the owner's group).
        tables = _patiently(
            path,
            lock,
            lambda db: {row[0] for row in db.execute("SELECT name FROM sqlite_master")},
        )
    except StoreLocked as error:
        raise SourceError(str(error)) from None
    except sqlite3.OperationalError as error:  # opened, not read: not its content's fault
        raise SourceError(f"cannot use {path}: {error}{folder_hint(str(path))}") from None
    except sqlite3.DatabaseError as error:
        raise SourceError(f"{path} is not a Sheepfold database ({error})") from None
    if "matches" in tables and "moves" in tables:
        return "server"
    if "tournaments" in tables and "games" in tables:
        return "tournament"
    raise SourceError(
        f"{path} is not a Sheepfold database: it has neither a server's matches "
        "nor a tournament's games"
    )


def load(path: str, match_id: str, lock: LockWait = SILENT_WAIT) -> MatchToReplay:
    """The finished match `match_id` from the database at `path`."""
    if database_kind(path, lock) == "server":
        return _from_server(path, match_id, lock)
    return _from_tournament(path, match_id, lock)


def _patiently(path: str, lock: LockWait, read: Callable[[sqlite3.Connection], T]) -> T:
    return waiting_for_lock(
        path, lambda timeout: read_connection(path, read, timeout), lock.seconds, lock.on_wait
    )


def _from_server(path: str, match_id: str, lock: LockWait) -> MatchToReplay:
    try:
        try:
            stored = _patiently(path, lock, lambda db: _read_current(db, match_id, path))
        except _OtherSchema:
            stored = _migrated_and_read(path, match_id)
    except StoreLocked as error:
        raise SourceError(str(error)) from None
    except (ServerStoreError, sqlite3.DatabaseError) as error:
        raise SourceError(_naming(path, error)) from None
    except DamagedRecord as error:  # a row edited by hand: GetReplay's DATA_LOSS
        raise SourceError(str(error)) from None
    if stored is None:
        raise SourceError(f"no match {brief(match_id)} in the server database {path}")
    if stored.status != "finished":
        raise SourceError(
            f"match {match_id} is {stored.status}, not finished; only finished matches are replayed"
        )
    try:
        return _stored(stored)
    except DamagedRecord as error:  # its result blob does not parse
        raise SourceError(str(error)) from None


class _OtherSchema(Exception):
    """The file is of another schema version than this server's."""


def _read_current(db: sqlite3.Connection, match_id: str, path: str) -> StoredMatch | None:
    """The match, read through a connection that cannot write, from a file of
    this server's schema (_OtherSchema for any other) with every column of it."""
    if read_schema_version(db) != SCHEMA_VERSION:
        raise _OtherSchema
    check_server_columns(db, path)
    return load_match(db, match_id)


def _naming(path: str, error: Exception) -> str:
    """The error's words after the file's name, unless they name it themselves."""
    return str(error) if isinstance(error, MissingColumns) else f"{path}: {error}"


def _migrated_and_read(path: str, match_id: str) -> StoredMatch | None:
    """A file an older server wrote is brought up to this schema first, as the
    server would on its start (and a newer server's is refused)."""
    try:
        store = SqliteStore(path)
    except (ServerStoreError, sqlite3.DatabaseError) as error:
        raise SourceError(_naming(path, error)) from None
    try:
        return store.load(match_id)
    finally:
        store.close()


def _stored(stored: StoredMatch) -> MatchToReplay:
    record = stored.record
    return MatchToReplay(
        match_id=record.match_id,
        game=record.game,
        players=record.players,
        options=dict(record.options),
        seed=record.seed,
        clock=clock_settings(record.clock),
        rules_version=record.rules_version,
        moves=[Move(m.move, m.seat, m.index, m.label, m.forced) for m in stored.moves],
        result=stored_result(record.match_id, stored.result),
        end_reason=stored.end_reason,
        source="server database",
    )


def _from_tournament(path: str, match_id: str, lock: LockWait) -> MatchToReplay:
    def stored(store: TournamentStore) -> tuple[arena_pb2.Replay | None, dict[str, str], bool]:
        known = {entry.match_id: entry.tournament for entry in store.replays()}
        # Only the tournament that played it is read: another's damaged row is no matter.
        played = store.tournament_of(match_id) is not None
        return store.replay(match_id), known, played

    try:
        replay, known, played = read_tournament(path, stored, lock.seconds, lock.on_wait)
    except StoreLocked as error:
        raise SourceError(str(error)) from None
    except TournamentStoreError as error:  # names the file itself
        raise SourceError(str(error)) from None
    except sqlite3.DatabaseError as error:
        raise SourceError(f"{path}: {error}") from None
    if replay is None:
        if played:
            raise SourceError(
                f"match {match_id} is in the tournament database {path}, but only its result "
                "was stored (its record could not be fetched from the game server when it "
                "finished, as the run's log says, or it was played before tournaments kept "
                "every game's moves); replay it from its server's database if that was kept"
            )
        raise SourceError(f"no match {brief(match_id)} in the tournament database {path}")
    return from_replay(replay, source=f"tournament {known.get(match_id, '?')}")


def from_replay(replay: arena_pb2.Replay, source: str = "") -> MatchToReplay:
    """A GetReplay answer (or a tournament's stored one) as a match to replay."""
    return MatchToReplay(
        match_id=replay.match_id,
        game=replay.game,
        players=replay.players,
        options=dict(replay.options),
        seed=replay.seed,
        clock=replay.clock,
        # A record kept before the field existed (0) was played under version 1.
        rules_version=replay.rules_version or 1,
        moves=[
            Move(a.move, a.seat, a.action_index, a.label, "forced" if a.forced else "")
            for a in replay.actions
        ],
        result=replay.result if replay.HasField("result") else None,
        end_reason=replay.result.end_reason,
        source=source,
    )
