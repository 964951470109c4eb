"""Tournament results in SQLite (standard library, WAL mode).

Every finished game is committed in its own transaction the moment it ends, so
a runner killed by SIGINT or SIGKILL loses only the games still being played.
Opening a database (tournament/store_open.py) brings it to the current
schema first.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sheepfold.v1 import arena_pb2

from server.files import folder_hint
from tournament.store_checks import (
    check_numbers,
    check_seats,
    damaged_game,
    is_time,
    stored_object,
    tournament_record,
)
from tournament.store_errors import (
    NoSuchTournament,
    StoreError,
    StoreLocked,
    is_busy,
    latest_error,
)
from tournament.store_lock import LOCK_WAIT_SECONDS, SILENT_WAIT, LockWait
from tournament.store_open import locked_wait, open_database, read_version
from tournament.store_path import check_existing
from tournament.store_records import (
    GameRecord,
    InPlay,
    ReplayEntry,
    SeatRecord,
    TournamentRecord,
)
from tournament.store_runner_rows import RunnerRows

__all__ = [
    "GameRecord",
    "InPlay",
    "NoSuchTournament",
    "ReplayEntry",
    "SeatRecord",
    "Store",
    "StoreError",
    "StoreLocked",
    "TournamentRecord",
    "check_existing",
    "no_such_tournament",
]

_TOURNAMENT_COLUMNS = (
    "id, name, game, players, options_json, anchor, scheduled, config_json, created_at, updated_at"
)
_NAMES = "SELECT name FROM tournaments ORDER BY id"
# A name asked for is quoted this far: a name from an address may be thousands
# of characters long (a viewer's 404 once quoted 7 KB of one back).
NAME_QUOTED = 80


def no_such_tournament(path: str, name: str, held: list[str]) -> NoSuchTournament:
    """No tournament `name` in the database at `path`, which holds `held`."""
    if not held:
        return NoSuchTournament(f"{path} holds no tournament")
    return NoSuchTournament(
        f"no tournament {name[:NAME_QUOTED]!r} in {path} (it holds: {', '.join(held)})"
    )


def refuse_changed_kind(
    name: str, path: str, stored: tuple[str, int, object], wanted: tuple[str, int, object]
) -> None:
    """StoreError, naming the field, when a config would resume tournament `name`
    with another (game, players, options) than its stored games were played with."""
    for field, was, now in zip(("game", "players", "options"), stored, wanted, strict=True):
        if was != now:
            raise StoreError(
                f"{field}: tournament {name!r} in {path} was played with "
                f"{field} = {was!r}, not {now!r}; use another name or database"
            )


class Store(RunnerRows):
    """One SQLite file (or ":memory:") holding any number of tournaments."""

    def __init__(
        self,
        path: str | Path,
        timeout: float = LOCK_WAIT_SECONDS,
        on_wait: Callable[[float], None] | None = None,
    ) -> None:
        """`timeout`: how long to wait for another process's lock (StoreLocked
        after, naming the file); `on_wait(timeout)` is called once a wait has
        lasted a moment (waiting_for_lock), so a command can say that it waits."""
        self.path = str(path)
        self._wait = LockWait(timeout, on_wait)
        self._db = open_database(self.path, self._wait)

    @classmethod
    def on(
        cls, path: str | Path, connection: sqlite3.Connection, wait: LockWait = SILENT_WAIT
    ) -> Store:
        """A Store on a connection opened and checked elsewhere, taken as it is
        (tournament.store_read: a database opened for reading alone; a
        heartbeat written apart, waiting `wait` for another process's lock)."""
        store = cls.__new__(cls)
        store.path, store._db, store._wait = str(path), connection, wait
        return store

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside see the database as it was at their first: a game stored
        meanwhile is in all of them or none (read-only stores too)."""
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def lock_wait(self) -> LockWait:
        """How long this store waits for another process's lock, and what it calls meanwhile."""
        return self._wait

    @property
    def version(self) -> int:
        return read_version(self._db, self.path)

    # ------------------------------------------------------------ tournaments

    def open_tournament(
        self,
        name: str,
        game: str,
        players: int,
        options: dict[str, str],
        anchor: str | None,
        scheduled: int,
        config: dict[str, Any],
        deal_secret: bytes | None = None,
    ) -> int:
        """The id of tournament `name`, created on first use.

        A resumed tournament must play the same game, player count and options
        as the stored one (otherwise its games would not be comparable). Its
        `deal_secret` is stored when it is created and never changes after.
        """
        with self._transaction():  # the fresh id below is this run's alone
            now = time.time()
            row = self._db.execute(
                "SELECT id, game, players, options_json FROM tournaments WHERE name = ?", (name,)
            ).fetchone()
            if row is None:
                # An id no stored game names: games left by a tournament deleted by
                # hand (the sqlite3 shell enforces no foreign keys) would otherwise
                # pass to the next tournament SQLite gives that id, as done and rated.
                (fresh,) = self._db.execute(
                    "SELECT MAX(COALESCE((SELECT MAX(id) FROM tournaments), 0),"
                    " COALESCE((SELECT MAX(tournament_id) FROM games), 0)) + 1"
                ).fetchone()
                self._db.execute(
                    "INSERT INTO tournaments (id, name, game, players, options_json, anchor,"
                    " scheduled, config_json, created_at, updated_at, deal_secret)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        fresh,
                        name,
                        game,
                        players,
                        json.dumps(options, sort_keys=True),
                        anchor,
                        scheduled,
                        json.dumps(config, sort_keys=True),
                        now,
                        now,
                        deal_secret,
                    ),
                )
                return int(fresh)
            tid, stored_game, stored_players, stored_options = row
            stored_kind = (
                stored_game,
                stored_players,
                stored_object(self.path, name, "options_json", stored_options),
            )
            refuse_changed_kind(name, self.path, stored_kind, (game, players, options))
            self._db.execute(
                "UPDATE tournaments SET anchor = ?, scheduled = ?, config_json = ?, updated_at = ?"
                " WHERE id = ?",
                (anchor, scheduled, json.dumps(config, sort_keys=True), now, tid),
            )
            return int(tid)

    def deal_secret(self, tournament_id: int) -> bytes | None:
        """The secret the tournament's match seeds are drawn under; None: it has none."""
        row = self._db.execute(
            "SELECT deal_secret FROM tournaments WHERE id = ?", (tournament_id,)
        ).fetchone()
        return None if row is None or row[0] is None else bytes(row[0])

    def tournaments(self) -> tuple[TournamentRecord, ...]:
        """Every tournament, oldest update first; the StoreError of the first
        damaged row (edited by hand) when one is (see readable_tournaments)."""
        readable, damaged = self.readable_tournaments()
        if damaged:
            raise damaged[0]
        return readable

    def readable_tournaments(self) -> tuple[tuple[TournamentRecord, ...], tuple[StoreError, ...]]:
        """The tournaments whose rows can be read, oldest update first, and one
        StoreError (naming it) for each row edited by hand into nonsense."""
        read = [record for _, record in self._rows()]
        return (
            tuple(record for record in read if isinstance(record, TournamentRecord)),
            tuple(error for error in read if isinstance(error, StoreError)),
        )

    def _rows(self) -> list[tuple[tuple[Any, ...], TournamentRecord | StoreError]]:
        """Every tournaments row, oldest update first, with its record or the
        StoreError that names what in it is damaged."""
        read: list[tuple[tuple[Any, ...], TournamentRecord | StoreError]] = []
        for row in self._db.execute(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments ORDER BY updated_at, id"
        ).fetchall():
            try:
                read.append((row, tournament_record(self.path, row)))
            except StoreError as error:
                read.append((row, error))
        return read

    def find(self, name: str) -> TournamentRecord | None:
        """The tournament called `name` (None: there is none); only its own row
        is read, so another tournament's damaged row keeps none from reading it."""
        row = self._db.execute(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE name = ?", (name,)
        ).fetchone()
        return None if row is None else tournament_record(self.path, row)

    def tournament(self, name: str | None = None) -> TournamentRecord:
        """The tournament called `name`, or the most recently run one. A
        damaged row is a StoreError naming it only when it is the one asked
        for (or, with no name, when it might be the most recent one);
        NoSuchTournament when there is none by that name."""
        if name is not None:
            found = self.find(name)
            if found is not None:
                return found
            names = [str(row[0]) for row in self._db.execute(_NAMES)]
            raise no_such_tournament(self.path, name, names)
        rows = self._rows()
        if not rows:
            raise NoSuchTournament(f"{self.path} holds no tournament")
        # SQLite orders text (and inf) after every number: a row whose update
        # time cannot be read may be the latest, and so may be the last row.
        unsure = [record for row, record in rows if not is_time(row[9])]
        latest = unsure[0] if unsure else rows[-1][1]
        if isinstance(latest, TournamentRecord):
            return latest
        others = [record.name for _, record in rows if isinstance(record, TournamentRecord)]
        if not others:
            raise latest
        raise latest_error(latest, others)

    def tournament_of(self, match_id: str) -> TournamentRecord | None:
        """The tournament that stored a game played as match `match_id` (the
        latest such game's); None: no tournament did. Only its row is read."""
        row = self._db.execute(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id = (SELECT tournament_id"
            " FROM games WHERE match_id = ? ORDER BY id DESC LIMIT 1)",
            (match_id,),
        ).fetchone()
        return None if row is None else tournament_record(self.path, row)

    # ------------------------------------------------------------ games

    def game_counts(self) -> dict[int, int]:
        """How many games each tournament (by id) has stored, in one query: no
        game is read (a tournament with none is not in it)."""
        rows = self._db.execute("SELECT tournament_id, COUNT(*) FROM games GROUP BY tournament_id")
        return {int(row[0]): int(row[1]) for row in rows}

    def games_outside_field(self, tournament_id: int, field: Collection[str]) -> int:
        """How many of the tournament's stored games seat a bot not in `field`,
        in one query: no game is read."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM games g WHERE g.tournament_id = ? AND EXISTS (SELECT 1"
            " FROM game_seats s WHERE s.game_id = g.id"
            " AND s.bot NOT IN (SELECT value FROM json_each(?)))",
            (tournament_id, json.dumps(sorted(field))),
        ).fetchone()
        return int(row[0])

    def done_keys(self, tournament_id: int) -> set[str]:
        rows = self._db.execute("SELECT key FROM games WHERE tournament_id = ?", (tournament_id,))
        return {row[0] for row in rows}

    def deal_range(self, tournament_id: int) -> tuple[int, int] | None:
        """The lowest and highest deal number of the stored games; None: no game."""
        # MIN and MAX pass over a REAL between whole deals, and int() took it.
        damaged = self._db.execute(
            "SELECT id, key, match_id, seed FROM games WHERE tournament_id = ?"
            " AND typeof(seed) != 'integer' LIMIT 1",
            (tournament_id,),
        ).fetchone()
        if damaged is not None:
            game_id, key, match_id, seed = damaged
            raise damaged_game(self.path, game_id, key, match_id, "seed", seed, whole=True)
        row = self._db.execute(
            "SELECT MIN(seed), MAX(seed) FROM games WHERE tournament_id = ?", (tournament_id,)
        ).fetchone()
        return None if row is None or row[0] is None else (row[0], row[1])

    def record_game(
        self, tournament_id: int, game: GameRecord, replay: arena_pb2.Replay | None = None
    ) -> bool:
        """Store a finished game (and its full record) at once; False if its key was stored."""
        with self._transaction():
            try:
                cursor = self._db.execute(
                    "INSERT INTO games (tournament_id, key, match_id, seed, grp, rotation,"
                    " end_reason, details_json, duration_seconds, finished_at, node)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        tournament_id,
                        game.key,
                        game.match_id,
                        game.seed,
                        game.group,
                        game.rotation,
                        game.end_reason,
                        game.details_json,
                        game.duration_seconds,
                        game.finished_at,
                        game.node,
                    ),
                )
            except sqlite3.IntegrityError:
                return False  # nothing was written: the commit is empty
            game_id = cursor.lastrowid
            # A game row deleted by hand (the sqlite3 shell enforces no foreign
            # keys) leaves its seats and record behind under an id SQLite hands
            # out again: they belong to no game, and would refuse this one's.
            self._db.execute("DELETE FROM game_seats WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM game_replays WHERE game_id = ?", (game_id,))
            self._db.executemany(
                "INSERT INTO game_seats (game_id, seat, bot, score, rank, server_rank, strikes,"
                " disqualified, failure) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        seat,
                        record.bot,
                        record.score,
                        record.rank,
                        record.server_rank,
                        record.strikes,
                        int(record.disqualified),
                        record.failure,
                    )
                    for seat, record in enumerate(game.seats)
                ],
            )
            if replay is not None:
                self._db.execute(
                    "INSERT INTO game_replays (game_id, replay) VALUES (?, ?)",
                    (game_id, replay.SerializeToString()),
                )
            # Stored: no longer in play, in the same commit (a spectator never
            # sees the game both in play and finished, nor in neither list).
            self._db.execute(
                "DELETE FROM games_in_play WHERE tournament_id = ? AND key = ?",
                (tournament_id, game.key),
            )
        return True

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction: committed at the end, rolled back on any
        exception. A write SQLite refuses for a reason other than another
        process's lock (a full disk, a read-only mount) is a StoreError naming
        the file and why, so the command stops with one line, not a traceback."""
        locked_wait(self._db, self.path, self._wait, lambda: self._db.execute("BEGIN IMMEDIATE"))
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException as error:
            if self._db.in_transaction:
                with suppress(sqlite3.Error):  # a failed COMMIT leaves it open
                    self._db.execute("ROLLBACK")
            if isinstance(error, sqlite3.OperationalError) and not is_busy(error):
                hint = "" if self.path == ":memory:" else folder_hint(self.path)
                raise StoreError(f"cannot write {self.path}: {error}{hint}") from None
            raise

    def games(self, tournament_id: int) -> tuple[GameRecord, ...]:
        """Every stored game of a tournament, in the order they finished."""
        seats: dict[int, list[SeatRecord]] = {}
        for row in self._db.execute(
            "SELECT s.game_id, s.bot, s.score, s.rank, s.server_rank, s.strikes, s.disqualified,"
            " s.failure FROM game_seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.tournament_id = ? ORDER BY s.game_id, s.seat",
            (tournament_id,),
        ):
            seats.setdefault(row[0], []).append(
                SeatRecord(row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7])
            )
        rows = self._db.execute(
            "SELECT id, key, match_id, seed, grp, rotation, end_reason, details_json,"
            " duration_seconds, finished_at, node FROM games WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        ).fetchall()
        for row in rows:
            check_seats(self.path, row[0], row[1], row[2], row[3], seats.get(row[0], []))
            check_numbers(self.path, row, seats.get(row[0], []))
        return tuple(
            GameRecord(
                key=row[1],
                match_id=row[2],
                seed=row[3],
                group=row[4],
                rotation=row[5],
                seats=tuple(seats.get(row[0], ())),
                end_reason=row[6],
                details_json=row[7],
                duration_seconds=row[8],
                finished_at=row[9],
                node=row[10],
            )
            for row in rows
        )

    def crashed_keys(self, tournament_id: int) -> set[str]:
        """The keys of the games in which at least one bot crashed."""
        rows = self._db.execute(
            "SELECT DISTINCT g.key FROM games g JOIN game_seats s ON s.game_id = g.id"
            " WHERE g.tournament_id = ? AND s.failure = 'crash'",
            (tournament_id,),
        )
        return {row[0] for row in rows}

    def keys_of_bot(self, tournament_id: int, bot: str) -> set[str]:
        """The keys of the games `bot` played in."""
        rows = self._db.execute(
            "SELECT DISTINCT g.key FROM games g JOIN game_seats s ON s.game_id = g.id"
            " WHERE g.tournament_id = ? AND s.bot = ?",
            (tournament_id, bot),
        )
        return {row[0] for row in rows}

    def forget(self, tournament_id: int, keys: set[str]) -> int:
        """Delete these games (results, seats, records) in one transaction; how many."""
        with self._transaction():
            ids = [
                (row[0],)
                for key in sorted(keys)
                for row in self._db.execute(
                    "SELECT id FROM games WHERE tournament_id = ? AND key = ?",
                    (tournament_id, key),
                )
            ]
            self._db.executemany("DELETE FROM game_replays WHERE game_id = ?", ids)
            self._db.executemany("DELETE FROM game_seats WHERE game_id = ?", ids)
            self._db.executemany("DELETE FROM games WHERE id = ?", ids)
            if ids:  # its games are to be played again: an SPRT's test is not over
                self._db.execute(
                    "UPDATE runners SET decided = 0 WHERE tournament_id = ?", (tournament_id,)
                )
        return len(ids)

    # ------------------------------------------------------------ full records

    def replay(self, match_id: str, tournament_id: int | None = None) -> arena_pb2.Replay | None:
        """The full record (seed, options, clock, every action, result) of a stored
        game (of one tournament's games, or of any)."""
        query = (
            "SELECT r.replay FROM game_replays r JOIN games g ON g.id = r.game_id"
            " WHERE g.match_id = ?"
        )
        params: tuple[str | int, ...] = (match_id,)
        if tournament_id is not None:
            query += " AND g.tournament_id = ?"
            params = (match_id, tournament_id)
        row = self._db.execute(query + " ORDER BY g.id DESC LIMIT 1", params).fetchone()
        return None if row is None else arena_pb2.Replay.FromString(row[0])

    def match_deals(self, match_id: str) -> dict[int, int]:
        """The deal number of the game played as match `match_id`, by the id of
        each tournament that stored one (a game stored again keeps its last; a
        deal number edited into anything but a whole number is left out)."""
        rows = self._db.execute(
            "SELECT tournament_id, seed FROM games WHERE match_id = ?"
            " AND typeof(seed) = 'integer' ORDER BY id",
            (match_id,),
        )
        return {int(tournament_id): int(seed) for tournament_id, seed in rows}

    def stored_deals(self, tournament_id: int) -> list[int]:
        """The deal numbers of the tournament's stored games (a deal number
        edited into anything but a whole number is left out)."""
        rows = self._db.execute(
            "SELECT DISTINCT seed FROM games WHERE tournament_id = ? AND typeof(seed) = 'integer'",
            (tournament_id,),
        )
        return [int(seed) for (seed,) in rows]

    def seat_bots(self, tournament_id: int, match_id: str) -> tuple[str, ...] | None:
        """The bot in each seat of the tournament's game played as match
        `match_id` (the one `replay` gives); None: it stored no such game."""
        game_id = self._game_of_match(tournament_id, match_id)
        if game_id is None:
            return None
        rows = self._db.execute(
            "SELECT bot FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
        return tuple(bot for (bot,) in rows)

    def seat_failures(
        self, tournament_id: int, match_id: str
    ) -> tuple[tuple[str | None, int], ...] | None:
        """Each seat's failure (None, "crash", "timeout", "disqualified" or
        "slow") and the rank the tournament counts, of the game `seat_bots`
        names; None: it stored no such game."""
        game_id = self._game_of_match(tournament_id, match_id)
        if game_id is None:
            return None
        rows = self._db.execute(
            "SELECT failure, rank FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
        return tuple((failure, rank) for failure, rank in rows)

    def _game_of_match(self, tournament_id: int, match_id: str) -> int | None:
        """The id of the tournament's game played as match `match_id` (its
        last, should it be stored again); None: it stored no such game."""
        row = self._db.execute(
            "SELECT id FROM games WHERE tournament_id = ? AND match_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (tournament_id, match_id),
        ).fetchone()
        return None if row is None else int(row[0])

    def replays(self, tournament_id: int | None = None) -> tuple[ReplayEntry, ...]:
        """Every stored game that has a full record (of one tournament, or of all)."""
        query = (
            "SELECT g.id, t.name, g.key, g.match_id, t.game, t.players, g.finished_at"
            " FROM games g JOIN game_replays r ON r.game_id = g.id"
            " JOIN tournaments t ON t.id = g.tournament_id"
        )
        params: tuple[int, ...] = ()
        if tournament_id is not None:
            query += " WHERE g.tournament_id = ?"
            params = (tournament_id,)
        rows = self._db.execute(query + " ORDER BY g.id", params).fetchall()
        bots: dict[int, list[str]] = {}
        for game_id, bot in self._db.execute(
            "SELECT s.game_id, s.bot FROM game_seats s JOIN game_replays r ON r.game_id = s.game_id"
            " ORDER BY s.game_id, s.seat"
        ):
            bots.setdefault(game_id, []).append(bot)
        return tuple(
            ReplayEntry(
                tournament=row[1],
                key=row[2],
                match_id=row[3],
                game=row[4],
                players=row[5],
                bots=tuple(bots.get(row[0], ())),
                finished_at=row[6],
            )
            for row in rows
        )
