"""Answers of unary calls a client address has not read yet, bounded.

The server holds a unary call's answer until the client reads it. A client
that stops reading (an HTTP/2 flow-control window left at zero) keeps every
answer it asked for in the server's memory, and answers can be large: one
client re-asking `ListMatches(limit=1000)` on four connections grew a server
by 600 MB in 70 s, until it closed them. gRPC ends such a call only when its
answer is delivered or the connection goes, and cancelling the handler does
not free it, so the answers an address has not read are counted, by size,
from the moment its handler returns to the call's end; a new unary call from
an address over its bound is refused `RESOURCE_EXHAUSTED` before its handler
runs. A client that reads what it asks for never comes near it.

Streams are bounded elsewhere (watcher places, stream places, pending joins,
streams cut off for not reading: server/cut_off_streams.py).
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc

from server.interceptors import HandlerRewrite
from server.peers import peer_address
from server.refused_calls import RefusedCalls

DEFAULT_UNREAD_BYTES_PER_ADDRESS = 64 * 1024 * 1024
DEFAULT_UNREAD_CALLS_PER_ADDRESS = 4_096  # answers of a few bytes each add up too


@dataclass
class _Call:
    size: int = 0  # its answer's, once its handler has returned
    ended: bool = False


class UnreadAnswers(HandlerRewrite):
    """At most `max_bytes` of answers, and `max_calls` calls, unread per address."""

    def __init__(
        self,
        max_bytes: int = DEFAULT_UNREAD_BYTES_PER_ADDRESS,
        max_calls: int = DEFAULT_UNREAD_CALLS_PER_ADDRESS,
    ) -> None:
        self.max_bytes = max_bytes
        self.max_calls = max_calls
        self._bytes: Counter[str] = Counter()
        self._calls: Counter[str] = Counter()
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
            if self._bytes[address] >= self.max_bytes or self._calls[address] >= self.max_calls:
                await self._refuse(context, address, method)
            self._calls[address] += 1
            call = _Call()

            def ended(_: object) -> None:
                call.ended = True
                self._calls[address] -= 1
                self._bytes[address] -= call.size
                if self._calls[address] <= 0:
                    del self._calls[address]
                    self._bytes.pop(address, None)

            context.add_done_callback(ended)
            result = inner(request, context)
            answer = await result if inspect.isawaitable(result) else result
            if not call.ended:  # a call cancelled while its handler ran holds nothing
                call.size = answer.ByteSize() if hasattr(answer, "ByteSize") else 0
                self._bytes[address] += call.size
            return answer

        return bounded

    async def _refuse(self, context: grpc.aio.ServicerContext, address: str, method: str) -> None:
        reason = (
            "this address has not read the answers to its earlier calls "
            f"({self._calls[address]} calls, {self._bytes[address]} bytes): read them first"
        )
        await self._refused.refuse(context, address, method, reason)
