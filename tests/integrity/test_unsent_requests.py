"""Unary and server-streaming calls whose client never sends the request
message: gRPC's Python server waited for it for as long as the client kept the
stream, so 20,000 `GetMatch` calls on 20 connections were held for ever (230 MB),
and a call half-closed with no message was never answered. Now the message is
waited for only for the join timeout, a call with none is INVALID_ARGUMENT at
once, and the calls waiting from one address are bounded, the oldest pushed out
(server/request_wait.py)."""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.request_wait import WAITING_PER_ADDRESS, RequestWait

pytestmark = pytest.mark.e2e

JOIN_TIMEOUT = 2.0
METHODS = (
    "/sheepfold.v1.Arena/GetMatch",
    "/sheepfold.v1.Arena/ListMatches",
    "/sheepfold.v1.Arena/Watch",
    "/grpc.health.v1.Health/Check",
    "/grpc.health.v1.Health/Watch",
)


@pytest.fixture(scope="module")
def server() -> Iterator[InProcessServer]:
    with InProcessServer(ServerConfig(join_timeout=JOIN_TIMEOUT)) as running:
        yield running


def _raw(channel: grpc.aio.Channel, method: str) -> grpc.aio.StreamUnaryMultiCallable:
    """`method` called with request bytes of our own making, or none."""
    return channel.stream_unary(
        method, request_serializer=lambda b: b, response_deserializer=lambda b: b
    )


async def _nothing() -> AsyncIterator[bytes]:
    """A request stream that sends no message and never half-closes."""
    await asyncio.Event().wait()
    yield b""


async def _none() -> AsyncIterator[bytes]:
    """A request stream half-closed at once, with no message."""
    return
    yield b""


async def _status(call: grpc.aio.StreamUnaryCall) -> tuple[grpc.StatusCode, str]:
    try:
        await call
    except grpc.aio.AioRpcError as error:
        return error.code(), error.details() or ""
    return grpc.StatusCode.OK, ""


def test_a_call_half_closed_without_its_request_is_invalid_argument_at_once(
    server: InProcessServer,
) -> None:
    async def run() -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            for method in METHODS:
                started = time.monotonic()
                code, details = await _status(_raw(channel, method)(_none(), timeout=10))
                assert (code, details) == (
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "the call carried no request",
                ), method
                assert time.monotonic() - started < JOIN_TIMEOUT, method

    asyncio.run(run())


def test_a_call_whose_request_never_comes_ends_at_the_join_timeout(
    server: InProcessServer,
) -> None:
    async def run() -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            started = time.monotonic()
            calls = [_raw(channel, method)(_nothing(), timeout=30) for method in METHODS]
            ended = await asyncio.gather(*map(_status, calls))
            assert time.monotonic() - started < JOIN_TIMEOUT + 5
            for method, (code, details) in zip(METHODS, ended, strict=True):
                assert code == grpc.StatusCode.DEADLINE_EXCEEDED, (method, code, details)
                assert details == f"no request within {JOIN_TIMEOUT:g} s of opening the call"

    asyncio.run(run())


def test_calls_waiting_for_their_request_are_bounded_per_address() -> None:
    """One more than the bound, over two connections (each takes 1,000 streams):
    the oldest is pushed out, not timed out (a join timeout longer than the
    calls take to arrive on a busy machine), and a call that sends its request
    is answered meanwhile."""

    async def run(server: InProcessServer) -> None:
        options = [("grpc.use_local_subchannel_pool", 1)]
        async with (
            grpc.aio.insecure_channel(server.address, options=options) as first,
            grpc.aio.insecure_channel(server.address, options=options) as second,
        ):
            oldest = _raw(first, METHODS[0])(_nothing(), timeout=30)
            await asyncio.sleep(0.5)  # the oldest, whatever order the calls start in
            others = [
                _raw(first if n % 2 else second, METHODS[0])(_nothing(), timeout=30)
                for n in range(WAITING_PER_ADDRESS)
            ]
            code, details = await asyncio.wait_for(_status(oldest), 30)
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details)
            assert details == (
                f"pushed out before its request came: {WAITING_PER_ADDRESS} newer calls "
                "from this address are waiting for their request"
            )
            stub = arena_pb2_grpc.ArenaStub(second)
            games = await stub.ListGames(arena_pb2.ListGamesRequest(), timeout=5)
            assert len(games.games) == 4
            for call in others:
                call.cancel()

    with InProcessServer(ServerConfig(join_timeout=60)) as server:
        asyncio.run(run(server))


def test_a_call_waiting_for_its_request_does_not_hold_up_the_shutdown() -> None:
    """It ends UNAVAILABLE with the shutdown's reason at once; it once held the
    server's exit for the whole grace (5 s), as Play streams waiting for their
    join did before them."""
    server = InProcessServer(ServerConfig(join_timeout=60))
    server.start()
    ended: list[tuple[grpc.StatusCode, str]] = []

    async def run() -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            call = _raw(channel, METHODS[0])(_nothing(), timeout=30)
            await asyncio.sleep(0.5)
            started = time.monotonic()
            stopping = asyncio.get_running_loop().run_in_executor(None, server.stop)
            ended.append(await _status(call))
            await stopping
            assert time.monotonic() - started < 2

    asyncio.run(run())
    assert ended == [(grpc.StatusCode.UNAVAILABLE, "in-process server closing")]


def test_a_call_its_client_gives_up_on_before_its_request_logs_nothing(
    server: InProcessServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Cancelled while the server waited for its message: nobody to answer. Its
    status was once sent all the same, which failed, and gRPC logged "Unexpected
    [CallEnded] raised by servicer method" with a traceback for every such call."""

    async def run() -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            calls = [_raw(channel, method)(_nothing(), timeout=30) for method in METHODS]
            await asyncio.sleep(0.5)
            for call in calls:
                call.cancel()
            await asyncio.sleep(0.5)
            stub = arena_pb2_grpc.ArenaStub(channel)
            assert len((await stub.ListGames(arena_pb2.ListGamesRequest(), timeout=5)).games) == 4

    with caplog.at_level(logging.WARNING):
        asyncio.run(run())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_calls_waiting_for_their_request_are_bounded_for_the_whole_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bound in all is the server's, whatever port its calls come through:
    a call waiting on a bot socket is pushed out by newer ones on the main
    port. Each port once had a RequestWait of its own, so a server with many
    bot sockets held that many times its bound."""
    import server.app as app

    monkeypatch.setattr(app, "RequestWait", lambda timeout: RequestWait(timeout, 2, 2))
    folder = Path(tempfile.mkdtemp(prefix="rw", dir="/tmp"))
    socket = f"unix:{folder}/bot.sock"

    async def run(server: InProcessServer) -> None:
        async with (
            grpc.aio.insecure_channel(socket) as bots,
            grpc.aio.insecure_channel(server.address) as main,
        ):
            oldest = _raw(bots, METHODS[0])(_nothing(), timeout=30)
            await asyncio.sleep(0.5)  # the oldest, whatever order the calls start in
            others = [_raw(main, METHODS[0])(_nothing(), timeout=30) for _ in range(2)]
            code, details = await asyncio.wait_for(_status(oldest), 10)
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details)
            assert details.startswith("pushed out before its request came"), details
            for call in others:
                call.cancel()

    try:
        with InProcessServer(ServerConfig(join_timeout=60, bot_sockets=(socket,))) as server:
            asyncio.run(run(server))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_one_bot_sockets_calls_never_push_out_another_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every client of a Unix socket has the peer "unix:", so the bound per
    address counts each bot socket's calls as that socket's own: a bot firing
    calls that never send their request pushes out its own oldest, not the
    call of a bot on another socket that came before them all."""
    import server.app as app

    monkeypatch.setattr(app, "RequestWait", lambda timeout: RequestWait(timeout, 2, 100))
    folder = Path(tempfile.mkdtemp(prefix="rw", dir="/tmp"))
    honest, hostile = f"unix:{folder}/a.sock", f"unix:{folder}/b.sock"

    async def run() -> None:
        async with (
            grpc.aio.insecure_channel(honest) as first,
            grpc.aio.insecure_channel(hostile) as second,
        ):
            waiting = _raw(first, METHODS[0])(_nothing(), timeout=30)
            await asyncio.sleep(0.5)  # the oldest of all
            flood = [_raw(second, METHODS[0])(_nothing(), timeout=30) for _ in range(3)]
            await asyncio.sleep(0.5)  # the flood's oldest is the first started
            ended = [call for call in flood if call.done()]
            assert len(ended) == 1, [call.done() for call in flood]
            code, details = await _status(ended[0])
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details)
            assert not waiting.done()
            for call in [waiting, *flood]:
                call.cancel()

    try:
        config = ServerConfig(join_timeout=60, bot_sockets=(honest, hostile))
        with InProcessServer(config):
            asyncio.run(run())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
