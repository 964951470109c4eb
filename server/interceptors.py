"""What the server's interceptors share: each rewrites the method handler gRPC
found for a call (its serialiser, its deserialiser), never the call itself."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import grpc


class HandlerRewrite(grpc.aio.ServerInterceptor):
    """An interceptor that hands every handler found to `rewrite`."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:  # an unknown method: gRPC answers UNIMPLEMENTED itself
            return handler
        return self.rewrite(handler, handler_call_details.method)

    def rewrite(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        """The handler to use for `method` (a full name, "/pkg.Service/Method")."""
        raise NotImplementedError
