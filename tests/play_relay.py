"""A gRPC relay in front of a real Sheepfold server that fails chosen Play
streams, for testing how a bot retries.

Under a flood of HTTP/2 streams that a hostile client opens and resets, gRPC's
core cancels other clients' new calls before the server's handler sees them:
an honest bot's Play ends CANCELLED (or RESOURCE_EXHAUSTED, INTERNAL...)
within milliseconds, its join never answered. The relay does the same on
purpose: it ends the first Play calls at once with the codes it is given,
before reading anything, and can end a relayed stream once it has passed on a
given number of decisions and the bot has answered the last (a connection lost
after the join, that answer lost with it), then end the
rejoins that follow at once (a restarted server pushing out joins that wait
past its bound for one address). Everything else
goes to the real server unchanged, as bytes; it records which decisions each
stream carried and which answers came back.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

import grpc
from sheepfold.v1 import arena_pb2

PLAY = "/sheepfold.v1.Arena/Play"
UNARY_SECONDS = 30.0
CUT_ANSWER_SECONDS = 10.0  # how long a cut stream waits for the bot's answer


@dataclass(frozen=True)
class PlayFaults:
    """What the relay does to the Play calls it gets, in the order they come."""

    refuse: Sequence[grpc.StatusCode] = ()  # the first calls end at once with these codes
    cut_after_decisions: int = 0  # the first relayed stream ends after this many (0: never)
    cut_code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE
    # Once that stream is cut, the next calls end at once with these codes.
    refuse_after_cut: Sequence[grpc.StatusCode] = ()
    # The second relayed stream ends after as many decisions, with this code (None: never).
    then_cut_code: grpc.StatusCode | None = None


@dataclass
class RelayedStream:
    """One Play stream the relay passed on."""

    decisions: list[int] = field(default_factory=list)  # decision ids sent to the bot
    answers: list[int] = field(default_factory=list)  # decision ids answered by the bot
    forwarded: list[int] = field(default_factory=list)  # answers passed on to the server
    cut: bool = False  # the relay is ending this stream: nothing more goes upstream
    # Set when the bot's answer to the decision the stream is cut after arrives.
    cut_answered: asyncio.Event = field(default_factory=asyncio.Event)


class Relay:
    """Listens on 127.0.0.1 (a free port) and relays to `upstream`, on the running loop."""

    def __init__(self, upstream: str, faults: PlayFaults) -> None:
        self.faults = faults
        self.play_calls = 0
        self.streams: list[RelayedStream] = []
        self._refused_after_cut = 0
        self._channel = grpc.aio.insecure_channel(upstream)
        self._server = grpc.aio.server()
        self._server.add_generic_rpc_handlers((_Handler(self),))

    async def start(self) -> str:
        port = self._server.add_insecure_port("127.0.0.1:0")
        await self._server.start()
        return f"127.0.0.1:{port}"

    async def stop(self) -> None:
        await self._server.stop(None)
        await self._channel.close()

    async def play(
        self, requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        number = self.play_calls
        self.play_calls += 1
        if number < len(self.faults.refuse):
            await context.abort(self.faults.refuse[number], "ended by the test relay at once")
        after_cut = self.faults.refuse_after_cut
        if self.streams and self.streams[0].cut and self._refused_after_cut < len(after_cut):
            self._refused_after_cut += 1
            await context.abort(
                after_cut[self._refused_after_cut - 1], "ended by the test relay at once"
            )
        stream = RelayedStream()
        self.streams.append(stream)
        cut_code = (self.faults.cut_code, self.faults.then_cut_code, None)[
            min(len(self.streams), 3) - 1
        ]
        cut_after = self.faults.cut_after_decisions if cut_code is not None else 0
        call = self._channel.stream_stream(PLAY)()
        pump = asyncio.create_task(_pump_requests(requests, call, stream))
        try:
            async for message in call:
                response = arena_pb2.PlayResponse.FromString(message)
                if response.WhichOneof("kind") == "decision":
                    stream.decisions.append(response.decision.decision_id)
                    stream.cut = len(stream.decisions) == cut_after
                yield message
                if stream.cut:
                    # Ended once the bot has written its answer (which the server
                    # never gets): a stream ended while its client writes can
                    # reach the client as INTERNAL instead of the code sent
                    # (grpcio's race between a failed write and the status).
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(CUT_ANSWER_SECONDS):
                            await stream.cut_answered.wait()
                    assert cut_code is not None
                    await context.abort(cut_code, "ended by the test relay")
        except grpc.aio.AioRpcError as error:
            await context.abort(error.code(), error.details() or "")
        finally:
            pump.cancel()
            call.cancel()

    def unary(self, method: str) -> Callable:
        async def forward(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
            try:
                return await self._channel.unary_unary(method)(request, timeout=UNARY_SECONDS)
            except grpc.aio.AioRpcError as error:
                await context.abort(error.code(), error.details() or "")
                raise  # not reached: abort raises

        return forward


class _Handler(grpc.GenericRpcHandler):
    def __init__(self, relay: Relay) -> None:
        self.relay = relay

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        if details.method == PLAY:
            return grpc.stream_stream_rpc_method_handler(self.relay.play)
        return grpc.unary_unary_rpc_method_handler(self.relay.unary(details.method))


async def _pump_requests(
    requests: AsyncIterator[bytes], call: grpc.aio.StreamStreamCall, stream: RelayedStream
) -> None:
    """The bot's messages to the server; answers are noted, and dropped once the
    relay is cutting the stream (the server never gets them)."""
    with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
        async for message in requests:
            request = arena_pb2.PlayRequest.FromString(message)
            if request.WhichOneof("kind") == "answer":
                stream.answers.append(request.answer.decision_id)
                if stream.cut:
                    stream.cut_answered.set()
                    continue
                stream.forwarded.append(request.answer.decision_id)
            await call.write(message)
        await call.done_writing()
