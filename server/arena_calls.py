"""What the calls of the `sheepfold.v1.Arena` service share: the server's
state they read and change, the admin token's checks, the log of refused joins
and watches, and how a database error or a client's cut-off streams end a call.
Each job's calls are in a module of their own (server/service.py)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import AsyncIterator

import grpc
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.client_limits import DEFAULT_WRITE_STALL_SECONDS
from server.cut_off_streams import COUNT, CutOffStreams
from server.fairness import FairQueue
from server.live_share import LiveShares
from server.logs import Counts
from server.match import Match
from server.peers import PendingJoins
from server.records import ClockConfig, DamagedRecord
from server.registry import MAX_MATCH_ID_CHARS, MatchRegistry
from server.stalls import StalledWrites
from server.status import abort
from server.store_errors import StoreCrowded, StoreDamaged, StoreRefused, StoreUnavailable
from server.unplayed import DEFAULT_UNPLAYED_MATCHES, UnplayedMatches
from server.watch_places import WatchPlaces

ARENA_SERVICE = arena_pb2.DESCRIPTOR.services_by_name["Arena"].full_name
# A call with less time left than this when it would change something (create a
# match, take a seat) is refused instead: its answer could not reach its client
# in time, and gRPC tells that client DEADLINE_EXCEEDED whatever the server does.
DEADLINE_MARGIN_SECONDS = 0.005


class ArenaCalls(arena_pb2_grpc.ArenaServicer):
    """The state and checks of the Arena service, for its calls' classes."""

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
        # Play streams' readers, held until their calls end (asyncio keeps only a
        # weak reference to a task).
        self.readers: set[asyncio.Task[None]] = set()
        self._watch_places = WatchPlaces()
        self._watched: dict[str, Match] = {}
        self._refusals = Counts()  # refused joins and watches, per match
        self._creations_refused = Counts()  # refused CreateMatch calls, per client address
        # Matches are replayed for their watchers one step at a time, in turns
        # that go round the clients (server/fairness.py).
        self._replay_turns = replay_turns or FairQueue(1)
        # White space around a token is no part of it, on either side (see
        # _is_admin); a token of white space alone is kept whole, never opened.
        self.admin_token = (admin_token.strip() or admin_token) if admin_token else None
        # Without an admin token anyone creates matches: one client address's
        # that nobody plays are bounded (server/unplayed.py).
        self.unplayed = UnplayedMatches(max_unplayed_matches)
        registry.match_done.append(self.unplayed.ended)
        # and its live-match places are shared fairly between addresses
        # (server/live_share.py).
        self.live_shares = LiveShares(registry.max_live_matches)
        registry.match_done.append(self.live_shares.ended)
        self.private_replays = private_replays
        self.default_clock = default_clock or ClockConfig()
        self.log = structlog.get_logger("sheepfold.service")

    async def _check_admin(
        self,
        presented: str,
        context: grpc.aio.ServicerContext,
        needs: str = "this server needs an admin token",
    ) -> None:
        if self.admin_token is None:
            return
        # A token of white space alone is no token given, as an empty one is (a
        # client's `--admin-token "$(cat FILE)"` of an empty file with its
        # newline): it was once refused "wrong admin token", as if mistyped.
        if not presented.strip():
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, needs)
        await self._refuse_wrong_token(presented, context)

    async def _refuse_wrong_token(self, presented: str, context: grpc.aio.ServicerContext) -> None:
        """Every call that takes an admin token refuses one that is given and is
        not this server's, whether or not the call needs it: GetMatch once left
        out the seed quietly for a wrong token, so a mistyped token looked like
        a server that keeps seeds from its admin too (white space alone is none
        given). A server without an admin token has none to compare with, and
        every call ignores the field there."""
        if presented.strip() and self.admin_token is not None and not self._is_admin(presented):
            await abort(context, grpc.StatusCode.PERMISSION_DENIED, "wrong admin token")

    def _is_admin(self, presented: str) -> bool:
        """Whether `presented` is this server's admin token (compared in constant
        time), white space around it left out: --admin-token-file drops the
        newline (or CRLF) a file ends with, so the same file's text given to a
        client (`$(cat token)` keeps a CR), or a token in $SHEEPFOLD_ADMIN_TOKEN
        with its file's newline (a Secret made --from-file), was refused "wrong
        admin token" against a server holding the same token."""
        token = self.admin_token
        return token is not None and hmac.compare_digest(presented.strip().encode(), token.encode())

    async def _check_reader(self, presented: str, context: grpc.aio.ServicerContext) -> None:
        """On a server with private replays, only the admin token lists and replays
        matches; on any other, a wrong token is refused all the same."""
        if self.private_replays:
            await self._check_admin(
                presented,
                context,
                "this server keeps its match list and replays private: they need the admin token",
            )
        else:
            await self._refuse_wrong_token(presented, context)

    def _log_refusal(
        self,
        event: str,
        match_id: str,
        game: str | None,
        code: str,
        reason: str,
        key: str | None = None,
        seat: int | None = None,
    ) -> None:
        """A refused join or watch: a match's first 20, then one in a thousand
        (counted by `key`, the match id unless given). A join's line names its
        seat: the one it named, else the one its token is for, else none."""
        total = self._refusals.due(f"{event}:{match_id if key is None else key}")
        if total is not None:
            known: dict[str, object] = {} if game is None else {"game": game}
            if event == "join refused":
                known["seat"] = seat
            shown = match_id[:MAX_MATCH_ID_CHARS]
            more = self._refusals.left_out()
            self.log.info(
                event, match_id=shown, **known, code=code, reason=reason, total=total, **more
            )


@contextlib.asynccontextmanager
async def database_errors(context: grpc.aio.ServicerContext) -> AsyncIterator[None]:
    """A database that cannot answer now is UNAVAILABLE; a read refused for the
    reads its client address already has waiting RESOURCE_EXHAUSTED; a damaged
    one DATA_LOSS; one that refuses otherwise is INTERNAL.
    Either way the client reads a sentence, never a raw sqlite3 exception."""
    try:
        yield
    except StoreCrowded as error:  # this client's reads already wait (server/store_reads.py)
        await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))
    except StoreUnavailable as error:
        await abort(context, grpc.StatusCode.UNAVAILABLE, str(error))
    except StoreDamaged as error:  # a damaged file, as a damaged row
        await abort(context, grpc.StatusCode.DATA_LOSS, str(error))
    except StoreRefused as error:
        await abort(context, grpc.StatusCode.INTERNAL, str(error))
    except DamagedRecord as error:
        await abort(context, grpc.StatusCode.DATA_LOSS, str(error))


async def refuse_when_expired(context: grpc.aio.ServicerContext, change: str) -> None:
    """A call whose deadline has passed, or is under DEADLINE_MARGIN_SECONDS
    away, ends DEADLINE_EXCEEDED before it makes `change`: a match created for a
    client that can no longer learn its id, or a seat's stream replaced by a
    join that is already over, would be a change nobody asked for any more."""
    left = context.time_remaining()
    if left is not None and left < DEADLINE_MARGIN_SECONDS:
        await abort(
            context,
            grpc.StatusCode.DEADLINE_EXCEEDED,
            f"the call's deadline passed before {change}",
        )


async def cut_off_streams_of(
    context: grpc.aio.ServicerContext, address: str, method: str
) -> CutOffStreams | None:
    """The count of cut-off streams of the gRPC server this call came to, once
    the call is let in (refused RESOURCE_EXHAUSTED if `address` holds too many)."""
    cut_off_streams = COUNT.get()
    if cut_off_streams is not None:
        await cut_off_streams.refuse_beyond_limit(context, address, method)
    return cut_off_streams
