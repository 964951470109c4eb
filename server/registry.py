"""The matches this server hosts: creation, lookup, restore and shutdown."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Mapping

import structlog

import games
from games.errors import InvalidOptions
from games.options import parse_options
from server import convert
from server.match import Match, MatchLimits, Status
from server.metrics import NO_METRICS, LiveView, ServerMetrics
from server.records import ClockConfig, MatchRecord, StoredMatch, hash_token, new_seat_token
from server.store import Store


class LimitReached(Exception):
    """Too many live matches; the caller answers RESOURCE_EXHAUSTED."""


class MatchRegistry:
    def __init__(
        self,
        store: Store,
        *,
        max_live_matches: int = 10_000,
        start_timeout: float = 30.0,
        keep_finished: int = 10_000,
        limits: MatchLimits | None = None,
        metrics: ServerMetrics = NO_METRICS,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.limits = limits or MatchLimits()
        self.max_live_matches = max_live_matches
        self.start_timeout = start_timeout
        self.keep_finished = keep_finished
        self.accepting = True
        self._matches: dict[str, Match] = {}
        self._log = structlog.get_logger("sheepfold.registry")
        metrics.watch_live(self.live_view, games.names)

    def create(
        self,
        game_name: str,
        players: int,
        options: Mapping[str, str],
        seed: int | None,
        clock: ClockConfig,
    ) -> tuple[Match, list[str]]:
        """Create and start a match; returns it with its seat tokens.

        Raises InvalidOptions for an unknown game or bad options, LimitReached
        when the server hosts as many live matches as it may.
        """
        game = games.get(game_name)
        # Checked before anything is made per seat: a huge count must cost nothing.
        if not game.min_players <= players <= game.max_players:
            raise InvalidOptions(
                f"{game_name} takes {game.min_players} to {game.max_players} players, not {players}"
            )
        if self.live_count() >= self.max_live_matches:
            raise LimitReached(f"the server already hosts {self.max_live_matches} live matches")
        if seed is None:
            seed = secrets.randbits(63)
        # The canonical option strings are stored; Match() validates the rest.
        parsed = parse_options(game.option_specs, options)
        canonical = convert.options_to_strings(game.option_specs, parsed)
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
        )
        match = Match(
            record,
            game,
            self.store,
            start_timeout=self.start_timeout,
            limits=self.limits,
            metrics=self.metrics.for_game(game_name),
        )
        self.store.create_match(record)
        match.metrics.match_created()
        self._add(match)
        match.start()
        match.log.info(
            "match created",
            players=players,
            options=canonical,
            decision_seconds=clock.decision_seconds,
        )
        return match, tokens

    def restore(self) -> int:
        """Bring back every unfinished match from the store; returns how many."""
        restored = 0
        for stored in self.store.unfinished():
            try:
                match = self._rebuild(stored)
            except (InvalidOptions, IndexError, ValueError, TypeError) as error:
                self._log.error(
                    "cannot restore match", match_id=stored.record.match_id, error=str(error)
                )
                continue
            self._add(match)
            match.start()
            match.log.info("match restored", moves=len(stored.moves))
            restored += 1
        self.metrics.matches_restored(restored)
        return restored

    def _rebuild(self, stored: StoredMatch) -> Match:
        return Match.from_store(
            stored,
            games.get(stored.record.game),
            self.store,
            start_timeout=self.start_timeout,
            limits=self.limits,
            metrics=self.metrics.for_game(stored.record.game),
        )

    def _add(self, match: Match) -> None:
        self._matches[match.record.match_id] = match
        self._forget_old_finished()

    def _forget_old_finished(self) -> None:
        finished = [m for m in self._matches.values() if m.over]
        for match in finished[: max(0, len(finished) - self.keep_finished)]:
            del self._matches[match.record.match_id]

    def get(self, match_id: str) -> Match | None:
        """A hosted match, or a finished one loaded back from the store."""
        match = self._matches.get(match_id)
        if match is not None or not match_id:
            return match
        stored = self.store.load(match_id)
        if stored is None or stored.status == "running":
            # An unfinished match that is not hosted could not be restored: not served.
            return None
        try:
            match = self._rebuild(stored)
        except (InvalidOptions, IndexError, ValueError, TypeError) as error:
            self._log.error("cannot load match", match_id=match_id, error=str(error))
            return None
        self._add(match)
        return match

    def listing(self, game: str, status: Status | None, limit: int) -> list[Match]:
        """The newest matches, hosted or only in the store, newest first."""
        hosted = [
            m
            for m in self._matches.values()
            if (not game or m.record.game == game) and (status is None or m.status == status)
        ]
        stored_status = {Status.FINISHED: "finished", Status.ABORTED: "aborted"}.get(status, "")
        if status is None or stored_status:
            known = {m.record.match_id for m in hosted}
            for stored in self.store.recent(game, stored_status, limit):
                if stored.record.match_id not in known and stored.status != "running":
                    match = self.get(stored.record.match_id)
                    if match is not None:
                        hosted.append(match)
        hosted.sort(key=lambda m: m.record.created_at, reverse=True)
        return hosted[:limit]

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
        for match in list(self._matches.values()):
            if match.status in (Status.WAITING, Status.RUNNING):
                await match.stop(reason)
