"""Answers of unary calls that client addresses have not read yet, bounded.

The server holds a unary call's answer until the client reads it. A client
that stops reading (an HTTP/2 flow-control window left at zero) keeps every
answer it asked for in the server's memory, and answers can be large: one
client re-asking `ListMatches(limit=1000)` on four connections grew a server
by 600 MB in 70 s, until it closed them. gRPC ends such a call only when its
answer is delivered or the connection goes, and cancelling the handler does
not free it, so the answers an address has not read are counted, by size and
by number, from the moment its call is let in to the call's end; a new unary
call from an address over its bound is refused `RESOURCE_EXHAUSTED` before
its handler runs. The addresses together are bounded too, each getting a fair
share of the room left once they pass the server's cap (server/fair_share.py):
a client with many addresses held as much again with each. A client that
reads what it asks for never comes near either bound.

Streams are bounded elsewhere (watcher places, stream places, pending joins,
streams cut off for not reading: server/cut_off_streams.py).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc

from server.client_limits import (
    DEFAULT_UNREAD_BYTES,
    DEFAULT_UNREAD_BYTES_PER_ADDRESS,
    DEFAULT_UNREAD_CALLS,
    DEFAULT_UNREAD_CALLS_PER_ADDRESS,
)
from server.fair_share import FairShare, Over, Tally, first
from server.interceptors import HandlerRewrite
from server.peers import peer_address
from server.refused_calls import RefusedCalls


@dataclass
class _Call:
    size: int = 0  # its answer's, once its handler has returned
    ended: bool = False


class UnreadAnswers(HandlerRewrite):
    """At most `max_bytes` of answers, and `max_calls` calls, unread per address;
    past `total_bytes` or `total_calls` from every address together, only
    addresses under their fair share get more."""

    def __init__(
        self,
        max_bytes: int = DEFAULT_UNREAD_BYTES_PER_ADDRESS,
        max_calls: int = DEFAULT_UNREAD_CALLS_PER_ADDRESS,
        total_bytes: int = DEFAULT_UNREAD_BYTES,
        total_calls: int = DEFAULT_UNREAD_CALLS,
    ) -> None:
        self.bytes_bound = FairShare(max_bytes, total_bytes)
        self.calls_bound = FairShare(max_calls, total_calls)
        self._bytes = Tally()
        self._calls = Tally()
        self._refused = RefusedCalls("sheepfold.server", "call refused")

    def unread(self, address: str) -> tuple[int, int]:
        """The bytes and calls of `address` not yet read (for tests and metrics)."""
        return self._bytes[address], self._calls[address]

    def rewrite(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        if handler.unary_unary is None:
            return handler
        return handler._replace(unary_unary=self._bounded(handler.unary_unary, method))

    def _bounded(self, inner: Callable[..., Any], method: str) -> Callable[..., Any]:
        async def bounded(request: Any, context: grpc.aio.ServicerContext) -> Any:
            address = peer_address(context.peer())
            over = self._over(address)
            if over is not None:
                await self._refused.refuse(context, address, method, self._reason(over, address))
            self._calls.add(address)
            call = _Call()

            def ended(_: object) -> None:
                call.ended = True
                self._calls.remove(address)
                self._bytes.remove(address, call.size)

            context.add_done_callback(ended)
            result = inner(request, context)
            answer = await result if inspect.isawaitable(result) else result
            if not call.ended:  # a call cancelled while its handler ran holds nothing
                call.size = _size(answer)
                self._bytes.add(address, call.size)
            return answer

        return bounded

    def _over(self, address: str) -> Over | None:
        sharing = self._calls.sharing(address)  # an address holds bytes only with calls
        return first(
            self.bytes_bound.over(self._bytes[address], self._bytes.total, sharing),
            self.calls_bound.over(self._calls[address], self._calls.total, sharing),
        )

    def _reason(self, over: Over, address: str) -> str:
        mine = f"{self._calls[address]} calls, {self._bytes[address]} bytes"
        held = f"this server holds {self._calls.total} unread answers ({self._bytes.total} bytes)"
        if over is Over.ADDRESS:
            return (
                f"this address has not read the answers to its earlier calls ({mine}): "
                "read them first"
            )
        if over is Over.CEILING:
            return f"{held}, as many as it will: try again later"
        return (
            f"{held} from {self._calls.sharing(address)} addresses, past its bound, and this "
            f"address has not read its share of them ({mine}): read them first"
        )


def _size(answer: Any) -> int:
    """An answer's encoded size: a message's, or that of bytes already encoded
    (server/encoding.py, PreEncodedResponses)."""
    if isinstance(answer, bytes):
        return len(answer)
    return answer.ByteSize() if hasattr(answer, "ByteSize") else 0
