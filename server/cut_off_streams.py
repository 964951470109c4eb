"""Play and Watch streams cut off for reading nothing whose calls are still
open, counted per client address, and bounded.

A stream whose client stops reading is cut off (server/stalls.py), but gRPC
cannot reset it: the call stays open, holding what was written to it, until
the client reads or goes. A client that watched, stalled, was cut off and did
it again held more and more of the server's memory (9,600 such Watch streams
held 140 MB). So each address's cut-off streams are counted until their calls
end, and an address holding `limit` of them is refused new Play and Watch
streams, RESOURCE_EXHAUSTED, before anything is made for them. A client that
reads what it asks for is never cut off.

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
from collections import Counter
from collections.abc import Awaitable, Callable

import grpc

from server.interceptors import HandlerRewrite
from server.refused_calls import RefusedCalls

DEFAULT_CUT_OFF_STREAMS_PER_ADDRESS = 100


class CutOffStreams(HandlerRewrite):
    """At most `limit` cut-off streams still open per address, on one gRPC server."""

    def __init__(self, methods: set[str], limit: int = DEFAULT_CUT_OFF_STREAMS_PER_ADDRESS) -> None:
        if limit < 1:
            raise ValueError("room for one cut-off stream at least")
        self.methods = methods
        self.limit = limit
        self._held: Counter[str] = Counter()
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
        self._held[address] += 1

    def let_go(self, address: str) -> None:
        """A cut-off stream of `address` has ended."""
        self._held[address] -= 1
        if self._held[address] <= 0:
            del self._held[address]

    async def refuse_beyond_limit(
        self, context: grpc.aio.ServicerContext, address: str, method: str
    ) -> None:
        held = self._held.get(address, 0)
        if held < self.limit:
            return
        reason = (
            f"this address holds {held} streams cut off for reading nothing, still open: "
            "read them or close them first"
        )
        await self._refused.refuse(context, address, method, reason)


# The count of the gRPC server the current call came to (its task's context only).
COUNT: contextvars.ContextVar[CutOffStreams | None] = contextvars.ContextVar(
    "cut_off_streams", default=None
)
