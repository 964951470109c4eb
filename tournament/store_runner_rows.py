"""The rows that say what a tournament's runner is doing now: the runner at
work and its last heartbeat, and the games it has in play. Mixed into
`tournament.store.Store`, whose connection and write transaction they use."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager

from tournament.store_open import has_table
from tournament.store_records import Heartbeat, InPlay


class RunnerRows:
    """The runners and games_in_play tables of a `Store`."""

    _db: sqlite3.Connection
    _transaction: Callable[[], AbstractContextManager[None]]

    # ------------------------------------------------------------ runners

    def start_run(self, tournament_id: int, command: str, now: float) -> None:
        """A runner (`command`) is at work on the tournament from `now`; the
        games a runner before it left in play (killed: SIGKILL) are not."""
        with self._transaction():
            self._db.execute("DELETE FROM games_in_play WHERE tournament_id = ?", (tournament_id,))
            self._db.execute(
                "INSERT OR REPLACE INTO runners (tournament_id, command, started_at, beat_at,"
                " ended_at, decided) VALUES (?, ?, ?, ?, NULL, 0)",
                (tournament_id, command, now, now),
            )

    def beat(
        self, tournament_id: int, now: float, ended: bool = False, decided: bool = False
    ) -> None:
        """The runner is still at work at `now`; or, `ended`, has stopped then
        (`decided`: with its SPRT over)."""
        with self._transaction():
            self._db.execute(
                "UPDATE runners SET beat_at = ?, ended_at = ?, decided = ? WHERE tournament_id = ?",
                (now, now if ended else None, int(decided), tournament_id),
            )
            if ended:  # its games left unstored are given up
                self._db.execute(
                    "DELETE FROM games_in_play WHERE tournament_id = ?", (tournament_id,)
                )

    # ------------------------------------------------------------ games in play

    def game_in_play(self, tournament_id: int, game: InPlay) -> None:
        """A game's match is created: it is in play until stored or given up."""
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO games_in_play (tournament_id, key, match_id,"
                " seats_json, node, started_at) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    game.key,
                    game.match_id,
                    json.dumps(list(game.seats)),
                    game.node,
                    game.started_at,
                ),
            )

    def game_not_in_play(self, tournament_id: int, key: str) -> None:
        """A game given up unstored (rejected this run) is no longer in play."""
        with self._transaction():
            self._db.execute(
                "DELETE FROM games_in_play WHERE tournament_id = ? AND key = ?",
                (tournament_id, key),
            )

    def report_marker(self, tournament_id: int) -> tuple[object, object, int, int]:
        """What changes whenever the tournament's report would (its runner
        stored a game, its schedule was updated), in cheap queries: its update
        time and games scheduled as stored (a value edited into text marks a
        change as well as a number), its games stored and the newest one's id."""
        updated_at, scheduled = self._db.execute(
            "SELECT updated_at, scheduled FROM tournaments WHERE id = ?", (tournament_id,)
        ).fetchone()
        count, newest = self._db.execute(
            "SELECT COUNT(*), COALESCE(MAX(id), 0) FROM games WHERE tournament_id = ?",
            (tournament_id,),
        ).fetchone()
        return updated_at, scheduled, int(count), int(newest)

    def games_in_play(self, tournament_id: int) -> tuple[InPlay, ...]:
        """The tournament's games in play, oldest first; none in a database
        written before they were recorded (read as it is: store_read), and a
        row edited by hand into nonsense is left out."""
        if not has_table(self._db, "games_in_play"):
            return ()
        games = []
        for key, match_id, seats_json, node, started_at in self._db.execute(
            "SELECT key, match_id, seats_json, node, started_at FROM games_in_play"
            " WHERE tournament_id = ? ORDER BY started_at, key",
            (tournament_id,),
        ):
            try:
                seats = json.loads(seats_json)
            except (TypeError, ValueError):
                continue
            if not isinstance(seats, list) or not all(isinstance(bot, str) for bot in seats):
                continue
            if not isinstance(started_at, (int, float)):
                continue
            row = InPlay(str(key), str(match_id), tuple(seats), str(node), float(started_at))
            games.append(row)
        return tuple(games)

    def heartbeats(self, tournament_id: int | None = None) -> dict[int, Heartbeat]:
        """Each tournament's runner (by id; or that one's) as last heard of; none
        in a database written before runners were recorded (read as it is:
        store_read)."""
        if not has_table(self._db, "runners"):
            return {}
        return {
            int(row[0]): Heartbeat(
                str(row[1]),
                float(row[2]),
                float(row[3]),
                None if row[4] is None else float(row[4]),
                bool(row[5]),
            )
            for row in self._db.execute(
                "SELECT tournament_id, command, started_at, beat_at, ended_at, decided"
                " FROM runners WHERE typeof(started_at) IN ('real', 'integer')"
                " AND typeof(beat_at) IN ('real', 'integer')"
                " AND typeof(ended_at) IN ('real', 'integer', 'null')"
                " AND tournament_id = COALESCE(?, tournament_id)",
                (tournament_id,),
            )
        }

    def newest_games(self, tournament_id: int | None = None) -> dict[int, float]:
        """When each tournament (by id; or that one) stored its newest game, in
        one query."""
        rows = self._db.execute(
            "SELECT tournament_id, MAX(finished_at) FROM games"
            " WHERE typeof(finished_at) IN ('real', 'integer')"
            " AND tournament_id = COALESCE(?, tournament_id) GROUP BY tournament_id",
            (tournament_id,),
        )
        return {int(row[0]): float(row[1]) for row in rows}
