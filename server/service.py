"""The `sheepfold.v1.Arena` gRPC service."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import math
from collections.abc import AsyncIterator
from typing import NoReturn

import grpc
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from games.errors import InvalidOptions, RulesChanged
from server import convert
from server.cut_off_streams import COUNT, CutOffStreams
from server.decoding import Undecodable
from server.fairness import FairQueue, serving
from server.logs import Counts, worth_logging
from server.match import Match, Status
from server.peers import PendingJoins, peer_address
from server.records import (
    MAX_DECISION_SECONDS,
    MAX_STRIKES,
    MAX_TIME_BANK_SECONDS,
    MIN_DECISION_SECONDS,
    ClockConfig,
    DamagedRecord,
    StoredMatch,
)
from server.registry import MAX_MATCH_ID_CHARS, REBUILD_ERRORS, LimitReached, MatchRegistry
from server.seats import JoinError, SeatStream, token_owner, why_over
from server.spectators import Watcher, replay_for_spectator, spectate
from server.stalls import StalledWrites
from server.status import CallEnded, abort
from server.storage import StoreRefused, StoreUnavailable
from server.streams import StreamClosed
from server.unexpected import PASSED_ON, end_with_internal
from server.unplayed import DEFAULT_UNPLAYED_MATCHES, UnplayedMatches, creator
from server.watch_places import WatchPlaces

DEFAULT_LIST_LIMIT = 100
MAX_LIST_LIMIT = 1_000


ARENA_SERVICE = arena_pb2.DESCRIPTOR.services_by_name["Arena"].full_name
PLAY_METHOD = f"/{ARENA_SERVICE}/Play"
WATCH_METHOD = f"/{ARENA_SERVICE}/Watch"
# A Play or Watch stream whose write waits this long for its client is cancelled.
DEFAULT_WRITE_STALL_SECONDS = 60.0


class ArenaService(arena_pb2_grpc.ArenaServicer):
    def __init__(
        self,
        registry: MatchRegistry,
        *,
        admin_token: str | None = None,
        private_replays: bool = False,
        default_clock: ClockConfig | None = None,
        join_timeout: float = 30.0,
        max_pending_joins: int = 100,
        max_pending_joins_total: int = 2_000,
        stalls: StalledWrites | None = None,
        replay_turns: FairQueue | None = None,
        max_unplayed_matches: int = DEFAULT_UNPLAYED_MATCHES,
    ) -> None:
        self.registry = registry
        self.stalls = stalls or StalledWrites(DEFAULT_WRITE_STALL_SECONDS)
        self.join_timeout = join_timeout
        self.pending_joins = PendingJoins(max_pending_joins, max_pending_joins_total)
        self._watch_places = WatchPlaces()
        self._watched: dict[str, Match] = {}
        self._refusals = Counts()  # refused joins and watches, per match
        # Matches are replayed for their watchers one step at a time, in turns
        # that go round the clients (server/fairness.py).
        self._replay_turns = replay_turns or FairQueue(1)
        self.admin_token = admin_token or None
        # Without an admin token anyone creates matches: one client address's
        # that nobody plays are bounded (server/unplayed.py).
        self.unplayed = UnplayedMatches(max_unplayed_matches)
        registry.match_done.append(self.unplayed.ended)
        self.private_replays = private_replays
        self.default_clock = default_clock or ClockConfig()
        self.log = structlog.get_logger("sheepfold.service")

    # ------------------------------------------------------------ games

    async def ListGames(
        self, request: arena_pb2.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.ListGamesResponse:
        return arena_pb2.ListGamesResponse(
            games=[convert.game_info(games.get(name)) for name in games.names()]
        )

    # ------------------------------------------------------------ matches

    async def CreateMatch(
        self, request: arena_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.CreateMatchResponse:
        await self._check_admin(request.admin_token, context)
        if not self.registry.accepting:
            await abort(context, grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
        if self.registry.refusing is not None:
            await abort(context, grpc.StatusCode.UNAVAILABLE, self.registry.refusing)
        clock = await self._clock(request.clock, context)
        seed = request.seed if request.HasField("seed") else None
        address = None if self.admin_token is not None else creator(context.peer())
        if address is not None and (why := self.unplayed.refusal(address)) is not None:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, why)
        match, tokens = await self._create(request, clock, seed, context)
        if address is not None:
            self.unplayed.created(address, match)
        return arena_pb2.CreateMatchResponse(
            match_id=match.record.match_id, seat_tokens=tokens, seed=match.record.seed
        )

    async def _create(
        self,
        request: arena_pb2.CreateMatchRequest,
        clock: ClockConfig,
        seed: int | None,
        context: grpc.aio.ServicerContext,
    ) -> tuple[Match, list[str]]:
        try:
            async with _database_errors(context):
                return await self.registry.create(
                    request.game, request.players, dict(request.options), seed, clock
                )
        except InvalidOptions as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
        except LimitReached as error:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))

    async def _check_admin(
        self,
        presented: str,
        context: grpc.aio.ServicerContext,
        needs: str = "this server needs an admin token",
    ) -> None:
        if self.admin_token is None:
            return
        if not presented:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, needs)
        if not self._is_admin(presented):
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, "wrong admin token")

    def _is_admin(self, presented: str) -> bool:
        """Whether `presented` is this server's admin token (compared in constant time)."""
        token = self.admin_token
        return token is not None and hmac.compare_digest(presented.encode(), token.encode())

    async def _check_reader(self, presented: str, context: grpc.aio.ServicerContext) -> None:
        """On a server with private replays, only the admin token lists and replays matches."""
        if self.private_replays:
            await self._check_admin(
                presented,
                context,
                "this server keeps its match list and replays private: they need the admin token",
            )

    async def _clock(
        self, settings: arena_pb2.ClockSettings, context: grpc.aio.ServicerContext
    ) -> ClockConfig:
        default = self.default_clock
        if not all(map(math.isfinite, (settings.decision_seconds, settings.time_bank_seconds))):
            await abort(
                context, grpc.StatusCode.INVALID_ARGUMENT, "clock times must be finite numbers"
            )
        if settings.decision_seconds < 0 or settings.time_bank_seconds < 0:
            await abort(
                context, grpc.StatusCode.INVALID_ARGUMENT, "clock times must not be negative"
            )
        if settings.max_strikes < 0:
            await abort(
                context, grpc.StatusCode.INVALID_ARGUMENT, "max_strikes must not be negative"
            )
        if settings.max_strikes > MAX_STRIKES:
            await abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                f"max_strikes must be 0 (the server's default, {default.max_strikes}) or 1 to "
                f"{MAX_STRIKES:,}, not {settings.max_strikes:,}",
            )
        if (
            settings.decision_seconds > MAX_DECISION_SECONDS
            or settings.time_bank_seconds > MAX_TIME_BANK_SECONDS
        ):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "clock times are too long")
        if 0 < settings.decision_seconds < MIN_DECISION_SECONDS:
            await abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                f"decision_seconds must be 0 (the server's default) or at least "
                f"{MIN_DECISION_SECONDS:g}",
            )
        return ClockConfig(
            decision_seconds=settings.decision_seconds or default.decision_seconds,
            time_bank_seconds=settings.time_bank_seconds or default.time_bank_seconds,
            max_strikes=settings.max_strikes or default.max_strikes,
        )

    async def GetMatch(
        self, request: arena_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.MatchInfo:
        serving(context.peer())  # its reads take turns with other clients' (server/fairness.py)
        async with _database_errors(context):
            info = await self.registry.info(request.match_id)
        if info is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        if (
            self.private_replays
            and info.HasField("seed")
            and not self._is_admin(request.admin_token)
        ):
            # A finished match's seed is the deal every other group meets on its
            # deal number: kept, like the replays, for the admin token.
            shown = arena_pb2.MatchInfo()
            shown.CopyFrom(info)
            shown.ClearField("seed")
            return shown
        return info

    async def ListMatches(
        self, request: arena_pb2.ListMatchesRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.ListMatchesResponse:
        serving(context.peer())
        await self._check_reader(request.admin_token, context)
        if request.limit < 0:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "limit must not be negative")
        if request.status and request.status not in {s.value for s in Status}:
            await abort(
                context, grpc.StatusCode.INVALID_ARGUMENT, f"unknown match status {request.status}"
            )
        if request.game and request.game not in games.names():
            await abort(
                context, grpc.StatusCode.INVALID_ARGUMENT, f"unknown game {request.game[:64]!r}"
            )
        limit = min(request.limit or DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT)
        status = Status(request.status) if request.status else None
        async with _database_errors(context):
            found = await self.registry.listing(request.game, status, limit)
        return arena_pb2.ListMatchesResponse(matches=found)

    async def GetReplay(
        self, request: arena_pb2.GetReplayRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.Replay:
        serving(context.peer())
        await self._check_reader(request.admin_token, context)
        async with _database_errors(context):
            found = await self.registry.replay(request.match_id)
        if found is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        if isinstance(found, arena_pb2.Replay):
            return found
        match = found
        if not match.over:
            # The seed fixes every deck order: a replay of a live match would leak them.
            await abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                "the match is not over: replays are for finished matches only",
            )
        return match.replay_message()

    # ------------------------------------------------------------ spectators

    async def Watch(
        self, request: arena_pb2.WatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.WatchResponse]:
        match_id = request.match_id
        if self.registry.closing is not None:
            # Its match is suspended (nothing moves it on) or replayed only to be
            # cut short: refused at once, not watched until the grace runs out.
            await abort(context, grpc.StatusCode.UNAVAILABLE, self.registry.closing)
        address = peer_address(context.peer())
        cut_off_streams = await _cut_off_streams(context, address, WATCH_METHOD)
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

        writer = self.stalls.add(WATCH_METHOD, give_back, address, cut_off_streams)
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
        refused = self._watch_places.refusal(match_id, address, self.registry.limits)
        if refused is not None:
            message, key = refused
            self._log_refusal("watch refused", match_id, game, "RESOURCE_EXHAUSTED", message, key)
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, message)

    def _log_refusal(
        self,
        event: str,
        match_id: str,
        game: str | None,
        code: str,
        reason: str,
        key: str | None = None,
    ) -> None:
        """A refused join or watch: a match's first 20, then one in a thousand
        (counted by `key`, the match id unless given)."""
        total = self._refusals.due(f"{event}:{match_id if key is None else key}")
        if total is not None:
            known = {} if game is None else {"game": game}
            shown = match_id[:MAX_MATCH_ID_CHARS]
            more = self._refusals.left_out()
            self.log.info(
                event, match_id=shown, **known, code=code, reason=reason, total=total, **more
            )

    async def _stored(self, match_id: str, context: grpc.aio.ServicerContext) -> StoredMatch:
        """A finished match this server no longer hosts, read from the store."""
        async with _database_errors(context):
            stored = await self.registry.finished(match_id)
        if stored is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {match_id!r}")
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
            await self._unreplayable(match_id, error, context)
        replayed = replay_for_spectator(
            game, stored, from_start, self._replay_turns, context, lambda: self.registry.closing
        )
        try:
            async for message in replayed:
                yield message
        except REBUILD_ERRORS as error:
            await self._unreplayable(match_id, error, context)

    async def _unreplayable(
        self, match_id: str, error: Exception, context: grpc.aio.ServicerContext
    ) -> NoReturn:
        self.log.error("cannot replay stored match", match_id=match_id, error=str(error))
        await abort(
            context,
            grpc.StatusCode.DATA_LOSS,
            f"match {match_id} cannot be replayed from the database: {error}",
        )

    # ------------------------------------------------------------ playing

    async def Play(
        self,
        request_iterator: AsyncIterator[arena_pb2.PlayRequest],
        context: grpc.aio.ServicerContext,
    ) -> AsyncIterator[arena_pb2.PlayResponse | bytes]:
        """A seat's messages; bytes are a PlayResponse already encoded, which
        `PreEncodedResponses` sends as they are."""
        try:
            address = peer_address(context.peer())
            cut_off_streams = await _cut_off_streams(context, address, PLAY_METHOD)
            match, seat, stream = await self._join(request_iterator, context)
            reader = asyncio.create_task(_read_answers(request_iterator, match, seat, stream))
            get = stream.get

            def cut_off() -> None:
                """The seat given back; its client, should it read again, reads
                what was written to it and then why nothing more comes."""
                stream.close(grpc.StatusCode.RESOURCE_EXHAUSTED, self.stalls.reason)
                reader.cancel()
                match.leave(seat, stream)

            writer = self.stalls.add(PLAY_METHOD, cut_off, address, cut_off_streams)
            clock = asyncio.get_running_loop().time
            try:
                # The seat's queue drained here, not through `relay`: one generator less
                # for every message of every decision.
                while not isinstance(message := await get(), StreamClosed):
                    writer.since = clock()
                    yield message
                    writer.since = None
                if message.code is not None:
                    # Logged here, not by the reader: the reader may be cancelled
                    # before it sees the stream end.
                    if worth_logging(stream.join_number):
                        match.log.info(
                            "seat stream ended by the server", seat=seat, joins=stream.join_number
                        )
                    with contextlib.suppress(CallEnded):  # its client had left meanwhile
                        await abort(context, message.code, message.message)
            finally:
                self.stalls.remove(writer)
                reader.cancel()
                match.leave(seat, stream)
        except PASSED_ON:
            raise
        except Exception:
            # Not the unary calls' wrapper: that would be one more generator for
            # every message of every decision.
            await end_with_internal(self.log, context, PLAY_METHOD)

    async def _join(
        self,
        request_iterator: AsyncIterator[arena_pb2.PlayRequest],
        context: grpc.aio.ServicerContext,
    ) -> tuple[Match, int, SeatStream]:
        """The stream's first message, a join, taken: its match, seat and queue."""
        address = peer_address(context.peer())
        loop = asyncio.get_running_loop()
        pushed_out: str | None = None
        await self._refuse_when_closing(context)
        try:
            # A timeout scope, not wait_for: no task of its own for every join.
            async with asyncio.timeout(self.join_timeout) as scope:
                ticket = self.pending_joins.enter(address, lambda: scope.reschedule(loop.time()))
                try:
                    first = await _first_message(request_iterator)
                finally:
                    pushed_out = self.pending_joins.leave(address, ticket)
        except TimeoutError:
            await self._refuse_when_closing(context)  # pushed out by end_pending_joins
            if pushed_out is not None:
                why = f"pushed out before joining: {pushed_out}"
                await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, why)
            await abort(
                context,
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"no join within {self.join_timeout:g} s of opening the stream",
            )
        if isinstance(first, Undecodable):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, first.message)
        if first is None or not first.HasField("join"):
            await abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                "the first message on Play must be a join",
            )
        # The matches are suspended, to be restored by the next server: a join
        # now would be handed a decision that can no longer be answered.
        await self._refuse_when_closing(context)
        join = first.join
        named = join.seat if join.HasField("seat") else None
        match = self.registry.hosted(join.match_id)
        if match is None:
            await self._refuse_join_to_stored(join.match_id, named, join.token, context)
        stream = SeatStream(match.limits.seat_queue)
        try:
            seat = match.authenticate(named, join.token)
            match.join(seat, stream, join.events_in_decisions)
        except JoinError as error:
            self._log_refusal(
                "join refused",
                match.record.match_id,
                match.record.game,
                error.code.name,
                error.message,
            )
            await abort(context, error.code, error.message)
        return match, seat, stream

    async def _refuse_when_closing(self, context: grpc.aio.ServicerContext) -> None:
        if self.registry.closing is not None:
            await abort(context, grpc.StatusCode.UNAVAILABLE, self.registry.closing)

    def end_pending_joins(self) -> None:
        """At shutdown, once the matches are suspended: the Play streams still
        waiting for their join end at once (UNAVAILABLE with the shutdown's
        reason), instead of holding the server's exit until the grace runs out."""
        self.pending_joins.push_out_all("the server is shutting down")

    async def _refuse_join_to_stored(
        self, match_id: str, seat: int | None, token: str, context: grpc.aio.ServicerContext
    ) -> NoReturn:
        """A join to a match this server does not host: nothing to join, but the
        token is checked first, as for a hosted match. Its summary is enough: the
        match is never replayed for a join."""
        serving(context.peer())
        async with _database_errors(context):
            summary = await self.registry.finished_summary(match_id)
        if summary is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {match_id!r}")
        try:
            token_owner(summary.record.token_hashes, seat, token)
        except JoinError as error:
            code, reason = error.code, error.message
        else:
            code, reason = (
                grpc.StatusCode.FAILED_PRECONDITION,
                why_over(summary.status == "aborted", summary.end_reason),
            )
        self._log_refusal("join refused", match_id, summary.record.game, code.name, reason)
        await abort(context, code, reason)


@contextlib.asynccontextmanager
async def _database_errors(context: grpc.aio.ServicerContext) -> AsyncIterator[None]:
    """A database that cannot answer now is UNAVAILABLE; one that refuses is INTERNAL.
    Either way the client reads a sentence, never a raw sqlite3 exception."""
    try:
        yield
    except StoreUnavailable as error:
        await abort(context, grpc.StatusCode.UNAVAILABLE, str(error))
    except StoreRefused as error:
        await abort(context, grpc.StatusCode.INTERNAL, str(error))
    except DamagedRecord as error:
        await abort(context, grpc.StatusCode.DATA_LOSS, str(error))


async def _first_message(
    requests: AsyncIterator[arena_pb2.PlayRequest],
) -> arena_pb2.PlayRequest | Undecodable | None:
    try:
        return await anext(requests)
    except StopAsyncIteration:
        return None


async def _read_answers(
    requests: AsyncIterator[arena_pb2.PlayRequest], match: Match, seat: int, stream: SeatStream
) -> None:
    try:
        async for request in requests:
            if isinstance(request, Undecodable):
                match.reject(seat, request.message, stream)
            elif request.HasField("answer"):
                match.answer(seat, request.answer.decision_id, request.answer.action_index, stream)
            elif request.HasField("join"):
                match.reject(seat, "this stream has already joined; send answers only", stream)
            else:
                match.reject(seat, "the message holds no answer", stream)
    except (asyncio.CancelledError, grpc.aio.AioRpcError, grpc.aio.AbortError):
        pass  # the client left, or the server ended the stream (Play logs that)
    except Exception:
        # A bug must not leave the client waiting on a stream nobody reads.
        match.log.exception("reading a Play stream failed", seat=seat)
        stream.close(grpc.StatusCode.INTERNAL, "the server failed to read this stream")


async def _cut_off_streams(
    context: grpc.aio.ServicerContext, address: str, method: str
) -> CutOffStreams | None:
    """The count of cut-off streams of the gRPC server this call came to, once
    the call is let in (refused RESOURCE_EXHAUSTED if `address` holds too many)."""
    cut_off_streams = COUNT.get()
    if cut_off_streams is not None:
        await cut_off_streams.refuse_beyond_limit(context, address, method)
    return cut_off_streams
