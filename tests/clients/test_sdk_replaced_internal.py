"""An SDK seat whose stream ended INTERNAL after its join asks GetMatch
whether another stream holds its seat before rejoining: grpc.aio may report a
stream that a newer join replaced (ABORTED) as INTERNAL (grpc/grpc#36066), and
rejoining then would take the seat back from the newer stream, which may do
the same back. Against a real server on loopback."""

from __future__ import annotations

import asyncio
import socket
import time

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.connect import LOOK_SECONDS
from clients.matchplay import create_match
from clients.sdk import SEAT_RECHECK_SECONDS, DecisionView, SeatError, play, seat_taken
from server.app import ServerConfig
from server.inprocess import serving_here
from tests.play_relay import PlayFaults, Relay

pytestmark = pytest.mark.e2e


async def _hold(stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str) -> grpc.aio.Call:
    """A Play stream that joins with `token` and then just holds its seat."""
    call = stub.Play()
    await call.write(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token)))
    while (await call.read()).WhichOneof("kind") != "joined":
        pass
    return call


async def _cut_internal_at_the_second_decision(
    address: str,
) -> tuple[arena_pb2.CreateMatchResponse, Relay, str, asyncio.Task[arena_pb2.MatchResult]]:
    """A two-seat match whose seat 0 is to play through a relay that ends its
    stream INTERNAL as it answers its second decision (the relay started, and
    its address), seat 1 played by a random bot straight to the server."""
    created = await create_match(address, "sheep-showdown", 2, seed=43)
    relay = Relay(address, PlayFaults(cut_after_decisions=2, cut_code=grpc.StatusCode.INTERNAL))
    relayed = await relay.start()
    other = asyncio.create_task(
        play(RandomBot(2), address, created.match_id, created.seat_tokens[1])
    )
    return created, relay, relayed, other


class _ReplacedAtSecondDecision:
    """Plays seat 0; on its second decision, a newer stream joins seat 0
    directly before the bot answers, as a second copy of the bot would."""

    def __init__(self, address: str, match_id: str, token: str) -> None:
        self.address, self.match_id, self.token = address, match_id, token
        self.decisions = 0
        self.channel: grpc.aio.Channel | None = None
        self.newer: grpc.aio.Call | None = None

    async def decide(self, decision: DecisionView) -> int:
        self.decisions += 1
        if self.decisions == 2:
            self.channel = grpc.aio.insecure_channel(self.address)
            stub = arena_pb2_grpc.ArenaStub(self.channel)
            self.newer = await _hold(stub, self.match_id, self.token)
        return 0


def test_a_seat_cut_internal_after_a_newer_join_stops_as_replaced() -> None:
    """The relay ends seat 0's stream INTERNAL as the bot answers its second
    decision, a newer stream having joined seat 0 just before: what grpc.aio
    reports for a replaced stream written to as it ends. The SDK stops as on
    ABORTED instead of rejoining and taking the seat back."""

    async def run() -> tuple[SeatError | arena_pb2.MatchResult, int, bool]:
        async with serving_here(ServerConfig()) as address:
            created, relay, relayed, other = await _cut_internal_at_the_second_decision(address)
            bot = _ReplacedAtSecondDecision(address, created.match_id, created.seat_tokens[0])
            outcome: SeatError | arena_pb2.MatchResult
            try:
                outcome = await asyncio.wait_for(
                    play(bot, relayed, created.match_id, created.seat_tokens[0]), 60
                )
            except SeatError as error:
                outcome = error
            finally:
                await relay.stop()
            # The newer stream still holds the seat: nobody took it back.
            still_held = await seat_taken(address, created.match_id, 0)
            other.cancel()
            if bot.newer is not None:
                bot.newer.cancel()
            if bot.channel is not None:
                await bot.channel.close()
            return outcome, relay.play_calls, still_held

    outcome, calls, still_held = asyncio.run(run())
    assert isinstance(outcome, SeatError), f"rejoined and played on: {outcome}"
    assert outcome.code == grpc.StatusCode.ABORTED
    assert outcome.details == "replaced by a newer join for seat 0"
    assert calls == 1, "no rejoin"
    assert still_held


def test_a_seat_another_stream_holds_is_taken_and_a_free_one_is_not() -> None:
    async def run() -> None:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-showdown", 2, seed=43)
            match_id = created.match_id
            async with grpc.aio.insecure_channel(address) as channel:
                held = await _hold(
                    arena_pb2_grpc.ArenaStub(channel), match_id, created.seat_tokens[0]
                )
                assert await seat_taken(address, match_id, 0)
                assert not await seat_taken(address, match_id, 1), "never joined"
                assert not await seat_taken(address, "no-such-match", 0), "GetMatch refused"
                held.cancel()
                for _ in range(50):
                    if not await seat_taken(address, match_id, 0):
                        break
                else:
                    raise AssertionError("the seat stayed taken after its stream ended")
            assert not await seat_taken("127.0.0.1:1", match_id, 0), "no server"

    asyncio.run(run())


def test_a_silent_server_is_not_asked_for_long_whether_a_seat_is_taken() -> None:
    """A server that accepts the connection and then says nothing (stopped,
    frozen) fails the look within LOOK_SECONDS and the seat counts as not
    taken: the rejoin that follows deals with the server. Each look once waited
    30 s, holding the rejoin back that long."""

    async def run() -> float:
        listener = socket.create_server(("127.0.0.1", 0))
        try:
            started = time.monotonic()
            address = f"127.0.0.1:{listener.getsockname()[1]}"
            assert not await seat_taken(address, "any-match", 0)
            return time.monotonic() - started
        finally:
            listener.close()

    waited = asyncio.run(run())
    assert LOOK_SECONDS - 1 <= waited < LOOK_SECONDS + 5, waited


def test_a_seat_cut_internal_while_nobody_else_holds_it_rejoins_and_finishes() -> None:
    """INTERNAL with the seat free (its stream gone with it) is rejoined as before."""

    async def run() -> tuple[arena_pb2.MatchResult, arena_pb2.MatchResult, int]:
        async with serving_here(ServerConfig()) as address:
            created, relay, relayed, other = await _cut_internal_at_the_second_decision(address)
            try:
                mine = await asyncio.wait_for(
                    play(RandomBot(1), relayed, created.match_id, created.seat_tokens[0]), 60
                )
            finally:
                await relay.stop()
            return mine, await asyncio.wait_for(other, 60), relay.play_calls

    mine, other, calls = asyncio.run(run())
    assert mine == other
    assert calls == 2


def test_a_seat_let_go_before_the_second_look_is_not_taken() -> None:
    """A stream the server has yet to notice is gone leaves its seat connected
    for a moment: the seat is looked at again SEAT_RECHECK_SECONDS later, and
    a seat free by then is not taken (the stream that lost it rejoins)."""

    async def run() -> bool:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-showdown", 2, seed=43)
            async with grpc.aio.insecure_channel(address) as channel:
                held = await _hold(
                    arena_pb2_grpc.ArenaStub(channel), created.match_id, created.seat_tokens[0]
                )
                looking = asyncio.create_task(seat_taken(address, created.match_id, 0))
                await asyncio.sleep(SEAT_RECHECK_SECONDS / 5)
                held.cancel()
                return await looking

    assert not asyncio.run(run())
