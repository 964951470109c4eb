"""Watch: a live match's public log shared by its watchers, or a finished
match replayed for each watcher, within the watch limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import NoReturn

import grpc
from sheepfold.v1 import arena_pb2

import games
from games.errors import InvalidOptions, RulesChanged
from server.arena_calls import ARENA_SERVICE, ArenaCalls, cut_off_streams_of, database_errors
from server.fairness import serving
from server.peers import peer_address
from server.records import MatchRecord, StoredMatch
from server.registry import REBUILD_ERRORS
from server.spectators import Watcher, replay_for_spectator, spectate
from server.status import abort, abort_no_match

WATCH_METHOD = f"/{ARENA_SERVICE}/Watch"


class WatchCall(ArenaCalls):
    async def Watch(
        self, request: arena_pb2.WatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.WatchResponse]:
        match_id = request.match_id
        if self.registry.closing is not None:
            # Its match is suspended (nothing moves it on) or replayed only to be
            # cut short: refused at once, not watched until the grace runs out.
            await abort(context, grpc.StatusCode.UNAVAILABLE, self.registry.closing)
        address = peer_address(context.peer())
        cut_off_streams = await cut_off_streams_of(context, address, WATCH_METHOD)
        serving(context.peer())  # its read and its replay take turns with other clients'
        # A live match's watchers share one public log, and keep sharing it once
        # the match is over and no longer hosted; a finished match, and a live
        # one's moves before its log began, are replayed for each watcher as it
        # reads.
        live = self._watched.get(match_id) or self.registry.hosted(match_id)
        stored = None
        if live is None:
            # Refused before the match is read, and again once it has been.
            await self._refuse_beyond_watch_limit(match_id, address, None, context)
            stored = await self._stored(match_id, context)
        held = live if live is not None else stored
        assert held is not None
        if live is not None and live.failed is not None:
            # Nothing moves it on: a watcher would wait for ever.
            await abort(context, grpc.StatusCode.INTERNAL, live.failed)
        if self.private_replays and (live is None or live.over):
            # Watch carries no token, and a match that is over would be replayed:
            # its public history is a deal other groups may still have to play.
            await abort(
                context,
                grpc.StatusCode.PERMISSION_DENIED,
                "this server keeps its replays private: a match that is over is not "
                "watched; GetReplay with the admin token gives its record",
            )
        await self._refuse_beyond_watch_limit(match_id, address, held.record.game, context)
        self._watch_places.take(match_id, address)
        placed = True
        watcher: Watcher | None = None

        def give_back() -> None:
            """The watcher's place, given back once: when it ends, or is cut off."""
            nonlocal placed, watcher
            if watcher is not None and live is not None:
                live.unwatch(watcher)
                watcher = None
            if placed:
                placed = False
                if self._watch_places.give_back(match_id, address):
                    self._watched.pop(match_id, None)

        about = {"match_id": match_id, "game": held.record.game}
        writer = self.stalls.add(WATCH_METHOD, give_back, address, cut_off_streams, about)
        clock = asyncio.get_running_loop().time
        try:
            if live is not None:
                self._watched[match_id] = live
                watcher = live.watch(request.from_start)
                messages = spectate(
                    watcher,
                    live.game,
                    live.record,
                    live.moves,
                    self._replay_turns,
                    context,
                    lambda: self.registry.closing,
                )
            else:
                assert stored is not None
                messages = self._replayed(stored, request.from_start, context)
            async for message in messages:
                writer.since = clock()
                yield message
                writer.since = None
                if writer.cut:  # its client read again: told why nothing more comes
                    await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, self.stalls.reason)
        finally:
            self.stalls.remove(writer)
            give_back()

    async def _refuse_beyond_watch_limit(
        self,
        match_id: str,
        address: str,
        game: str | None,
        context: grpc.aio.ServicerContext,
    ) -> None:
        limits = self.registry.limits
        if not limits.max_watchers or not limits.max_watch_streams:
            # Not a place taken that may come free: none ever will. It once said
            # RESOURCE_EXHAUSTED "this match already has 0 watchers", which tells
            # a client to try again later.
            flag = "--max-watchers 0" if not limits.max_watchers else "--max-watch-streams 0"
            await abort(
                context,
                grpc.StatusCode.PERMISSION_DENIED,
                f"this server takes no spectators (serve {flag})",
            )
        refused = self._watch_places.refusal(match_id, address, limits)
        if refused is not None:
            message, key = refused
            self._log_refusal("watch refused", match_id, game, "RESOURCE_EXHAUSTED", message, key)
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, message)

    async def _stored(self, match_id: str, context: grpc.aio.ServicerContext) -> StoredMatch:
        """A finished match this server no longer hosts, read from the store."""
        async with database_errors(context):
            stored = await self.registry.finished(match_id)
        if stored is None:
            await abort_no_match(context, match_id)
        return stored

    async def _replayed(
        self, stored: StoredMatch, from_start: bool, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.WatchResponse]:
        """A stored match replayed for one watcher. One recorded under other rules
        would replay as another game: it is refused, as is a record the engine
        cannot replay (a damaged database)."""
        match_id = stored.record.match_id
        try:
            game = games.get(stored.record.game)
            game.check_rules_version(stored.record.rules_version)
        except RulesChanged as error:
            await abort(context, grpc.StatusCode.FAILED_PRECONDITION, f"match {match_id}: {error}")
        except InvalidOptions as error:
            await self._unreplayable(stored.record, error, context)
        replayed = replay_for_spectator(
            game, stored, from_start, self._replay_turns, context, lambda: self.registry.closing
        )
        try:
            async for message in replayed:
                yield message
        except REBUILD_ERRORS as error:
            await self._unreplayable(stored.record, error, context)

    async def _unreplayable(
        self, record: MatchRecord, error: Exception, context: grpc.aio.ServicerContext
    ) -> NoReturn:
        match_id = record.match_id
        self.log.error(
            "cannot replay stored match", match_id=match_id, game=record.game, error=str(error)
        )
        await abort(
            context,
            grpc.StatusCode.DATA_LOSS,
            f"match {match_id} cannot be replayed from the database: {error}",
        )
