"""The SDK against small fake servers that end streams as a real one seldom does."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients import play_stream, sdk
from clients.bots.random_bot import RandomBot
from clients.sdk import DecisionView, SeatError, play

pytestmark = pytest.mark.e2e


class _OverArena(arena_pb2_grpc.ArenaServicer):
    """Joins the seat, then says the match is over; knows no match to GetMatch."""

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))
        await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the match is over")

    async def GetMatch(
        self, request: arena_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.MatchInfo:
        await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")


@contextlib.asynccontextmanager
async def _serving(
    arena: arena_pb2_grpc.ArenaServicer, options: Sequence[tuple[str, int]] = ()
) -> AsyncIterator[str]:
    """The address of a gRPC server of `arena` alone, for the block."""
    server = grpc.aio.server(options=options)
    arena_pb2_grpc.add_ArenaServicer_to_server(arena, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop(None)


def test_a_match_over_without_a_result_to_fetch_is_a_seat_error() -> None:
    """After FAILED_PRECONDITION the SDK asks GetMatch for the result; when that
    failed too (the match purged, the server going away) its AioRpcError escaped
    `play`, and `sheepfold bot` printed a traceback instead of one line."""

    async def scenario() -> SeatError:
        async with _serving(_OverArena()) as address:
            with pytest.raises(SeatError) as refused:
                await play(RandomBot(1), address, "m", "t")
            return refused.value

    error = asyncio.run(scenario())
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION
    assert error.details == "the match is over"


class _OverThenSilentArena(_OverArena):
    """Joins the seat and says the match is over, then answers GetMatch never:
    a server that froze (or a proxy that stalls) just after ending the stream."""

    def __init__(self) -> None:
        self.looks = 0

    async def GetMatch(
        self, request: arena_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.MatchInfo:
        self.looks += 1
        await asyncio.Event().wait()  # until the server stops
        return arena_pb2.MatchInfo()


def test_a_silent_server_is_not_asked_for_long_for_a_finished_match_s_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After FAILED_PRECONDITION the SDK looks for the finished result with
    GetMatch; a server that no longer answers fails that look within
    LOOK_SECONDS and the seat ends with the stream's own error, as when the
    look fails at once. The look once waited RPC_SECONDS (30 s), holding the bot."""
    monkeypatch.setattr(sdk, "LOOK_SECONDS", 1.0)

    async def scenario() -> tuple[SeatError, float, int]:
        arena = _OverThenSilentArena()
        async with _serving(arena) as address:
            started = asyncio.get_running_loop().time()
            with pytest.raises(SeatError) as refused:
                await asyncio.wait_for(play(RandomBot(1), address, "m", "t"), 10)
            return refused.value, asyncio.get_running_loop().time() - started, arena.looks

    error, waited, looks = asyncio.run(scenario())
    assert (error.code, error.details) == (grpc.StatusCode.FAILED_PRECONDITION, "the match is over")
    assert looks == 1
    assert 1.0 <= waited < 5, waited


class _FlakyArena(arena_pb2_grpc.ArenaServicer):
    """Refuses the first `refusals` streams UNAVAILABLE before their join, as a
    server still restoring its matches after a restart might; then each stream
    joins the seat, asks one decision and drops UNAVAILABLE, as a server
    restarted `outages` times in one match would; then sends the result.
    Without `decides`, each of those streams drops right after its join, before
    any play (a server in a crash loop, a proxy cutting streams)."""

    def __init__(self, outages: int, refusals: int = 0, decides: bool = True) -> None:
        self.outages = outages
        self.refusals = refusals
        self.decides = decides
        self.streams = 0

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        self.streams += 1
        if self.streams <= self.refusals:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "restoring")
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))
        if self.streams - self.refusals > self.outages:
            yield arena_pb2.PlayResponse(result=arena_pb2.MatchResult(scores=[1.0], ranks=[1]))
            return
        if not self.decides:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "restarting")
        decision = arena_pb2.Decision(decision_id=self.streams, seat=0)
        decision.actions.add(label="a")
        yield arena_pb2.PlayResponse(decision=decision)
        await anext(aiter(requests))  # the answer
        await context.abort(grpc.StatusCode.UNAVAILABLE, "restarting")


def test_max_reconnects_counts_failed_attempts_in_a_row_not_per_match() -> None:
    """Every outage here is over after one rejoin, more outages than
    `max_reconnects`: the seat plays on, as the docs promise ("gives up after
    some number of failed attempts in a row"), where it gave up before."""

    async def scenario() -> arena_pb2.MatchResult:
        async with _serving(_FlakyArena(outages=4)) as address:
            return await play(RandomBot(1), address, "m", "t", max_reconnects=2)

    assert list(asyncio.run(scenario()).ranks) == [1]


def test_a_seat_rejoins_for_its_rejoin_seconds_however_many_attempts_that_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The seat gave up after 20 failed attempts, whatever they lasted; it now
    tries for `rejoin_seconds` (90 by default), which a bot author can raise
    for a server that takes longer to come back (the waits between attempts
    are cut to nothing here, so 30 attempts take well under a second)."""
    monkeypatch.setattr(sdk._Rejoins, "delay", lambda self: 0.0)

    async def scenario() -> tuple[arena_pb2.MatchResult, int]:
        arena = _FlakyArena(outages=0, refusals=30)
        async with _serving(arena) as address:
            return await play(RandomBot(1), address, "m", "t"), arena.streams

    result, streams = asyncio.run(scenario())
    assert (list(result.ranks), streams) == ([1], 31)


def test_a_join_answered_then_dropped_before_play_does_not_start_the_clock_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a rejoin back in play (a decision, event or result after its join)
    ends an outage, as in the Node bot: a server that answers every join and
    drops the stream at once is given up on after `rejoin_seconds`, with every
    join answered (restarting the clock at each would rejoin it for ever)."""
    monkeypatch.setattr(sdk._Rejoins, "delay", lambda self: 0.01)

    async def scenario() -> tuple[SeatError, int]:
        arena = _FlakyArena(outages=10**9, decides=False)
        async with _serving(arena) as address:
            with pytest.raises(SeatError) as gave_up:
                await asyncio.wait_for(
                    play(RandomBot(1), address, "m", "t", rejoin_seconds=0.5), 10
                )
            return gave_up.value, arena.streams

    error, streams = asyncio.run(scenario())
    assert error.code == grpc.StatusCode.UNAVAILABLE and streams > 2
    assert error.details.startswith("restarting; gave up after "), error.details
    assert " over 0.5 s (rejoin_seconds" in error.details, error.details


class _MuteArena(arena_pb2_grpc.ArenaServicer):
    """Takes each Play stream and its join, and answers nothing: a server whose
    gRPC core still speaks HTTP/2 while the rest of it is stuck."""

    def __init__(self) -> None:
        self.streams = 0

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        self.streams += 1
        await asyncio.Event().wait()  # until the server stops
        yield arena_pb2.PlayResponse()


def test_a_join_the_server_never_answers_is_given_up_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A join is answered at once (joined, or a status); a seat whose join got
    nothing waited for ever, and `sheepfold bot` with it. It now tries again,
    as for a server that went away, and gives up after `rejoin_seconds`."""
    monkeypatch.setattr(play_stream, "JOIN_ANSWER_SECONDS", 0.3)
    monkeypatch.setattr(sdk._Rejoins, "delay", lambda self: 0.01)

    async def scenario() -> tuple[SeatError, int, str]:
        arena = _MuteArena()
        async with _serving(arena) as address:
            with pytest.raises(SeatError) as gave_up:
                await asyncio.wait_for(
                    play(RandomBot(1), address, "m", "t", rejoin_seconds=0.5), 10
                )
            return gave_up.value, arena.streams, address

    error, streams, address = asyncio.run(scenario())
    assert error.code == grpc.StatusCode.UNAVAILABLE and streams >= 2
    said = f"the server at {address} answered no join within 0.3 s; gave up after "
    assert error.details.startswith(said), error.details


class _LingeringArena(arena_pb2_grpc.ArenaServicer):
    """Sends the result, then keeps the stream open until told to end it."""

    def __init__(self) -> None:
        self.release = asyncio.Event()

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))
        yield arena_pb2.PlayResponse(result=arena_pb2.MatchResult(scores=[1.0], ranks=[1]))
        await self.release.wait()


def test_a_seat_waits_for_the_end_of_a_finished_stream_for_a_few_seconds_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After its result a seat waits for the server's status before closing its
    channel (a status sent to a client that has left leaks in grpc.aio's
    server), but a server that never ends the stream does not hold it."""
    monkeypatch.setattr(play_stream, "STATUS_SECONDS", 0.3)

    async def scenario() -> tuple[arena_pb2.MatchResult, float]:
        arena = _LingeringArena()
        async with _serving(arena) as address:
            started = asyncio.get_running_loop().time()
            result = await play(RandomBot(1), address, "m", "t")
            waited = asyncio.get_running_loop().time() - started
            arena.release.set()
            return result, waited

    result, waited = asyncio.run(scenario())
    assert list(result.ranks) == [1]
    assert 0.3 <= waited < 10


# A server allowed larger messages (`serve --max-message-bytes 16777216`).
LARGE_SERVER = 16 * 1024 * 1024


class _LargeDecisionArena(arena_pb2_grpc.ArenaServicer):
    """Sends one decision past 4 MiB (gRPC's default receive limit), as a
    server allowed larger messages may; then the result once it is answered."""

    PROMPT = "x" * (5 * 1024 * 1024)

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))
        decision = arena_pb2.Decision(decision_id=1, seat=0, prompt=self.PROMPT)
        decision.actions.add(label="a")
        yield arena_pb2.PlayResponse(decision=decision)
        answer = await anext(aiter(requests))
        assert answer.answer.decision_id == 1
        yield arena_pb2.PlayResponse(result=arena_pb2.MatchResult(scores=[1.0], ranks=[1]))


class _PromptSizes:
    def __init__(self) -> None:
        self.sizes: list[int] = []

    def decide(self, decision: DecisionView) -> int:
        self.sizes.append(len(decision.prompt))
        return 0


def _play_large(
    max_message_bytes: int = sdk.DEFAULT_MAX_MESSAGE_BYTES,
) -> tuple[_PromptSizes, arena_pb2.MatchResult | SeatError]:
    bot = _PromptSizes()

    async def scenario() -> arena_pb2.MatchResult | SeatError:
        options = [("grpc.max_send_message_length", LARGE_SERVER)]
        async with _serving(_LargeDecisionArena(), options) as address:
            try:
                return await asyncio.wait_for(
                    play(bot, address, "m", "t", max_message_bytes=max_message_bytes), 60
                )
            except SeatError as error:
                return error

    return bot, asyncio.run(scenario())


def test_a_seat_receives_a_decision_past_4_mib_with_max_message_bytes_raised() -> None:
    """The SDK took at most 4 MiB, with no way to raise it, while `serve
    --max-message-bytes` lets a server send more: such a decision ended the
    seat's stream RESOURCE_EXHAUSTED and the seat was lost."""
    bot, result = _play_large(max_message_bytes=LARGE_SERVER)
    assert isinstance(result, arena_pb2.MatchResult), result
    assert list(result.ranks) == [1]
    assert bot.sizes == [len(_LargeDecisionArena.PROMPT)]


def test_by_default_a_seat_takes_4_mib_as_a_server_does() -> None:
    bot, result = _play_large()
    assert isinstance(result, SeatError), result
    assert result.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert bot.sizes == []


@pytest.mark.parametrize("limit", [0, 1024 * 1024 - 1, 2**31])
def test_max_message_bytes_out_of_range_is_refused_before_connecting(limit: int) -> None:
    with pytest.raises(ValueError, match=r"from 1048576 \(1 MiB: a decision is one message\)"):
        asyncio.run(play(RandomBot(1), "127.0.0.1:1", "m", "t", max_message_bytes=limit))


class _EndingArena(arena_pb2_grpc.ArenaServicer):
    """Answers each join, then ends the stream OK with no result (a proxy that
    closes streams cleanly, a server that lost the match)."""

    def __init__(self) -> None:
        self.streams = 0

    async def Play(
        self, requests: AsyncIterator[arena_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[arena_pb2.PlayResponse]:
        await anext(aiter(requests))
        self.streams += 1
        yield arena_pb2.PlayResponse(joined=arena_pb2.Joined(seat=0, game="sheep-showdown"))


def test_streams_that_end_without_a_result_before_play_are_given_up_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stream that ends with neither a result nor an error is joined again,
    but only a stream back in play ends the outage: streams that end at once,
    every join answered, are given up on after `rejoin_seconds`."""
    monkeypatch.setattr(sdk._Rejoins, "delay", lambda self: 0.01)

    async def scenario() -> tuple[SeatError, int]:
        arena = _EndingArena()
        async with _serving(arena) as address:
            with pytest.raises(SeatError) as gave_up:
                await asyncio.wait_for(play(RandomBot(1), address, "m", "t", rejoin_seconds=0.3), 5)
            return gave_up.value, arena.streams

    error, streams = asyncio.run(scenario())
    assert error.code == grpc.StatusCode.UNAVAILABLE and streams > 2
    assert error.details.startswith("the stream ended without a result; gave up after ")
    assert " over 0.3 s (rejoin_seconds" in error.details, error.details
