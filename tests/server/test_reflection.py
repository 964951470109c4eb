"""Server reflection answers as grpc's own servicer does, each stream holding
one of the server's reflection places: a full server lets a newcomer in and
pushes out the oldest stream of the address holding the most, with a status
that says so."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from server.reflection import BoundedReflection, add_reflection
from server.stream_places import StreamPlaces

LISTING = reflection_pb2.ServerReflectionRequest(list_services="")


def test_a_full_server_pushes_out_the_oldest_reflection_stream() -> None:
    async def scenario() -> tuple[list[list[str]], grpc.StatusCode, str, int, int]:
        server = grpc.aio.server()
        places = StreamPlaces("reflection streams", 16, 2)
        add_reflection(server, BoundedReflection(("x.Y",), places))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        stop = asyncio.Event()

        async def ask_then_wait() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
            yield LISTING
            await stop.wait()

        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = reflection_pb2_grpc.ServerReflectionStub(channel)
                calls, listed = [], []
                for _ in range(3):
                    call = stub.ServerReflectionInfo(ask_then_wait(), timeout=10)
                    answer = await call.read()
                    listed.append([s.name for s in answer.list_services_response.service])
                    calls.append(call)
                try:
                    await calls[0].read()
                    raise AssertionError("the oldest stream was not pushed out")
                except grpc.aio.AioRpcError as error:
                    code, details = error.code(), error.details()
                held = len(places)
                stop.set()
                for call in calls:
                    call.cancel()
                for _ in range(100):  # the places come free as the streams end
                    if not places:
                        break
                    await asyncio.sleep(0.05)
        finally:
            await server.stop(None)
        return listed, code, details, held, len(places)

    listed, code, details, held, left = asyncio.run(scenario())
    assert listed == [["x.Y"]] * 3
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert details == (
        "pushed out: this server holds 2 reflection streams, and this address the most"
    )
    assert (held, left) == (2, 0)
