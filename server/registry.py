"""The matches this server hosts: creation, lookup, restore and shutdown.

Only live matches are kept in memory. A match that is over is dropped as soon
as its result is written; GetMatch, ListMatches and GetReplay then answer from
the stored rows (read on a reader thread, never by replaying the game), so a
long-running server's memory does not grow with the matches it has finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import operator
import secrets
import time
from collections.abc import Callable, Iterable, Mapping

import structlog
from sheepfold.v1 import arena_pb2

import games
from games.errors import InvalidOptions, RulesChanged
from games.options import options_to_strings, parse_options
from server.hosted import HostedMatches
from server.live_share import full_server
from server.match import Match, Status
from server.match_restore import restored_match
from server.metrics import NO_METRICS, LiveView, ServerMetrics
from server.page_tokens import Position
from server.records import (
    ClockConfig,
    DamagedRecord,
    MatchRecord,
    MatchSummary,
    StoredMatch,
    hash_token,
    new_match_seed,
    new_seat_token,
    stored_result,
)
from server.seats import MatchLimits
from server.storage import StoreWorker
from server.store import ANY_OVER
from server.summaries import match_info, replay_message

REBUILD_ERRORS = (InvalidOptions, IndexError, ValueError, TypeError)


class LimitReached(Exception):
    """Too many live matches; the caller answers RESOURCE_EXHAUSTED."""


class MatchRegistry:
    def __init__(
        self,
        store: StoreWorker,
        *,
        max_live_matches: int = 10_000,
        start_timeout: float = 30.0,
        limits: MatchLimits | None = None,
        metrics: ServerMetrics = NO_METRICS,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.limits = limits or MatchLimits()
        self.max_live_matches = max_live_matches
        self.start_timeout = start_timeout
        self.accepting = True
        self.closing: str | None = None  # why the server is shutting down, once it is
        self.refusing: str | None = None  # why no new match is taken (a lost database file)
        self._matches: dict[str, Match] = {}
        self._hosted = HostedMatches()  # the same, in the order a listing answers in
        # Unfinished matches restore could not bring back: not hosted, and not
        # over in the store, so without this they would read as no match at all.
        self._unrestorable: dict[str, DamagedRecord] = {}
        self._creating = 0
        # Called once with each hosted match whose loop has ended (over, or
        # failed), as its task ends.
        self.match_done: list[Callable[[Match], None]] = []
        self._log = structlog.get_logger("sheepfold.registry")
        metrics.watch_live(self.live_view, games.names)

    def prepare(
        self,
        game_name: str,
        players: int,
        options: Mapping[str, str],
        seed: int | None,
        clock: ClockConfig,
    ) -> tuple[Match, list[str]]:
        """A new match and its seat tokens, made but neither written nor hosted.

        Raises InvalidOptions for an unknown game, a count of players it does not
        take, or options it refuses (alone or together). A request so refused
        could never be made, so it is checked before any bound on matches is
        looked at: told RESOURCE_EXHAUSTED at a bound, its client would try again
        later only to be refused all the same."""
        game = games.get(game_name)
        # Checked before anything is made per seat: a huge count must cost nothing.
        if not game.min_players <= players <= game.max_players:
            raise InvalidOptions(
                f"{game_name} takes {game.min_players} to {game.max_players} players, not {players}"
            )
        if seed is None:
            seed = new_match_seed()
        # The canonical option strings are stored; Match() validates the rest.
        parsed = parse_options(game.option_specs, options)
        canonical = options_to_strings(game.option_specs, parsed)
        tokens = [new_seat_token() for _ in range(players)]
        record = MatchRecord(
            match_id=secrets.token_hex(8),
            game=game_name,
            players=players,
            options=canonical,
            seed=seed,
            clock=clock,
            token_hashes=tuple(hash_token(t) for t in tokens),
            created_at=time.time(),
            rules_version=game.rules_version,
        )
        match = Match(
            record,
            game,
            self.store,
            start_timeout=self.start_timeout,
            limits=self.limits,
            metrics=self.metrics.for_game(game_name),
        )
        return match, tokens

    async def create(
        self,
        game_name: str,
        players: int,
        options: Mapping[str, str],
        seed: int | None,
        clock: ClockConfig,
    ) -> tuple[Match, list[str]]:
        """Create and start a match (`prepare`, then `add`); returns it with its
        seat tokens."""
        match, tokens = self.prepare(game_name, players, options, seed, clock)
        await self.add(match)
        return match, tokens

    async def add(
        self,
        match: Match,
        hosted: Callable[[Match], None] | None = None,
        given_up: Callable[[], None] | None = None,
    ) -> None:
        """Write and start a match `prepare` made. `hosted` is called with the
        match once it is hosted, even when its caller has left by then (see
        `_write_new`); `given_up`, in its place, once the match will not be: one
        of the two is called for every match added, the other never.

        Raises LimitReached when the server hosts as many live matches as it
        may, StoreUnavailable when the database cannot record the match in time
        (nothing is created).
        """
        try:
            # The hosted matches, not a count of those not over: that looked at every
            # one, 10 ms of the event loop a create at 10,000 of them. The two differ
            # only by a match whose end is being written (then dropped) or whose
            # loop failed with its abort refused by the database too (hosted,
            # and counted as live, until a restart).
            if len(self._matches) + self._creating >= self.max_live_matches:
                raise LimitReached(full_server(self.max_live_matches))
            self._creating += 1
            try:
                await self._write_new(match, hosted, given_up)
            finally:
                self._creating -= 1
        except asyncio.CancelledError:
            raise  # only the write waits, and `_write_new` has handed the create over
        except BaseException:
            if given_up is not None:
                given_up()
            raise
        self._created(match, hosted)

    async def _write_new(
        self,
        match: Match,
        hosted: Callable[[Match], None] | None,
        given_up: Callable[[], None] | None,
    ) -> None:
        """The new match's row written. Its caller leaving while the write waits
        for a locked database does not withdraw it (the writer thread makes it
        all the same): the match is then hosted once written, and aborted at
        the start timeout as any match nobody joins. Its row once lay in the
        file unknown to this server (NOT_FOUND, never aborted) until a restart
        brought it back."""
        if self.store.create_match_now(match.record):
            return
        # A task only on this slow path: the quick write costs no loop turn.
        write = asyncio.ensure_future(self.store.create_match(match.record))
        try:
            await asyncio.shield(write)
        except asyncio.CancelledError:
            # Its live-match place stays taken until the write ends (its
            # creator's too: `given_up` is called then, if it is not hosted).
            self._creating += 1
            write.add_done_callback(
                lambda done: self._written_for_nobody(match, done, hosted, given_up)
            )
            raise

    def _written_for_nobody(
        self,
        match: Match,
        write: asyncio.Future[None],
        hosted: Callable[[Match], None] | None,
        given_up: Callable[[], None] | None,
    ) -> None:
        self._creating -= 1
        # Nothing written (the writer logged why), or suspended with the rest
        # (the next start restores it).
        if write.cancelled() or write.exception() is not None or not self.accepting:
            if given_up is not None:
                given_up()
            return
        # Still its creator's: a match its caller left once counted against
        # nobody's bound on matches nobody plays (server/unplayed.py).
        self._created(match, hosted)

    def _created(self, match: Match, hosted: Callable[[Match], None] | None) -> None:
        match.metrics.match_created()
        self._host(match)
        if hosted is not None:
            hosted(match)
        match.log.info(
            "match created",
            players=match.record.players,
            options=match.record.options,
            decision_seconds=match.record.clock.decision_seconds,
        )

    def restore(self) -> int:
        """Bring back every unfinished match from the store; returns how many.
        Runs once at start, before the server serves anyone."""
        restored = 0
        for stored in self.store.unfinished():
            if isinstance(stored, DamagedRecord):
                # Left as it is, for whoever mends the database; the rest go on.
                self._log.error(
                    "cannot restore match",
                    match_id=stored.match_id,
                    game=stored.game,
                    error=str(stored),
                )
                self._unrestorable[stored.match_id] = stored
                continue
            try:
                match = self._rebuild(stored)
            except RulesChanged as error:
                # Resuming it would play a different game: it ends here, saying why.
                reason = f"not restored: {error}"
                # Its seats' states died with the old server; which seats it had did not.
                seats = [arena_pb2.SeatInfo(seat=i) for i in range(stored.record.players)]
                result = arena_pb2.MatchResult(end_reason=reason, seats=seats)
                self.store.store.finish_match(
                    stored.record.match_id, "aborted", result.SerializeToString(), reason
                )
                self._log.error(
                    "cannot restore match",
                    match_id=stored.record.match_id,
                    game=stored.record.game,
                    error=str(error),
                )
                continue
            except Exception as error:
                # A damaged row (REBUILD_ERRORS), or an engine failing on a move it
                # once played (a bug, with its traceback): that match alone. The
                # server once did not start, every other match down with it.
                match_id = stored.record.match_id
                self._log.error(
                    "cannot restore match",
                    match_id=match_id,
                    game=stored.record.game,
                    error=str(error),
                    exc_info=not isinstance(error, REBUILD_ERRORS),
                )
                why = f"it cannot be restored: {error}"
                damage = DamagedRecord(match_id, why, stored.record.game)
                self._unrestorable[match_id] = damage
                continue
            self._host(match)
            match.log.info("match restored", moves=len(stored.moves))
            restored += 1
        self.metrics.matches_restored(restored)
        return restored

    def _rebuild(self, stored: StoredMatch) -> Match:
        return restored_match(
            stored,
            games.get(stored.record.game),
            self.store,
            start_timeout=self.start_timeout,
            limits=self.limits,
            metrics=self.metrics.for_game(stored.record.game),
        )

    def _host(self, match: Match) -> None:
        match_id = match.record.match_id
        self._matches[match_id] = match
        self._hosted.add(match)
        task = match.start()

        def forget(_: asyncio.Task[None]) -> None:
            # Over and written: from now on it is answered from the store (one
            # whose loop failed too, aborted). One whose abort could not be
            # written stays hosted, unfinished, so GetMatch still shows it.
            if match.over and self._matches.get(match_id) is match:
                del self._matches[match_id]
                self._hosted.remove(match)
            for done in self.match_done:
                done(match)

        task.add_done_callback(forget)

    def hosted(self, match_id: str) -> Match | None:
        return self._matches.get(match_id)

    async def finished(self, match_id: str) -> StoredMatch | None:
        """A finished (or aborted) match this server no longer hosts, as stored:
        its moves are read on a reader thread and never replayed here. None for
        a match the store does not have; DamagedRecord for an unfinished one
        restore could not bring back."""
        if not _could_be_a_match_id(match_id):
            return None
        self._check_restored(match_id)
        stored = await self.store.load(match_id)
        return None if stored is None or stored.status == "running" else stored

    async def finished_summary(self, match_id: str) -> MatchSummary | None:
        """The same as `finished`, without the moves."""
        if not _could_be_a_match_id(match_id):
            return None
        self._check_restored(match_id)
        summary = await self.store.summary(match_id)
        return None if summary is None or summary.status == "running" else summary

    def _check_restored(self, match_id: str) -> None:
        """DamagedRecord for an unfinished match restore could not bring back."""
        damage = self._unrestorable.get(match_id)
        if damage is not None:
            raise damage

    async def info(self, match_id: str) -> arena_pb2.MatchInfo | None:
        match = self._matches.get(match_id)
        if match is not None:
            return match.info()
        summary = await self.finished_summary(match_id)
        return None if summary is None else match_info(summary)

    async def replay(self, match_id: str) -> arena_pb2.Replay | Match | None:
        """A stored match's replay, or the hosted match (which may not be over)."""
        match = self._matches.get(match_id)
        if match is not None or not _could_be_a_match_id(match_id):
            return match
        self._check_restored(match_id)

        def build() -> arena_pb2.Replay | None:
            stored = self.store.store.load(match_id)
            if stored is None or stored.status == "running":
                return None
            result = stored_result(match_id, stored.result)
            return replay_message(stored.record, stored.moves, result)

        return await self.store.run(build)

    async def listing(
        self, game: str, status: Status | None, limit: int, after: Position | None = None
    ) -> list[arena_pb2.MatchInfo]:
        """The newest matches, hosted or only in the store, newest first and,
        created together, by match_id; only those after `after` in that order
        when it is given (the next page: server/page_tokens.py). A stored row
        that cannot be read back is left out (reading that match alone says so)."""
        # Only the newest are looked at: a listing of one among thousands of
        # hosted matches once built every one's MatchInfo on the event loop,
        # and then still looked at every one (server/hosted.py).
        newest = self._hosted.newest(game, status, limit, after)
        found = [(Position.of_record(m.record), m.info()) for m in newest]
        # Rows of matches still running are never listed from the store: one just
        # created and not yet hosted would take a place among the newest and be
        # left out, so the listing came back one short.
        stored_status: dict[Status | None, str] = {
            None: ANY_OVER,
            Status.FINISHED: "finished",
            Status.ABORTED: "aborted",
        }
        if status in stored_status:
            # Only what is listed from memory is skipped in the store: a match
            # still playing above that finishes (and is written) before the
            # store is read is in neither list otherwise, and a listing of
            # finished matches came back one short. A hosted match older than
            # the newest `limit` need not be skipped: its stored row would come
            # after all of them, and be cut. Both lists start after the same
            # key, which a match keeps wherever it is: so a match that finished
            # and left the hosted ones between two pages is on one page only.
            listed = {m.record.match_id for m in newest}

            def stored() -> list[tuple[Position, arena_pb2.MatchInfo]]:
                rows = []
                for summary in self.store.store.recent(game, stored_status[status], limit, after):
                    if summary.record.match_id in listed:
                        continue
                    with contextlib.suppress(DamagedRecord):
                        rows.append((Position.of_record(summary.record), match_info(summary)))
                return rows

            found += await self.store.run(stored)
        found.sort(key=operator.itemgetter(0))
        return [info for _, info in found[:limit]]

    def all(self) -> Iterable[Match]:
        return self._matches.values()

    def live_view(self) -> LiveView:
        """Live matches and their watchers by game (read by the metrics scrape)."""
        live: dict[str, int] = {}
        watchers: dict[str, int] = {}
        for match in list(self._matches.values()):
            if not match.over:
                game = match.record.game
                live[game] = live.get(game, 0) + 1
                watchers[game] = watchers.get(game, 0) + match.watcher_count
        return LiveView(live, watchers)

    def live_count(self) -> int:
        return sum(1 for m in self._matches.values() if not m.over)

    async def shutdown(self, reason: str) -> None:
        """Stop every live match; each stays unfinished in the store."""
        self.accepting = False
        self.closing = reason
        for match in list(self._matches.values()):
            if match.status in (Status.WAITING, Status.RUNNING):
                await match.stop(reason)


# Ids are 16 hex digits (`create`); older servers' stay well within this.
MAX_MATCH_ID_CHARS = 64


def _could_be_a_match_id(match_id: str) -> bool:
    """Whether the store may hold `match_id`: an empty or far longer one is
    nobody's, and is not sent to a reader thread (whose copies of long ids,
    one per refused call, fragmented the memory of every thread's arena)."""
    return 0 < len(match_id) <= MAX_MATCH_ID_CHARS
