"""CreateMatch: a match made, within the admin token, the creator's bound on
matches nobody plays, and the clock's limits."""

from __future__ import annotations

from collections.abc import Callable

import grpc
from sheepfold.v1 import arena_pb2

from games.errors import InvalidOptions
from server.arena_calls import ArenaCalls, database_errors, refuse_when_expired
from server.clock_limits import clock_refusal
from server.match import Match
from server.records import ClockConfig
from server.registry import LimitReached
from server.status import abort
from server.unplayed import creator


class MatchCreationCalls(ArenaCalls):
    async def CreateMatch(
        self, request: arena_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.CreateMatchResponse:
        try:
            return await self._create(request, context)
        except grpc.aio.AbortError:
            self._log_creation_refused(context)
            raise

    def _log_creation_refused(self, context: grpc.aio.ServicerContext) -> None:
        """A refused CreateMatch (a wrong admin token, a bad option, a limit):
        an address's first 20, then one in a thousand. Its status is the one the
        call was just aborted with."""
        address = creator(context.peer())
        total = self._creations_refused.due(address)
        if total is None:
            return
        code = context.code()
        details = context.details()
        self.log.info(
            "match creation refused",
            client=address,
            code=code.name if isinstance(code, grpc.StatusCode) else str(code),
            reason=details.decode(errors="replace") if isinstance(details, bytes) else details,
            total=total,
            **self._creations_refused.left_out(),
        )

    async def _create(
        self, request: arena_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.CreateMatchResponse:
        await self._check_admin(request.admin_token, context)
        if not self.registry.accepting:
            await abort(context, grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
        if self.registry.refusing is not None:
            await abort(context, grpc.StatusCode.UNAVAILABLE, self.registry.refusing)
        clock = await self._clock(request.clock, context)
        seed = request.seed if request.HasField("seed") else None
        # A request that could never be made is refused as such before the
        # bounds on matches are looked at (`MatchRegistry.prepare`).
        try:
            match, tokens = self.registry.prepare(
                request.game, request.players, dict(request.options), seed, clock
            )
        except InvalidOptions as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
        await refuse_when_expired(context, "the match was created")
        if self.admin_token is not None:
            await self._add(match, context)
        else:
            await self._add_for(creator(context.peer()), match, context)
        return arena_pb2.CreateMatchResponse(
            match_id=match.record.match_id, seat_tokens=tokens, seed=match.record.seed
        )

    async def _add_for(self, address: str, match: Match, context: grpc.aio.ServicerContext) -> None:
        """A match created by anyone, on a server without an admin token: within
        its address's bound on matches nobody plays, and its share of the
        live-match places (server/live_share.py)."""
        why = self.unplayed.refusal(address) or self.live_shares.refusal(address)
        if why is not None:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, why)
        # Hosted, the match records `address` as its creator: both bounds read it there.
        hosted, given_up = self.live_shares.place(address)
        await self._add(match, context, hosted, given_up)

    async def _add(
        self,
        match: Match,
        context: grpc.aio.ServicerContext,
        hosted: Callable[[Match], None] | None = None,
        given_up: Callable[[], None] | None = None,
    ) -> None:
        """The match written and hosted by the registry (`hosted` and `given_up`
        as in `MatchRegistry.add`), its refusals said to the client."""
        try:
            async with database_errors(context):
                await self.registry.add(match, hosted, given_up)
        except LimitReached as error:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))

    async def _clock(
        self, settings: arena_pb2.ClockSettings, context: grpc.aio.ServicerContext
    ) -> ClockConfig:
        default = self.default_clock
        why = clock_refusal(
            settings.decision_seconds,
            settings.time_bank_seconds,
            settings.max_strikes,
            default.max_strikes,
        )
        if why is not None:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, why)
        return ClockConfig(
            decision_seconds=settings.decision_seconds or default.decision_seconds,
            time_bank_seconds=settings.time_bank_seconds or default.time_bank_seconds,
            max_strikes=settings.max_strikes or default.max_strikes,
        )
