"""gRPC server reflection (so `grpcurl list` works), its streams bounded.

A reflection stream stays open for as long as its client keeps it, waiting
for the next request: bounded like health watches, per address and in all
(server/stream_places.py). grpc's own servicer is subclassed rather than
wrapped by an interceptor: only reflection calls pay for the bound, not every
Play and Watch, and the bound lives beside the one service it guards.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

import grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

from server.stream_places import StreamPlaces

SERVICE_NAME = reflection.SERVICE_NAME
# What a person with grpcurl or an IDE needs is one stream at a time.
MAX_STREAMS_PER_ADDRESS = 16
MAX_STREAMS = 1_000


class BoundedReflection(reflection.aio.ReflectionServicer):
    """grpc's reflection servicer, each stream holding one of `streams`' places."""

    def __init__(self, service_names: Iterable[str], streams: StreamPlaces) -> None:
        super().__init__(tuple(service_names))
        self.streams = streams

    # A coroutine that writes, not a generator like the method it overrides:
    # then the place's scope, which a push-out interrupts, spans every await
    # of the call, its writes included.
    async def ServerReflectionInfo(
        self,
        request_iterator: AsyncIterator[reflection_pb2.ServerReflectionRequest],
        context: grpc.aio.ServicerContext,
    ) -> None:
        async with self.streams.place(context):
            async for response in super().ServerReflectionInfo(request_iterator, context):
                await context.write(response)


def bounded_reflection(*services: str) -> BoundedReflection:
    """Reflection of `services` and of itself, one for every port of a server
    (its bounds are the server's)."""
    streams = StreamPlaces("reflection streams", MAX_STREAMS_PER_ADDRESS, MAX_STREAMS)
    return BoundedReflection((*services, SERVICE_NAME), streams)


def add_reflection(server: grpc.aio.Server, servicer: BoundedReflection) -> None:
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
