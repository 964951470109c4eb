"""A last line of defence: an exception no handler expected ends the call with
INTERNAL and a line in the log, never gRPC's own UNKNOWN "Unexpected <class
...>: ...", which would show the caller the server's insides and log nothing.

Unary methods and server-streaming ones (Watch) are wrapped. Play is not: it
is the hot path, and a wrapper would be one more generator for every message,
so Play catches the unexpected itself and ends the same way, through
`end_with_internal`.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Collection
from typing import Any

import grpc
import structlog

from server.interceptors import HandlerRewrite
from server.status import CallEnded, abort, quiet_if_gone

MESSAGE = "the server failed on this call (its log has the details)"
# A status that could not be sent is no fault: the caller had gone.
PASSED_ON = (grpc.aio.AbortError, asyncio.CancelledError, CallEnded)


class UnexpectedErrorsAreInternal(HandlerRewrite):
    def __init__(self, unwrapped: Collection[str] = ()) -> None:
        self.unwrapped = frozenset(unwrapped)
        self.log = structlog.get_logger("sheepfold.server")

    def rewrite(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        if method in self.unwrapped:
            return handler
        if handler.unary_unary is not None:
            return handler._replace(unary_unary=self._unary(handler.unary_unary, method))
        if handler.unary_stream is not None:
            return handler._replace(unary_stream=self._streaming(handler.unary_stream, method))
        return handler

    def _unary(self, inner: Callable[..., Any], method: str) -> Callable[..., Any]:
        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            with quiet_if_gone():
                try:
                    result = inner(request, context)
                    return await result if inspect.isawaitable(result) else result
                except PASSED_ON:
                    raise
                except Exception:
                    await end_with_internal(self.log, context, method)

        return unary

    def _streaming(self, inner: Callable[..., Any], method: str) -> Callable[..., Any]:
        async def streaming(request: Any, context: grpc.aio.ServicerContext) -> Any:
            with quiet_if_gone():
                try:
                    result = inner(request, context)
                    if inspect.isasyncgen(result):
                        async for response in result:
                            yield response
                    elif inspect.isawaitable(result):
                        await result
                except PASSED_ON:
                    raise
                except Exception:
                    await end_with_internal(self.log, context, method)

        return streaming


async def end_with_internal(log: Any, context: grpc.aio.ServicerContext, method: str) -> None:
    """Log the exception being handled, with its traceback, and end the call."""
    log.exception("unexpected error in a call", method=method)
    await abort(context, grpc.StatusCode.INTERNAL, MESSAGE)
