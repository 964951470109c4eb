"""Reading tournament databases for the web pages, without ever writing to a
file that is not one."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sheepfold.v1 import arena_pb2

from server.files import access_refused
from tournament.heartbeat import RunState, run_state
from tournament.report import report_data
from tournament.store import (
    NAME_QUOTED,
    GameRecord,
    NoSuchTournament,
    Store,
    StoreError,
    TournamentRecord,
    no_such_tournament,
)
from tournament.store_errors import is_busy
from tournament.store_open import table_names
from tournament.store_read import ChangedWhileRead, read_connection, read_store
from tournament.store_records import Heartbeat, InPlay
from tournament.stored_schedule import DealSeeds, deal_in_play, deal_of_seed, played_of_schedule

T = TypeVar("T")


class NotATournamentDb(ValueError):
    """The file is missing, not SQLite, or holds no tournaments table."""


class BeingRewritten(Exception):
    """A runner wrote the database during every read of it: a moment later it reads."""


class Unreadable(NotATournamentDb):
    """A tournament database (its file checked as one) that could not be read:
    locked by another process past the wait, written by a newer sheepfold (or
    an older one), a row edited into nonsense, gone since the viewer started.
    Pages of its own say so as they say what is wrong with any file; whether
    a match of the game server is held back cannot be told from it, so the
    match is not shown (held_back)."""


def _by_file_name(error: Exception, path: Path) -> str:
    """`error`'s message naming the database by its file name alone, as the
    viewer's pages name it (never the folder it lives in)."""
    return str(error).replace(str(path), path.name)


def _rewritten(path: Path) -> BeingRewritten:
    # Built here, not in __init__: reports raise it in the replay process, and
    # an exception travels back pickled as its message alone.
    return BeingRewritten(
        f"{path.name} was being written by its tournament runner each time it was read: "
        "try again in a moment"
    )


def check_database(path: Path) -> None:
    """Raise NotATournamentDb unless `path` is a tournament database (read-only check:
    opening a Store would create the tables in any SQLite file); BeingRewritten
    when a runner wrote it during each read."""
    _check_file(path)
    try:
        tables = read_connection(path, table_names)
    except ChangedWhileRead:
        raise _rewritten(path) from None
    except sqlite3.Error as error:
        if is_busy(error):
            # Another process holds it locked past the wait: no sign it is not one.
            raise Unreadable(f"{path.name} stayed locked by another process: {error}") from None
        if getattr(error, "sqlite_errorcode", None) != sqlite3.SQLITE_NOTADB:
            # Not opened or not read (no file descriptor left, a disk error):
            # only "file is not a database" says what the file is.
            raise Unreadable(f"{path.name} could not be read ({error})") from None
        raise _not_sqlite(path, error) from None
    _check_tables(path, tables)


def _not_sqlite(path: Path, error: sqlite3.Error) -> NotATournamentDb:
    return NotATournamentDb(f"{path.name} is not a SQLite database ({error})")


def _check_file(path: Path) -> None:
    # Named by the file alone: visitors see these messages, not the server's folders.
    if not path.is_file():
        # Every path the viewer reads was a tournament database when it
        # started (cli/viewer.py refuses any other): one gone since (renamed,
        # deleted, its folder moved) may hold matches back. Passed over as no
        # database, it let the viewer show a deal in play whole.
        raise Unreadable(f"{path.name} does not exist")
    if access_refused(path, write=False):
        # Nothing says it is no tournament database: it may hold matches back.
        raise Unreadable(f"{path.name} may not be read by this user (permission denied)")
    if path.stat().st_size == 0:  # SQLite reads it as a database with no tables
        raise NotATournamentDb(f"{path.name} is an empty file, not a tournament database")


def _check_tables(path: Path, tables: set[str]) -> None:
    if "tournaments" not in tables:
        if "matches" in tables:
            raise NotATournamentDb(
                f"{path.name} is a game server's database (sheepfold serve --db), "
                "not a tournament's"
            )
        raise NotATournamentDb(f"{path.name} is a SQLite file but not a tournament database")


Marker = tuple[object, object, int, int]  # update time, games scheduled, stored, newest


@dataclass(frozen=True, slots=True)
class TournamentView:
    record: TournamentRecord
    games: tuple[GameRecord, ...]
    report: dict[str, Any]
    # Polled.marker as of the read of `games` (in the same snapshot).
    marker: Marker


def _read(path: Path, read: Callable[[Store], T]) -> T:
    """`read` on the database opened for reading alone: the viewer never writes
    to it, nor takes the lock its runner writes under (each page once did, and
    waited 30 s while the runner held it), nor upgrades an older one's tables;
    read again when a runner started on it meanwhile (tournament.store_read)."""
    check_database(path)
    try:
        return read_store(path, read)
    except ChangedWhileRead:
        raise _rewritten(path) from None
    except StoreError as error:
        # The file is a tournament database (checked above) that cannot be read now.
        raise Unreadable(_by_file_name(error, path)) from None


def _named(store: Store, path: Path, name: str) -> TournamentRecord:
    """The tournament called `name`; LookupError when there is none. A row
    edited by hand into nonsense stays a StoreError (the database is damaged:
    a 400 saying what is wrong), not "no such tournament" (a 404)."""
    try:
        return store.tournament(name)
    except NoSuchTournament as error:
        raise LookupError(_by_file_name(error, path)) from None


def list_tournaments(path: Path) -> tuple[TournamentRecord, ...]:
    return readable_tournaments(path)[0]


def readable_tournaments(path: Path) -> tuple[tuple[TournamentRecord, ...], tuple[str, ...]]:
    """The tournaments that can be read, and one line (naming the file by its
    name alone) for each row edited by hand into nonsense: the list shows the
    others all the same."""
    readable, damaged = _read(path, lambda store: store.readable_tournaments())
    return readable, tuple(_by_file_name(error, path) for error in damaged)


@dataclass(frozen=True, slots=True)
class Listed:
    """A tournament as the list page shows it: its games played of its schedule
    and whether it is running, stopped or finished, both as its own page says."""

    record: TournamentRecord
    played: int
    state: RunState


def listed_tournaments(path: Path) -> tuple[tuple[Listed, ...], tuple[str, ...]]:
    """readable_tournaments, each with its games played as its page counts
    them (tournament.stored_schedule.played_of_schedule). Cheap for a database
    of many tournaments: one query counts every tournament's stored games, and
    a round robin's games are not read."""

    def read(store: Store) -> tuple[tuple[Listed, ...], tuple[StoreError, ...]]:
        with store.snapshot():
            readable, damaged = store.readable_tournaments()
            counts = store.game_counts()
            heartbeats, newest = store.heartbeats(), store.newest_games()
            listed = []
            for record in readable:
                played = played_of_schedule(store, record, counts.get(record.id, 0))
                seen = heartbeats.get(record.id), newest.get(record.id, record.updated_at)
                listed.append(Listed(record, played, run_state(record.scheduled, played, *seen)))
            return tuple(listed), damaged

    found, damaged = _read(path, read)
    return found, tuple(_by_file_name(error, path) for error in damaged)


def load(path: Path, name: str, samples: int = 200) -> TournamentView:
    """One tournament with its report; `samples` bootstrap resamples keep a page
    that refreshes while the tournament runs cheap (the CLI report uses 1000)."""

    def read(store: Store) -> tuple[TournamentRecord, tuple[GameRecord, ...], Marker]:
        with store.snapshot():
            record = _named(store, path, name)
            return record, store.games(record.id), store.report_marker(record.id)

    record, games, marker = _read(path, read)
    data = report_data(record, games, samples=samples)
    return TournamentView(record, games, data, marker)


@dataclass(frozen=True, slots=True)
class Polled:
    """What a tournament's page asks of its database at each poll, in one
    read of one snapshot: a game stored meanwhile is either in play and not in
    `marker`'s count, or counted and not in play."""

    # What changes whenever the tournament's report would: its update time,
    # games scheduled, games stored and the newest game's row.
    marker: Marker
    # Its runner as the database last heard of it, and when it stored its
    # newest game (its update time when none): what
    # tournament.heartbeat.run_state needs beside its games played.
    heartbeat: Heartbeat | None
    newest: float
    # The games its runner is playing now (none in a database written before
    # they were recorded).
    playing: tuple[InPlay, ...] = ()


def polled(path: Path, name: str) -> Polled:
    """Tournament `name`'s Polled, on one read-only connection (cheap: no game
    is read); NotATournamentDb, BeingRewritten or LookupError as load."""
    _check_file(path)

    def read(connection: sqlite3.Connection) -> Polled:
        try:
            tables = table_names(connection)
        except sqlite3.Error as error:  # as check_database says it
            raise _not_sqlite(path, error) from None
        _check_tables(path, tables)
        store = Store.on(path, connection)
        with store.snapshot():
            marker = _marker(store, connection, path, name)
            record = _named(store, path, name)
            newest = store.newest_games(record.id).get(record.id, record.updated_at)
            heartbeat = store.heartbeats(record.id).get(record.id)
            return Polled(marker, heartbeat, newest, store.games_in_play(record.id))

    try:
        return read_connection(path, read)
    except ChangedWhileRead:
        raise _rewritten(path) from None
    except sqlite3.Error as error:
        raise NotATournamentDb(f"{path.name} could not be read ({error})") from None
    except StoreError as error:
        raise NotATournamentDb(_by_file_name(error, path)) from None


def _marker(store: Store, connection: sqlite3.Connection, path: Path, name: str) -> Marker:
    row = connection.execute("SELECT id FROM tournaments WHERE name = ?", (name,)).fetchone()
    if row is None:
        names = [n for (n,) in connection.execute("SELECT name FROM tournaments ORDER BY id")]
        raise LookupError(str(no_such_tournament(path.name, name, names)))
    # As stored: a value edited into text marks a change as well as a number,
    # and the report's read names it (a float() here made it a 500).
    return store.report_marker(row[0])


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A tournament's game as its database keeps it: its full record (None: a
    game stored before tournaments kept records) and the bot in each seat."""

    replay: arena_pb2.Replay | None
    bots: tuple[str, ...]
    # The tournament still has a game of this one's deal to play (maybe live
    # now): the same cards, so its record is not shown yet.
    in_play: bool = False
    # Each seat's failure ("crash", ...; None) and the rank the tournament
    # counts (a seat that failed ranks last, whatever the game server said).
    failures: tuple[tuple[str | None, int], ...] = ()


def stored_game(path: Path, name: str, match_id: str) -> StoredGame:
    """Tournament `name`'s game `match_id` as the database keeps it (the game
    server that played a game without a stored record may still have it).
    LookupError when the database holds no such tournament, or the tournament
    no such game (the game server's other matches are no games of it)."""

    def read(store: Store) -> StoredGame:
        with store.snapshot():
            record = _named(store, path, name)
            bots = store.seat_bots(record.id, match_id)
            if bots is None:
                raise LookupError(
                    f"the tournament {name!r} in {path.name} has no game {match_id[:NAME_QUOTED]!r}"
                )
            in_play = _in_play(store, record, match_id)
            failures = store.seat_failures(record.id, match_id) or ()
            return StoredGame(store.replay(match_id, record.id), bots, in_play, failures)

    return _read(path, read)


def _in_play(store: Store, record: TournamentRecord, match_id: str) -> bool:
    """Whether the tournament still has a game to play of the deal its game
    `match_id` was dealt (tournament.stored_schedule.deal_in_play)."""
    deal = store.match_deals(match_id).get(record.id)
    return deal is not None and deal_in_play(record, store.done_keys(record.id), deal)


def deal_held_back(paths: Sequence[Path], match_id: str) -> str | None:
    """The name of a tournament, in the databases `paths`, that played match
    `match_id` as a game and still has a game of its deal to play; None when
    none did. A database that cannot be read, or is no tournament database
    now, raises Unreadable (it cannot tell: see _first_named)."""

    def read(store: Store) -> str | None:
        with store.snapshot():
            ids = store.match_deals(match_id)
            readable = {record.id: record for record in store.readable_tournaments()[0]}
            for tournament_id in ids:
                record = readable.get(tournament_id)
                if record is None:  # a row edited into nonsense: its schedule is unknown
                    return f"number {tournament_id}"
                if _in_play(store, record, match_id):
                    return record.name
        return None

    return _first_named(paths, read)


def _first_named(paths: Sequence[Path], read: Callable[[Store], str | None]) -> str | None:
    """The first tournament name `read` finds in the databases `paths`, in
    order. No file is passed over: each was a tournament database when the
    viewer started (cli/viewer.py refuses any other), so one that cannot be
    read now, or is no tournament database now (replaced by another file, or
    rewritten into nonsense), cannot say a deal is over, and raises
    Unreadable. Passed over, a database locked by another process, written
    by a newer sheepfold, or replaced by an empty file, let the viewer show
    the seed and every hand of a deal its tournament was still playing."""
    for path in paths:
        try:
            name = _read(path, read)
        except Unreadable:
            raise
        except NotATournamentDb as error:
            raise Unreadable(str(error)) from None
        if name is not None:
            return name
    return None


def seed_held_back(
    paths: Sequence[Path],
    game: str,
    players: int,
    seed: int,
    tables: MutableMapping[bytes, DealSeeds],
) -> str | None:
    """The name of a tournament, in the databases `paths`, of `game` for
    `players` seats, one of whose deals is dealt from match seed `seed` and
    still has a game to play; None when none is. So a match the tournament
    never stored as a game (the first try of a game no bot joined, which the
    server aborted and stand-ins played again; a game its runner was stopped
    before storing) is held back by its seed as the stored games of its deal
    are by their ids (`deal_held_back`). `tables`: as `deal_of_seed`'s."""

    def read(store: Store) -> str | None:
        with store.snapshot():
            for record in store.readable_tournaments()[0]:
                if record.game != game or record.players != players:
                    continue
                done = store.done_keys(record.id)
                secret = store.deal_secret(record.id)
                deal = deal_of_seed(
                    record,
                    secret,
                    seed,
                    done,
                    functools.partial(store.stored_deals, record.id),
                    tables,
                )
                if deal is not None and deal_in_play(record, done, deal):
                    return record.name
        return None

    return _first_named(paths, read)


def stored_replay(path: Path, name: str, match_id: str) -> arena_pb2.Replay | None:
    """The full record kept of tournament `name`'s game `match_id`, as stored_game."""
    return stored_game(path, name, match_id).replay
