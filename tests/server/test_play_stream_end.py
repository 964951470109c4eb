"""How a Play stream ends when its match is over, on both sides.

grpc.aio (1.85 and earlier, grpc/grpc#43360) never frees a batch's operation
array when the batch fails or the task awaiting it is cancelled: a read
cancelled while it waits, or a status sent after the client has gone, leaves
about 100 bytes in the heap for good, and the scattered pieces keep the heap
from shrinking. So at a match's normal end neither side may leave a gRPC
operation cancelled or failed: the server lets its reader run to the stream's
end instead of cancelling it, and the SDK returns only once the server's status
has arrived, before it closes its channel.
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
import structlog

import clients.sdk
import server.play_call
from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.inprocess import serving_here
from server.streams import Outbound, StreamClosed


def test_the_server_reads_each_play_stream_to_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    readers: list[asyncio.Task[Any]] = []
    read_answers = server.play_call._read_answers

    async def recorded(*args: Any) -> None:
        task = asyncio.current_task()
        assert task is not None
        readers.append(task)
        await read_answers(*args)

    monkeypatch.setattr(server.play_call, "_read_answers", recorded)

    async def run() -> None:
        async with serving_here() as address:
            for seed in range(3):
                await play_match(address, "sheep-n-sheep", [RandomBot(1), RandomBot(2)], seed=seed)
            async with asyncio.timeout(10):
                while not all(task.done() for task in readers):
                    await asyncio.sleep(0.01)

    with structlog.testing.capture_logs() as logs:
        asyncio.run(run())
    assert [log for log in logs if log["log_level"] == "error"] == []
    assert len(readers) == 6
    # `_read_answers` takes a cancellation as the stream's end: count the requests.
    assert [task.cancelling() for task in readers] == [0] * 6


class _PlayCalls(grpc.aio.StreamStreamClientInterceptor):
    """Keeps every Play call the channel makes."""

    def __init__(self) -> None:
        self.calls: list[grpc.aio.StreamStreamCall] = []

    async def intercept_stream_stream(self, continuation, client_call_details, request_iterator):  # type: ignore[no-untyped-def, override]
        call = await continuation(client_call_details, request_iterator)
        self.calls.append(call)
        return call


def test_the_sdk_leaves_a_finished_stream_only_after_its_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    play_calls = _PlayCalls()

    def recorded(
        address: str,
        credentials: grpc.ChannelCredentials | None,
        max_message_bytes: int = clients.sdk.DEFAULT_MAX_MESSAGE_BYTES,
    ) -> grpc.aio.Channel:
        assert credentials is None  # the test server is plaintext
        options = clients.sdk.channel_options(max_message_bytes)
        return grpc.aio.insecure_channel(address, options=options, interceptors=[play_calls])

    monkeypatch.setattr(clients.sdk, "_channel", recorded)
    # A busy server: its status comes a while after the result.
    get = Outbound.get

    async def slow_end(self: Outbound[Any]) -> Any:
        message = await get(self)
        if isinstance(message, StreamClosed):
            await asyncio.sleep(0.3)
        return message

    monkeypatch.setattr(Outbound, "get", slow_end)

    async def run() -> list[grpc.StatusCode]:
        async with serving_here() as address:
            for seed in range(5):
                await play_match(address, "sheep-n-sheep", [RandomBot(1), RandomBot(2)], seed=seed)
            return [await call.code() for call in play_calls.calls]

    # Closing the channel cancels a call whose status has not arrived yet.
    assert asyncio.run(run()) == [grpc.StatusCode.OK] * 10
