"""The SDK's rejoins around a restart: a seat that joined, lost its stream,
then had its rejoins refused before their joins were answered.

A real server pushes a rejoining stream out only when another stream from
the same address arrives while it waits for its join (every bot of a
restarted server rejoining at once), a window of microseconds: the relay in
front of a real server (tests/play_relay.py) ends the streams in that order
every time.
"""

from __future__ import annotations

import asyncio

import grpc
import pytest
from sheepfold.v1 import arena_pb2

from clients import sdk
from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match
from clients.sdk import SeatError, play
from server.app import ServerConfig
from server.inprocess import serving_here
from tests.play_relay import PlayFaults, Relay

pytestmark = pytest.mark.e2e

LOST = grpc.StatusCode.UNAVAILABLE  # the server restarting, the network dropped


async def _seat_through_relay(
    faults: PlayFaults,
) -> tuple[arena_pb2.MatchResult | SeatError, Relay, arena_pb2.MatchResult | None]:
    """Seat 0 plays through the relay, seat 1 directly: seat 0's outcome, the
    relay, and the result seat 1 saw (None if it did not finish)."""
    async with serving_here(ServerConfig()) as address:
        created = await create_match(address, "sheep-showdown", 2, seed=43)
        relay = Relay(address, faults)
        relayed = await relay.start()
        opponent = asyncio.create_task(
            play(RandomBot(2), address, created.match_id, created.seat_tokens[1])
        )
        try:
            outcome: arena_pb2.MatchResult | SeatError = await asyncio.wait_for(
                play(RandomBot(1), relayed, created.match_id, created.seat_tokens[0]), 60
            )
        except SeatError as error:
            outcome = error
        finally:
            await relay.stop()
        other: arena_pb2.MatchResult | None = None
        if isinstance(outcome, arena_pb2.MatchResult):
            other = await asyncio.wait_for(opponent, 60)
        opponent.cancel()
        return outcome, relay, other


@pytest.mark.parametrize(
    "refusals",
    [
        [grpc.StatusCode.RESOURCE_EXHAUSTED],  # pushed out before joining
        [grpc.StatusCode.DEADLINE_EXCEEDED],  # the join did not arrive in time
        [grpc.StatusCode.CANCELLED, grpc.StatusCode.RESOURCE_EXHAUSTED],
    ],
    ids=["pushed-out", "join-too-slow", "cancelled-then-pushed-out"],
)
def test_a_seat_that_joined_before_a_restart_rejoins_past_refusals_before_joining(
    refusals: list[grpc.StatusCode],
) -> None:
    """The SDK remembered the join of the stream before the restart and gave
    the seat up at the first refusal; a refusal before this stream's join is
    answered is about this stream alone, so the seat joins again and plays on."""
    faults = PlayFaults(cut_after_decisions=2, cut_code=LOST, refuse_after_cut=refusals)
    outcome, relay, other = asyncio.run(_seat_through_relay(faults))
    assert isinstance(outcome, arena_pb2.MatchResult), outcome
    assert outcome == other, "both seats saw the same result"
    assert relay.play_calls == 1 + len(refusals) + 1
    first, second = relay.streams
    assert second.decisions[0] == first.decisions[-1], "the open decision is sent again"


def test_the_same_code_after_the_rejoin_was_answered_is_final() -> None:
    """Once the rejoin's stream has its join answered, CANCELLED is about that
    stream (the seat's own side ended it): final, as before the restart."""
    faults = PlayFaults(
        cut_after_decisions=1, cut_code=LOST, then_cut_code=grpc.StatusCode.CANCELLED
    )
    outcome, relay, _ = asyncio.run(_seat_through_relay(faults))
    assert isinstance(outcome, SeatError), outcome
    assert outcome.code == grpc.StatusCode.CANCELLED
    assert relay.play_calls == 2


def test_only_a_rejoin_waits_through_refusals_for_its_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat's first connection reports a refused one at once (a mistyped
    port); its rejoins wait the few seconds a restarting server takes to come
    back (tests/clients/test_connect_first_attempt.py has both waits)."""
    waits: dict[str, list[bool]] = {}
    real = sdk.ensure_reachable

    async def recorded(
        channel: grpc.aio.Channel, address: str, *, patient: bool, trust: str
    ) -> None:
        waits.setdefault(address, []).append(patient)
        await real(channel, address, patient=patient, trust=trust)

    monkeypatch.setattr(sdk, "ensure_reachable", recorded)
    outcome, relay, _ = asyncio.run(
        _seat_through_relay(PlayFaults(cut_after_decisions=2, cut_code=LOST))
    )
    assert isinstance(outcome, arena_pb2.MatchResult), outcome
    assert relay.play_calls == 2
    assert sorted(waits.values()) == [[False], [False, True]], waits


def test_a_stream_that_ends_unknown_in_play_is_joined_again() -> None:
    """UNKNOWN is rejoined as UNAVAILABLE and INTERNAL are (some gRPC stacks and
    proxies end a lost stream so): the seat plays its match to the end."""
    faults = PlayFaults(cut_after_decisions=2, cut_code=grpc.StatusCode.UNKNOWN)
    outcome, relay, other = asyncio.run(_seat_through_relay(faults))
    assert isinstance(outcome, arena_pb2.MatchResult), outcome
    assert outcome == other, "both seats saw the same result"
    assert relay.play_calls == 2
