"""Unary and server-streaming calls wait for their request within a time, and
only so many at once per client address and in all.

gRPC's Python server runs such a call's handler only once its one request
message has come, and waits for that message for as long as the client keeps
the stream open, with nothing of the call visible to the server's code meanwhile.
A client that opened calls and never sent their message (HEADERS alone, or a
half-close with no message) held each for ever: 20,000 `GetMatch` calls on 20
connections, never answered, grew a server by 230 MB, and the bound was only
connections times streams per connection (ten million by default). Here such a
call is handed to the server as a stream it reads itself: its message is read
within the join timeout (the time a Play stream has to send its join), as Play
reads its join, and the calls still waiting are bounded per address and in all
the same way (server/peers.py): at the bound the call that has waited longest
is pushed out for the newcomer, so an honest client, whose message comes with
its call, is never the one pushed out. A call that ends with no message is
INVALID_ARGUMENT at once (it used to wait for its client's deadline), and at
shutdown the calls still waiting end UNAVAILABLE at once (one such call held
the server's exit for the whole shutdown grace).
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from server.decoding import drain
from server.interceptors import HandlerRewrite
from server.peers import PendingJoins, WaitEnded, first_message, peer_address
from server.status import abort, quiet_if_gone

# Calls waiting for their request, per client address and in all: one
# connection's streams (`--max-streams-per-connection`'s default) from one
# address, and about 120 MB of calls in all. A client firing 9,000 calls at
# once from one address, on 30 connections, saw 6 of them pushed out at a bound
# of 100 (its own calls, their messages not yet read on a busy loop), and none
# at 1,000.
WAITING_PER_ADDRESS = 1_000
WAITING = 10_000


class RequestWait(HandlerRewrite):
    """Every unary request read within `timeout` seconds; at most `per_address`
    calls from one address, and `total` in all, waiting for theirs."""

    def __init__(
        self,
        timeout: float,
        per_address: int = WAITING_PER_ADDRESS,
        total: int = WAITING,
        *,
        waiting: PendingJoins | None = None,
        socket: str = "",
    ) -> None:
        self.timeout = timeout
        self.waiting = waiting or PendingJoins(per_address, total, "calls", "for their request")
        self.socket = socket  # a bot socket's address, which its callers are counted as
        self.closing: str | None = None  # why, once the server is shutting down
        self._sockets: list[RequestWait] = []

    def on_socket(self, socket: str) -> RequestWait:
        """The same bounds, shared, for the calls through the Unix socket
        `socket`. Every client of a Unix socket has the peer "unix:", so its
        calls are counted as the socket's own address: one bot's calls then
        push out its own, never those of a bot on another socket."""
        view = RequestWait(self.timeout, waiting=self.waiting, socket=socket)
        self._sockets.append(view)
        return view

    def close(self, reason: str) -> None:
        """At shutdown: the calls still waiting for their request end at once,
        UNAVAILABLE `reason`, instead of holding the server's exit for its grace."""
        for wait in (self, *self._sockets):
            wait.closing = reason
        self.waiting.push_out_all(reason)

    def rewrite(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        if handler.request_streaming:
            return handler  # Play and reflection read their own requests
        if handler.unary_unary is not None:
            return handler._replace(
                request_streaming=True,
                unary_unary=None,
                stream_unary=self._unary(handler.unary_unary),
            )
        return handler._replace(
            request_streaming=True,
            unary_stream=None,
            stream_stream=self._streaming(handler.unary_stream),
        )

    def _unary(self, inner: Callable[..., Any]) -> Callable[..., Any]:
        async def unary(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> Any:
            result = inner(await self._request(requests, context), context)
            return await result if inspect.isawaitable(result) else result

        return unary

    def _streaming(self, inner: Callable[..., Any]) -> Callable[..., Any]:
        async def streaming(
            requests: AsyncIterator[Any], context: grpc.aio.ServicerContext
        ) -> AsyncIterator[Any]:
            async for response in drain(inner(await self._request(requests, context), context)):
                yield response

        return streaming

    async def _request(
        self, requests: AsyncIterator[Any], context: grpc.aio.ServicerContext
    ) -> Any:
        """The call's one request, or the call ended with why there is none."""
        with quiet_if_gone():  # its client left while it waited: nobody to tell
            return await self._first(requests, context)

    async def _first(self, requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> Any:
        try:
            request = await first_message(
                requests, self.waiting, self.socket or peer_address(context.peer()), self.timeout
            )
        except WaitEnded as ended:
            if self.closing is not None:
                await abort(context, grpc.StatusCode.UNAVAILABLE, self.closing)
            late = f"no request within {self.timeout:g} s of opening the call"
            await ended.end(context, "pushed out before its request came", late)
        if request is None:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "the call carried no request")
        return request
