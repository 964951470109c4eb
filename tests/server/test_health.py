"""The health service: Check and Watch as grpc.health.v1 says, and a Watch
stream whose client never reads cannot hold up the server's shutdown."""

from __future__ import annotations

import asyncio
import threading

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from server.app import ServerConfig
from server.health import Health
from server.inprocess import InProcessServer

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class _Context:
    """A Watch call's context whose writes complete, or (`stuck`) never do."""

    def __init__(self, stuck: bool = False) -> None:
        self.stuck = stuck
        self.written: list[int] = []

    async def write(self, message: health_pb2.HealthCheckResponse) -> None:
        if self.stuck:
            await asyncio.Event().wait()  # a client that never opens its window
        self.written.append(message.status)

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise grpc.RpcError(code, details)

    def peer(self) -> str:
        return "ipv4:127.0.0.1:50000"


def test_a_watch_whose_client_never_reads_does_not_hold_up_the_shutdown() -> None:
    async def scenario() -> list[int]:
        health = Health()
        stuck = asyncio.create_task(health.Watch(health_pb2.HealthCheckRequest(), _Context(True)))
        reader = _Context()
        watching = asyncio.create_task(health.Watch(health_pb2.HealthCheckRequest(), reader))
        await asyncio.sleep(0.01)
        # A hang here is the fault: the stuck writer must not block the change.
        await asyncio.wait_for(health.enter_graceful_shutdown(), 10)
        await asyncio.wait_for(health.set("", SERVING), 10)  # ignored from now on
        await asyncio.sleep(0.01)
        for task in (stuck, watching):
            task.cancel()
        return reader.written

    assert asyncio.run(scenario()) == [SERVING, NOT_SERVING]


def test_check_answers_known_services_and_refuses_unknown_ones() -> None:
    async def scenario() -> tuple[int, int]:
        health = Health()
        await health.set("sheepfold.v1.Arena", NOT_SERVING)
        known = await health.Check(
            health_pb2.HealthCheckRequest(service="sheepfold.v1.Arena"), _Context()
        )
        with pytest.raises(grpc.RpcError):
            await health.Check(health_pb2.HealthCheckRequest(service="nope"), _Context())
        whole = await health.Check(health_pb2.HealthCheckRequest(), _Context())
        return known.status, whole.status

    assert asyncio.run(scenario()) == (NOT_SERVING, SERVING)


def test_watch_sends_unknown_then_the_status_once_set() -> None:
    async def scenario() -> list[int]:
        health = Health()
        context = _Context()
        request = health_pb2.HealthCheckRequest(service="later")
        watching = asyncio.create_task(health.Watch(request, context))
        await asyncio.sleep(0.01)
        for status in (SERVING, SERVING, NOT_SERVING):  # the second one changes nothing
            await health.set("later", status)
            await asyncio.sleep(0.01)
        watching.cancel()
        return context.written

    unknown = health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
    assert asyncio.run(scenario()) == [unknown, SERVING, NOT_SERVING]


def test_a_watcher_of_a_running_server_sees_it_stop_serving() -> None:
    server = InProcessServer(ServerConfig())
    server.start()
    stopping = threading.Thread(target=server.stop)
    try:
        with grpc.insecure_channel(server.address) as channel:
            stream = health_pb2_grpc.HealthStub(channel).Watch(
                health_pb2.HealthCheckRequest(), timeout=60
            )
            first = next(stream).status
            stopping.start()
            second = next(stream).status
    finally:
        if stopping.ident is None:
            server.stop()
        stopping.join(60)
    assert (first, second) == (SERVING, NOT_SERVING)
