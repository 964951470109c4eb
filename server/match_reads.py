"""The read-only calls on games and matches: ListGames, GetMatch, ListMatches
and GetReplay."""

from __future__ import annotations

import grpc
from sheepfold.v1 import arena_pb2

import games
from games.errors import InvalidOptions
from server import convert
from server.arena_calls import ARENA_SERVICE, ArenaCalls, database_errors
from server.fairness import serving
from server.match import Status
from server.page_tokens import PageTokenError, Position, make_page_token, read_page_token
from server.settings import DEFAULT_MAX_MESSAGE_BYTES
from server.status import abort, abort_no_match

DEFAULT_LIST_LIMIT = 100
MAX_LIST_LIMIT = 1_000
# More than a next_page_token takes with its field's tag and length (a token is
# at most 512 characters: server/page_tokens.py).
PAGE_TOKEN_ROOM = 1024
# Answers with its page already encoded (server/encoding.py, PreEncodedResponses).
LIST_MATCHES_METHOD = f"/{ARENA_SERVICE}/ListMatches"


class MatchReadCalls(ArenaCalls):
    async def ListGames(
        self, request: arena_pb2.ListGamesRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.ListGamesResponse:
        return arena_pb2.ListGamesResponse(
            games=[convert.game_info(games.get(name)) for name in games.names()]
        )

    async def GetMatch(
        self, request: arena_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.MatchInfo:
        serving(context.peer())  # its reads take turns with other clients' (server/fairness.py)
        await self._refuse_wrong_token(request.admin_token, context)
        async with database_errors(context):
            info = await self.registry.info(request.match_id)
        if info is None:
            await abort_no_match(context, request.match_id)
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
    ) -> bytes:
        """The page, encoded as a ListMatchesResponse on a reader thread: the
        sizes of a thousand stored matches, their copy into the response and
        its encoding (a page of about 4 MB) once took 10 to 25 ms of the event
        loop's CPU a call, every match's decisions held up meanwhile."""
        serving(context.peer())
        await self._check_reader(request.admin_token, context)
        if request.limit < 0:
            await abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                f"limit must be 0 (the server's default, {DEFAULT_LIST_LIMIT}) or more, "
                f"not {request.limit:,}",
            )
        if request.status and request.status not in {s.value for s in Status}:
            await abort(
                context, grpc.StatusCode.INVALID_ARGUMENT, f"unknown match status {request.status}"
            )
        if request.game:
            try:
                games.get(request.game)  # refused in CreateMatch's words
            except InvalidOptions as error:
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
        after = None
        if request.page_token:
            try:
                after = read_page_token(request.page_token, request.game, request.status)
            except PageTokenError as error:
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
        limit = min(request.limit or DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT)
        status = Status(request.status) if request.status else None
        most = self._page_bytes()
        async with database_errors(context):
            # One more than the page, to know whether a next page has anything.
            found = await self.registry.listing(request.game, status, limit + 1, after)
            # The MatchInfos are this call's own (made for it): a thread may read them.
            return await self.registry.store.run(
                lambda: _encoded_page(found, limit, most, request.game, request.status)
            )

    def _page_bytes(self) -> int:
        """The most a page's matches may take: what the server may send and a
        client takes by default (4 MiB), less room for the page token."""
        most = self.registry.limits.decision_bytes  # `serve --max-message-bytes`
        return min(most, DEFAULT_MAX_MESSAGE_BYTES) - PAGE_TOKEN_ROOM

    async def GetReplay(
        self, request: arena_pb2.GetReplayRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.Replay:
        serving(context.peer())
        await self._check_reader(request.admin_token, context)
        async with database_errors(context):
            found = await self.registry.replay(request.match_id)
        if found is None:
            await abort_no_match(context, request.match_id)
        if isinstance(found, arena_pb2.Replay):
            return found
        match = found
        if not match.over:
            # The seed fixes every deck order: a replay of a live match would leak them.
            await abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                "the match is not over: replays are for matches that are over "
                "(finished or aborted)",
            )
        return match.replay_message()


def _encoded_page(
    found: list[arena_pb2.MatchInfo], limit: int, most: int, game: str, status: int
) -> bytes:
    """The ListMatchesResponse of the first `limit` of `found` that fit in
    `most` bytes, with the token of the next page when `found` holds more."""
    page = _fitting(found[:limit], most)
    next_page = ""
    if len(found) > len(page):
        last = page[-1]
        next_page = make_page_token(game, status, Position.of(last.created_at, last.match_id))
    response = arena_pb2.ListMatchesResponse(matches=page, next_page_token=next_page)
    return bytes(response.SerializeToString())


def _fitting(matches: list[arena_pb2.MatchInfo], most: int) -> list[arena_pb2.MatchInfo]:
    """The first of `matches` whose encoding in a ListMatchesResponse takes at
    most `most` bytes (never none: a page holds at least one match). A
    thousand finished 4-seat Sheep'n'Sheep matches, their results about 5 KB
    each, once made a page past gRPC's 4 MiB: the call failed
    RESOURCE_EXHAUSTED "Sent message larger than max" at every limit above
    about 800, and gRPC logged a warning for each."""
    taken = 0
    for count, info in enumerate(matches):
        size = info.ByteSize()
        # The field's tag (one byte) and its length (a varint, 7 bits a byte).
        taken += 1 + max(1, (size.bit_length() + 6) // 7) + size
        if taken > most and count:
            return matches[:count]
    return matches
