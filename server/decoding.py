"""Requests that are not valid protobuf answer INVALID_ARGUMENT, with a message
that names the type the server expected.

gRPC decodes each request before the handler runs; a decoder that raises makes
the call end with UNKNOWN "Unexpected <class DecodeError>". Here every method's
decoder returns an `Undecodable` instead, and the method is refused with
INVALID_ARGUMENT. Methods that answer bad messages themselves (Play, where a bad
message after the join is a PlayError and the stream goes on) get the
`Undecodable` as a request.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from server.interceptors import HandlerRewrite
from server.status import abort


@dataclass(frozen=True, slots=True)
class Undecodable:
    """A request whose bytes are not a valid message of its type."""

    type_name: str
    error: str

    @property
    def message(self) -> str:
        return f"the request is not a valid {self.type_name}: {self.error or 'cannot decode'}"


def _tolerant(decode: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
    owner = getattr(decode, "__self__", None)
    descriptor = getattr(owner, "DESCRIPTOR", None)
    type_name = getattr(descriptor, "full_name", "request message")

    def tolerant(data: bytes) -> Any:
        try:
            return decode(data)
        except DecodeError as error:
            # "Error parsing message with type 'X': Wire format was corrupt": the
            # type is named once, by the message.
            return Undecodable(type_name, str(error).rsplit(": ", 1)[-1])

    return tolerant


async def _refuse(item: Undecodable, context: grpc.aio.ServicerContext) -> None:
    await abort(context, grpc.StatusCode.INVALID_ARGUMENT, item.message)


async def _checked(
    requests: AsyncIterator[Any], context: grpc.aio.ServicerContext
) -> AsyncIterator[Any]:
    async for request in requests:
        if isinstance(request, Undecodable):
            await _refuse(request, context)
        yield request


async def drain(result: Any) -> AsyncIterator[Any]:
    """A streaming handler's responses, whether it yields them or writes them."""
    if inspect.isasyncgen(result):
        async for response in result:
            yield response
    elif inspect.isawaitable(result):
        await result


def _guard(handler: Any) -> Any:
    """`handler` with a tolerant decoder, refusing undecodable requests."""
    if handler.unary_unary is not None:
        inner_uu = handler.unary_unary

        async def unary_unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            if isinstance(request, Undecodable):
                await _refuse(request, context)
            result = inner_uu(request, context)
            return await result if inspect.isawaitable(result) else result

        return handler._replace(unary_unary=unary_unary)
    if handler.unary_stream is not None:
        inner_us = handler.unary_stream

        async def unary_stream(request: Any, context: grpc.aio.ServicerContext) -> Any:
            if isinstance(request, Undecodable):
                await _refuse(request, context)
            async for response in drain(inner_us(request, context)):
                yield response

        return handler._replace(unary_stream=unary_stream)
    if handler.stream_unary is not None:
        inner_su = handler.stream_unary

        async def stream_unary(requests: Any, context: grpc.aio.ServicerContext) -> Any:
            result = inner_su(_checked(requests, context), context)
            return await result if inspect.isawaitable(result) else result

        return handler._replace(stream_unary=stream_unary)
    inner_ss = handler.stream_stream

    async def stream_stream(requests: Any, context: grpc.aio.ServicerContext) -> Any:
        async for response in drain(inner_ss(_checked(requests, context), context)):
            yield response

    return handler._replace(stream_stream=stream_stream)


class DecodeErrorsAreInvalidArgument(HandlerRewrite):
    """Every method gets a decoder that cannot raise; `self_checking` methods
    (full names, "/pkg.Service/Method") see `Undecodable` requests themselves."""

    def __init__(self, self_checking: Collection[str] = ()) -> None:
        self.self_checking = frozenset(self_checking)

    def rewrite(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        if getattr(handler, "request_deserializer", None) is None:
            return handler
        tolerant = handler._replace(request_deserializer=_tolerant(handler.request_deserializer))
        if method in self.self_checking:
            return tolerant
        return _guard(tolerant)
