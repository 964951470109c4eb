"""Play and Watch streams cut off for reading nothing whose calls are still
open, counted per client address, and bounded.

A stream whose client stops reading is cut off (server/stalls.py), but gRPC
cannot reset it: the call stays open, holding what was written to it, until
the client reads or goes. A client that watched, stalled, was cut off and did
it again held more and more of the server's memory (9,600 such Watch streams
held 140 MB). So each address's cut-off streams are counted until their calls
end, and an address holding `limit` of them is refused new Play and Watch
streams, RESOURCE_EXHAUSTED, before anything is made for them. The addresses
together are bounded too, each getting a fair share of the room left once they
pass the server's cap (server/fair_share.py): a client with many addresses held
as much again with each. A client that reads what it asks for is never cut off.

The count is per gRPC server (the main ports, each bot socket), like the
unread answers of unary calls: every Unix socket client is one address
("unix:"), and a tournament gives each sandboxed bot playing at once a socket
of its own, so one bot's streams shut out only itself. The server's interceptor
hands its count to the call's handler in the call's task context (`COUNT`).
Refusals are logged with the address, its first 20 in full, then one in a
thousand.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable

import grpc

from games.words import count
from server.client_limits import DEFAULT_CUT_OFF_STREAMS, DEFAULT_CUT_OFF_STREAMS_PER_ADDRESS
from server.fair_share import FairShare, Over, Tally
from server.interceptors import HandlerRewrite
from server.refused_calls import RefusedCalls
from server.streams import QueuedBytes


class CutOffStreams(HandlerRewrite):
    """At most `limit` cut-off streams still open per address, on one gRPC
    server; past `total` from every address together, only addresses under
    their fair share get more."""

    def __init__(
        self,
        methods: set[str],
        limit: int = DEFAULT_CUT_OFF_STREAMS_PER_ADDRESS,
        total: int = DEFAULT_CUT_OFF_STREAMS,
        queued: QueuedBytes | None = None,
    ) -> None:
        self.methods = methods
        self.bound = FairShare(limit, total)
        self._held = Tally()
        # The bytes queued on this server's Play streams, per address.
        self.queued = queued or QueuedBytes()
        self._refused = RefusedCalls("sheepfold.streams", "stream refused")

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        # Run in the call's own task, as its handler is: the handler finds this
        # server's count there.
        if handler_call_details.method in self.methods:
            COUNT.set(self)
        return await continuation(handler_call_details)

    def held_by(self, address: str) -> int:
        return self._held[address]

    def hold(self, address: str) -> None:
        """A stream of `address` was cut off."""
        self._held.add(address)

    def let_go(self, address: str) -> None:
        """A cut-off stream of `address` has ended."""
        self._held.remove(address)

    async def refuse_beyond_limit(
        self, context: grpc.aio.ServicerContext, address: str, method: str
    ) -> None:
        held = self._held[address]
        over = self.bound.over(held, self._held.total, self._held.sharing(address))
        if over is None:
            return
        streams = f"{count(self._held.total, 'stream')} cut off for reading nothing, still open"
        if over is Over.ADDRESS:
            reason = (
                f"this address holds {count(held, 'stream')} cut off for reading nothing, "
                "still open: "
                "read them or close them first"
            )
        elif over is Over.CEILING:
            reason = f"this server holds {streams}, as many as it will: try again later"
        else:
            reason = (
                f"this server holds {streams}, from "
                f"{count(self._held.sharing(address), 'address', 'addresses')}, "
                f"past its bound, and this address its share of them ({held}): "
                "read them or close them first"
            )
        await self._refused.refuse(context, address, method, reason)


# The count of the gRPC server the current call came to (its task's context only).
COUNT: contextvars.ContextVar[CutOffStreams | None] = contextvars.ContextVar(
    "cut_off_streams", default=None
)
