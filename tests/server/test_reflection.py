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


async def _started(places: StreamPlaces, names: tuple[str, ...]) -> tuple[grpc.aio.Server, int]:
    """A server with reflection of `names` alone, started; and its port."""
    server = grpc.aio.server()
    add_reflection(server, BoundedReflection(names, places))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


async def _list_then_wait(
    stop: asyncio.Event,
) -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
    """A client's requests: one listing, then nothing until `stop`."""
    yield LISTING
    await stop.wait()


def test_a_full_server_pushes_out_the_oldest_reflection_stream() -> None:
    async def scenario() -> tuple[list[list[str]], grpc.StatusCode, str, int, int]:
        places = StreamPlaces("reflection streams", 16, 2)
        server, port = await _started(places, ("x.Y",))
        stop = asyncio.Event()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = reflection_pb2_grpc.ServerReflectionStub(channel)
                calls, listed = [], []
                for _ in range(3):
                    call = stub.ServerReflectionInfo(_list_then_wait(stop), timeout=10)
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


def test_a_stream_ended_while_its_first_answer_waits_to_be_read_still_gets_its_status() -> None:
    """The server told to stop while a stream's first answer is still on its
    way (its client reads slowly, or the server's loop is behind): the client
    reads the answer, then the shutdown's status. Interrupted before that
    first write returned, the stream's status was once refused by gRPC
    (initial metadata sent twice) and the call stayed open until the
    shutdown's grace ran out, or its deadline."""

    async def scenario() -> tuple[int, grpc.StatusCode, str]:
        places = StreamPlaces("reflection streams", 16, 1_000)
        # A first answer far larger than the client's flow-control window.
        names = tuple(f"x{n}.{'Y' * 200}" for n in range(200))
        server, port = await _started(places, names)
        stop = asyncio.Event()
        small_window = [("grpc.http2.lookahead_bytes", 1024), ("grpc.http2.bdp_probe", 0)]
        try:
            async with grpc.aio.insecure_channel(
                f"127.0.0.1:{port}", options=small_window
            ) as channel:
                stub = reflection_pb2_grpc.ServerReflectionStub(channel)
                call = stub.ServerReflectionInfo(_list_then_wait(stop), timeout=5)
                for _ in range(100):  # the stream has taken its place
                    if places:
                        break
                    await asyncio.sleep(0.02)
                await asyncio.sleep(0.2)  # its first write is waiting for the window
                places.close("server shutting down")
                answer = await call.read()
                listed = len(answer.list_services_response.service)
                try:
                    await call.read()
                    raise AssertionError("the stream went on after the shutdown")
                except grpc.aio.AioRpcError as error:
                    code, details = error.code(), error.details()
                stop.set()
        finally:
            await server.stop(None)
        return listed, code, details

    listed, code, details = asyncio.run(scenario())
    assert listed == 200
    assert (code, details) == (grpc.StatusCode.UNAVAILABLE, "server shutting down")
