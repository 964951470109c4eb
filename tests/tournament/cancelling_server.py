"""A real server (started in this process) that answers some calls CANCELLED,
as a stopping server does (or with another code), through an interceptor of its own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import grpc
import pytest

from server import app


class CancelCalls(grpc.aio.ServerInterceptor):
    """Answers calls of `method` with `code` (CANCELLED by default): the first
    `times` of them (every one when None), each after `delay` seconds (as a
    busy server does), and counts them; every other call is served."""

    def __init__(
        self,
        method: str,
        times: int | None,
        delay: float,
        code: grpc.StatusCode = grpc.StatusCode.CANCELLED,
    ) -> None:
        self.method = method
        self.times = times
        self.delay = delay
        self.code = code
        self.cancelled = 0

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        spent = self.times is not None and self.cancelled >= self.times
        if spent or details.method != self.method:  # type: ignore[attr-defined]
            return handler
        self.cancelled += 1

        async def cancel(request: object, context: grpc.aio.ServicerContext) -> None:
            await asyncio.sleep(self.delay)
            details = (
                "Cancelled by the server" if self.code == grpc.StatusCode.CANCELLED else "failed"
            )
            await context.abort(self.code, details)

        return grpc.unary_unary_rpc_method_handler(
            cancel,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


def cancelling(
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    times: int | None = 1,
    delay: float = 0.0,
    code: grpc.StatusCode = grpc.StatusCode.CANCELLED,
) -> CancelCalls:
    """Every server started from now on cancels calls of `method` (see CancelCalls)."""
    fault = CancelCalls(method, times, delay, code)
    interceptors = app._interceptors
    monkeypatch.setattr(
        app, "_interceptors", lambda config, *rest: [fault, *interceptors(config, *rest)]
    )
    return fault
