"""The health service: Check and Watch as grpc.health.v1 says, and a Watch
stream whose client never reads cannot hold up the server's shutdown."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import grpc
import pytest
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc

from server import health as health_module
from server.app import ServerConfig
from server.health import Health
from server.inprocess import InProcessServer

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class _Context:
    """A Watch call's context whose writes complete, or (`stuck`) never do."""

    def __init__(self, stuck: bool = False, peer: str = "ipv4:127.0.0.1:50000") -> None:
        self.stuck = stuck
        self.written: list[int] = []
        self._peer = peer

    async def send_initial_metadata(self, metadata: tuple[tuple[str, str], ...]) -> None:
        pass  # headers alone: no window to wait for, even when stuck

    async def write(self, message: health_pb2.HealthCheckResponse) -> None:
        if self.stuck:
            await asyncio.Event().wait()  # a client that never opens its window
        self.written.append(message.status)

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise grpc.RpcError(code, details)

    def peer(self) -> str:
        return self._peer


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


class _SlowContext(_Context):
    """A Watch call's context whose writes complete once `window` is set (a
    client that reads late, or a small HTTP/2 window)."""

    def __init__(self) -> None:
        super().__init__()
        self.window = asyncio.Event()

    async def write(self, message: health_pb2.HealthCheckResponse) -> None:
        await self.window.wait()
        self.written.append(message.status)


def test_a_watch_whose_write_waits_at_the_shutdown_is_still_sent_not_serving() -> None:
    """The shutdown comes while a watch's SERVING is still on its way: the
    client reads SERVING, NOT_SERVING, then UNAVAILABLE. It once read SERVING
    and then UNAVAILABLE: the watch ended as soon as its write returned,
    without the status that had changed meanwhile (a client with a small
    flow-control window on `sheepfold serve` saw it every time)."""

    async def scenario() -> tuple[list[int], grpc.StatusCode]:
        health = Health()
        context = _SlowContext()
        watching = asyncio.create_task(health.Watch(health_pb2.HealthCheckRequest(), context))
        await asyncio.sleep(0.01)  # its SERVING waits for the window
        await health.enter_graceful_shutdown("server shutting down")
        context.window.set()
        with pytest.raises(grpc.RpcError) as ended:
            await asyncio.wait_for(watching, 10)
        return context.written, ended.value.args[0]

    assert asyncio.run(scenario()) == ([SERVING, NOT_SERVING], grpc.StatusCode.UNAVAILABLE)


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


def test_a_long_unknown_service_name_is_quoted_cut_short_and_marked_so() -> None:
    """Cut to 100 characters with nothing to say so, a pasted name read as if
    it were the whole of it; cut now as an unknown match id is."""

    async def scenario() -> str:
        with pytest.raises(grpc.RpcError) as caught:
            await Health().Check(health_pb2.HealthCheckRequest(service="x" * 15_000), _Context())
        return caught.value.args[1]

    assert asyncio.run(scenario()) == "the server has no service '" + "x" * 36 + "..."


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
    """Read with the asyncio client, which hands out every message before the
    status: the blocking one raises the status as soon as it has arrived, dropping
    a message not asked for yet (a race the server wins on a busy machine)."""
    server = InProcessServer(ServerConfig())
    server.start()
    stopping = threading.Thread(target=server.stop)

    async def watch() -> tuple[list[int], grpc.StatusCode | None]:
        seen: list[int] = []
        async with grpc.aio.insecure_channel(server.address) as channel:
            stream = health_pb2_grpc.HealthStub(channel).Watch(
                health_pb2.HealthCheckRequest(), timeout=60
            )
            try:
                async for response in stream:
                    seen.append(response.status)
                    if len(seen) == 1:
                        stopping.start()
            except grpc.aio.AioRpcError as error:
                return seen, error.code()
        return seen, None

    try:
        seen, ended = asyncio.run(watch())
    finally:
        if stopping.ident is None:
            server.stop()
        stopping.join(60)
    assert seen == [SERVING, NOT_SERVING]
    assert ended == grpc.StatusCode.UNAVAILABLE


async def _watch_from(health: Health, address: str) -> tuple[asyncio.Task[None], _Context]:
    context = _Context(peer=f"ipv4:{address}:40000")
    task = asyncio.create_task(health.Watch(health_pb2.HealthCheckRequest(), context))
    await asyncio.sleep(0.01)
    return task, context


def _status_of(task: asyncio.Task[None]) -> tuple[grpc.StatusCode, str] | None:
    """How a Watch ended (its abort's code and details), None while it runs."""
    if not task.done():
        return None
    error = task.exception()
    assert isinstance(error, grpc.RpcError), error
    return error.args[0], error.args[1]


def test_a_full_server_pushes_out_the_heaviest_address_not_the_newcomer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With every health watch place taken by streams from many addresses, a
    load balancer's new stream was refused while the old ones held on. Now it
    is let in, and the address holding the most loses its oldest stream."""
    monkeypatch.setattr(health_module, "MAX_WATCHES_PER_ADDRESS", 3)
    monkeypatch.setattr(health_module, "MAX_WATCHES", 5)

    async def scenario() -> None:
        health = Health()
        heavy = [await _watch_from(health, "10.0.0.1") for _ in range(3)]
        light = [await _watch_from(health, "10.0.0.2") for _ in range(2)]
        balancer, seen = await _watch_from(health, "10.0.0.3")
        assert _status_of(balancer) is None and seen.written == [SERVING]
        assert _status_of(heavy[0][0]) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "pushed out: this server holds 5 health watches, and this address the most",
        )
        assert all(_status_of(task) is None for task, _ in [*heavy[1:], *light])
        for task, _ in [*heavy, *light, (balancer, seen)]:
            task.cancel()
        await asyncio.gather(*(t for t, _ in [*heavy, *light]), balancer, return_exceptions=True)
        assert len(health.watches) == 0

    asyncio.run(scenario())


def test_a_long_held_stream_is_not_pushed_out_by_a_flood_of_one_stream_per_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Addresses holding equally many: the one that opened a stream last gives
    one up, so a load balancer's stream, held since before the flood, stays."""
    monkeypatch.setattr(health_module, "MAX_WATCHES", 3)

    async def scenario() -> None:
        health = Health()
        balancer, _ = await _watch_from(health, "10.0.0.9")
        flood = [await _watch_from(health, f"10.0.1.{n}") for n in range(6)]
        assert _status_of(balancer) is None
        # Each newcomer took the place of the one before it.
        assert [_status_of(task) is None for task, _ in flood] == [
            True,
            False,
            False,
            False,
            False,
            True,
        ]
        for task, _ in [*flood, (balancer, None)]:
            task.cancel()
        await asyncio.gather(balancer, *(t for t, _ in flood), return_exceptions=True)

    asyncio.run(scenario())


def test_refusals_and_push_outs_are_logged_with_the_address_without_flooding_the_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A flood of health watches was refused and pushed out in silence: the
    operator saw nothing of who held the server's places."""
    monkeypatch.setattr(health_module, "MAX_WATCHES_PER_ADDRESS", 2)
    monkeypatch.setattr(health_module, "MAX_WATCHES", 3)

    async def scenario() -> None:
        health = Health()
        held = [await _watch_from(health, "10.0.0.1") for _ in range(2)]
        refused = [await _watch_from(health, "10.0.0.1") for _ in range(25)]
        assert all(_status_of(task) is not None for task, _ in refused)
        held.append(await _watch_from(health, "10.0.0.2"))
        held.append(await _watch_from(health, "10.0.0.3"))  # pushes out one of 10.0.0.1's
        for task, _ in held:
            task.cancel()
        await asyncio.gather(*(task for task, _ in held), return_exceptions=True)

    with structlog.testing.capture_logs() as logs:
        asyncio.run(scenario())
    refusals = [line for line in logs if line["event"] == "stream refused"]
    assert [line["total"] for line in refusals] == list(range(1, 21))
    assert {line["client"] for line in refusals} == {"ipv4:10.0.0.1"}
    assert refusals[0]["streams"] == "health watches"
    assert refusals[0]["reason"] == "this address already has 2 health watches open"
    pushed = [line for line in logs if line["event"] == "stream pushed out"]
    assert [(line["client"], line["total"]) for line in pushed] == [("ipv4:10.0.0.1", 1)]
    assert pushed[0]["reason"] == "this server holds 3 health watches, and this address the most"


class _SlowStatus(dict[str, int]):
    """A status table whose look-up holds the loop past the client's deadline."""

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        time.sleep(0.3)
        return super().get(key, default)


def test_a_check_whose_client_left_before_its_not_found_logs_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The NOT_FOUND of an unknown service could not be sent: Check once sent it
    with gRPC's own abort, whose failure was logged as an unexpected error in a
    call, and the INTERNAL then tried as "Unexpected [UsageError] raised by
    servicer method [/grpc.health.v1.Health/Check]", each with a traceback."""
    with InProcessServer() as running, grpc.insecure_channel(running.address) as channel:
        running.server.health._status = _SlowStatus(running.server.health._status)
        with (
            caplog.at_level(logging.WARNING),
            structlog.testing.capture_logs() as logs,
            pytest.raises(grpc.RpcError) as caught,
        ):
            health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="nope"), timeout=0.1
            )
            time.sleep(0.8)  # the look-up done and the status tried
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert [entry["event"] for entry in logs if entry["log_level"] == "error"] == []
