"""The viewer's only door to the game server: the public Arena API over gRPC."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.connect import (
    KEEPALIVE_SECONDS,
    KEEPALIVE_TIMEOUT,
    keepalive_options,
    open_channel,
    reason,
    refusal,
    went_away,
)

# The reasons (clients.connect.reason) that say the server is there but spoken
# to in the wrong way: TLS or not, gRPC or not.
MISMATCHES = ("the TLS handshake failed", "it does not speak gRPC", "the server closed the")

# gRPC status -> the HTTP status the viewer answers with.
HTTP_STATUS = {
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 503,
    grpc.StatusCode.UNAVAILABLE: 502,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.UNAUTHENTICATED: 403,
    grpc.StatusCode.PERMISSION_DENIED: 403,
}
# gRPC waits longer after each failed connection attempt, up to 2 minutes by
# default: a game server back after a few minutes away was answered 502 for
# more than a minute. The viewer tries again at least this often (a connection
# attempt to a server that is away is one refused TCP connect).
RECONNECT_MS = 2000
CHANNEL_OPTIONS = (
    ("grpc.initial_reconnect_backoff_ms", 500),
    ("grpc.max_reconnect_backoff_ms", RECONNECT_MS),
)
# The games a game server plays do not change while it runs: its ListGames
# answer serves every matches page for this long (a server restarted with
# other games is seen within it). Each page load asked it again, so a flood
# of page loads was as many calls to the game server.
GAMES_SECONDS = 10.0
# The only calls that need a token are those of a server with private replays.
TOKEN_HINT = " (start the viewer with that server's admin token: --admin-token)"


class GatewayError(Exception):
    """An answer other than the page asked for: its HTTP status and sentence,
    and for a passing refusal the seconds after which to ask again."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def _error(error: grpc.aio.AioRpcError, what: str) -> GatewayError:
    status = HTTP_STATUS.get(error.code(), 502)
    if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        # A server that answers, but not as the viewer speaks to it, is named so:
        # TLS to a plaintext one was only "does not answer", as if it were down.
        why = reason(error)
        told = f": {why}" if why.startswith(MISMATCHES) else ""
        return GatewayError(status, f"the game server does not answer ({what}){told}")
    if error.code() == grpc.StatusCode.UNIMPLEMENTED:  # a health-only port, say
        return GatewayError(status, refusal(error))
    message = error.details() or f"{what} failed: {error.code().name}"
    if status == 403:
        message += TOKEN_HINT
    return GatewayError(status, message)


class Gateway:
    def __init__(
        self,
        address: str,
        timeout: float = 10.0,
        admin_token: str = "",
        credentials: grpc.ChannelCredentials | None = None,
        keepalive_seconds: float = KEEPALIVE_SECONDS,
        keepalive_timeout: float = KEEPALIVE_TIMEOUT,
    ) -> None:
        self.address = address
        self.timeout = timeout
        self.admin_token = admin_token  # what a server with private replays asks for
        # Pings: a game server that stops answering without closing the connection
        # (frozen, cut off) ends the live streams as one that went down does,
        # instead of holding them open for ever.
        options = (*CHANNEL_OPTIONS, *keepalive_options(keepalive_seconds, keepalive_timeout))
        self._channel = open_channel(address, credentials, options)
        self.stub = arena_pb2_grpc.ArenaStub(self._channel)
        self.games_seconds = GAMES_SECONDS
        # The last ListGames answer (loop time, games) and the call under way:
        # the pages asking meanwhile share it; a failure is kept by nobody.
        self._games: tuple[float, list[dict[str, str]]] | None = None
        self._games_flight: asyncio.Future[list[dict[str, str]]] | None = None

    async def close(self) -> None:
        await self._channel.close()

    async def games(self) -> list[dict[str, str]]:
        """The games the server plays, each its name and title, asked at most
        once every `games_seconds` (GAMES_SECONDS); shared, not to be changed."""
        loop = asyncio.get_running_loop()
        if self._games is not None and loop.time() - self._games[0] < self.games_seconds:
            return self._games[1]
        if self._games_flight is None:
            flight = asyncio.ensure_future(self._ask_games())
            self._games_flight = flight
            flight.add_done_callback(self._games_landed)
        return await asyncio.shield(self._games_flight)

    async def _ask_games(self) -> list[dict[str, str]]:
        try:
            response = await self.stub.ListGames(arena_pb2.ListGamesRequest(), timeout=self.timeout)
        except grpc.aio.AioRpcError as error:
            raise _error(error, "ListGames") from None
        found = [{"name": g.name, "title": g.title} for g in response.games]
        self._games = (asyncio.get_running_loop().time(), found)
        return found

    def _games_landed(self, flight: asyncio.Future[list[dict[str, str]]]) -> None:
        if self._games_flight is flight:
            self._games_flight = None
        if not flight.cancelled():
            flight.exception()  # retrieved: every page asking has its answer

    async def matches(
        self,
        game: str = "",
        limit: int = 200,
        status: arena_pb2.MatchStatus = arena_pb2.MATCH_STATUS_UNSPECIFIED,
    ) -> list[arena_pb2.MatchInfo]:
        """The newest `limit` matches of `game` (every game: "") in `status`
        (unspecified: any), newest first."""
        return list((await self.matches_page(game, limit, status)).matches)

    async def matches_page(
        self,
        game: str = "",
        limit: int = 200,
        status: arena_pb2.MatchStatus = arena_pb2.MATCH_STATUS_UNSPECIFIED,
        page_token: str = "",
    ) -> arena_pb2.ListMatchesResponse:
        """A page of the listing: the newest when `page_token` is empty, else the
        one a previous page's `next_page_token` points to."""
        try:
            return await self.stub.ListMatches(
                arena_pb2.ListMatchesRequest(
                    game=game,
                    limit=limit,
                    status=status,
                    admin_token=self.admin_token,
                    page_token=page_token,
                ),
                timeout=self.timeout,
            )
        except grpc.aio.AioRpcError as error:
            raise _error(error, "ListMatches") from None

    async def token_refused(self) -> str | None:
        """The server's answer when it refuses this gateway's admin token (one
        ListMatches, as the matches page asks), or None: accepted, not needed, or
        no answer at all (a server that is away may come up later)."""
        try:
            await self.stub.ListMatches(
                arena_pb2.ListMatchesRequest(limit=1, admin_token=self.admin_token),
                timeout=self.timeout,
            )
        except grpc.aio.AioRpcError as error:
            if HTTP_STATUS.get(error.code()) == 403:
                return error.details() or error.code().name
        return None

    async def match(self, match_id: str) -> arena_pb2.MatchInfo:
        try:
            return await self.stub.GetMatch(
                arena_pb2.GetMatchRequest(match_id=match_id), timeout=self.timeout
            )
        except grpc.aio.AioRpcError as error:
            raise _error(error, "GetMatch") from None

    async def replay(self, match_id: str) -> arena_pb2.Replay:
        try:
            return await self.stub.GetReplay(
                arena_pb2.GetReplayRequest(match_id=match_id, admin_token=self.admin_token),
                timeout=self.timeout,
            )
        except grpc.aio.AioRpcError as error:
            raise _error(error, "GetReplay") from None

    def watch(self, match_id: str) -> Any:
        """The match from its latest snapshot on (a page follows it from now)."""
        return self.stub.Watch(arena_pb2.WatchRequest(match_id=match_id, from_start=False))

    def stream_failed(self, error: grpc.aio.AioRpcError) -> str:
        """Why a Watch stream ended early, as a page shows it: a game server that
        died mid-match is "the game server at ADDR went away", not gRPC's
        "Stream removed (Socket closed)"."""
        return went_away(self.address, error) or error.details() or error.code().name
