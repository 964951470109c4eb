"""On a server without an admin token, live-match places are shared between
the client addresses creating matches: one client creating
`--max-live-matches` matches with long clocks and playing none once held every
place for days, everyone else refused. Past half full, an address holding its
share is refused; another address still gets in."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import cast

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.live_share import LiveShares
from server.match import Match
from server.records import ClockConfig, MatchRecord
from server.storage import StoreWorker
from tests.integrity.helpers import wait_until
from tests.integrity.raw_client import RawClient

GAME = "sheep-showdown"
PLACES = 8  # --max-live-matches; half of them are shared out
SQUAT = arena_pb2.CreateMatchRequest(
    game=GAME,
    players=2,
    clock=arena_pb2.ClockSettings(decision_seconds=3600, max_strikes=1000),
)


def _config(**more: object) -> ServerConfig:
    return ServerConfig(max_live_matches=PLACES, start_timeout=600, **more)  # type: ignore[arg-type]


def _created_from(server: InProcessServer, source: str) -> bool:
    """Whether a CreateMatch from loopback address `source` made a match."""
    with RawClient(server.address, source) as client:
        (stream,) = client.call("Arena/CreateMatch", SQUAT)
        wait_until(lambda: stream in client.ended, what="CreateMatch's answer")
        return bool(client.data[stream])


def _squat(stub: arena_pb2_grpc.ArenaStub, admin_token: str = "") -> tuple[int, str]:
    """Create matches until refused: how many were made, and why the next was not."""
    request = arena_pb2.CreateMatchRequest()
    request.CopyFrom(SQUAT)
    request.admin_token = admin_token
    made = 0
    while made <= PLACES:
        try:
            stub.CreateMatch(request, timeout=10)
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
            return made, error.details() or ""
        made += 1
    raise AssertionError("created past --max-live-matches")


def test_a_squatter_leaves_places_for_another_address() -> None:
    with (
        InProcessServer(_config()) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        made, why = _squat(arena_pb2_grpc.ArenaStub(channel))  # from 127.0.0.1
        assert made == PLACES // 2
        assert why == (
            "the server is crowded (4 of its 8 live-match places are taken) and this "
            "address holds its share of them (4); try again once some of its matches "
            "have ended"
        )
        assert _created_from(server, "127.0.0.2")
        assert _created_from(server, "127.0.0.3")


def test_addresses_creating_alike_all_get_in_up_to_the_cap() -> None:
    with InProcessServer(_config()) as server:
        sources = ["127.0.0.2", "127.0.0.3"]
        made = {source: 0 for source in sources}
        for _ in range(PLACES):
            for source in sources:
                made[source] += _created_from(server, source)
        assert made == {source: PLACES // 4 for source in sources}
        # A newcomer, holding nothing, still gets in.
        assert _created_from(server, "127.0.0.4")


def test_a_server_with_an_admin_token_shares_nothing_out() -> None:
    with (
        InProcessServer(_config(admin_token="secret")) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        made, why = _squat(arena_pb2_grpc.ArenaStub(channel), admin_token="secret")
        assert (made, why) == (PLACES, f"the server already hosts {PLACES} live matches")


class _Stub:
    def __init__(self, match_id: str) -> None:
        self.record = MatchRecord(match_id, GAME, 2, {}, 1, ClockConfig(), ("a", "b"), 0.0)


def test_a_place_is_held_from_the_create_to_the_match_end() -> None:
    shares = LiveShares(4)  # two shared out
    here, there = "ipv4:10.0.0.1", "ipv4:10.0.0.2"
    first = cast(Match, _Stub("first"))
    hosted, _ = shares.place(here)
    assert shares.held(here) == 1, "counted while its create waits"
    hosted(first)
    _, given_up = shares.place(here)
    given_up()
    assert shares.held(here) == 1, "a failed create gives its place back"
    # A create its caller gave up on, hosted later all the same, holds its place throughout.
    late = cast(Match, _Stub("late"))
    hosted_late, _ = shares.place(here)
    assert shares.held(here) == 2
    hosted_late(late)
    assert shares.held(here) == 2
    assert shares.refusal(here) is not None
    assert shares.refusal(there) is None
    shares.ended(first)
    shares.ended(late)
    assert shares.held(here) == 0
    assert shares.refusal(here) is None


def test_creates_given_up_while_the_database_is_locked_count_as_they_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A create whose caller gives up while its row waits for a locked database
    is still made once the lock goes: its place must stay taken meanwhile, or
    one address cancelling each create took every place past its share."""
    unlocked = threading.Event()

    quick = StoreWorker.create_match_now

    def locked(store: StoreWorker, record: MatchRecord) -> bool:
        return unlocked.is_set() and quick(store, record)

    async def slow_write(store: StoreWorker, record: MatchRecord) -> None:
        while not unlocked.is_set():
            await asyncio.sleep(0.01)
        store.store.create_match(record)

    monkeypatch.setattr(StoreWorker, "create_match_now", locked)
    monkeypatch.setattr(StoreWorker, "create_match", slow_write)
    with InProcessServer(_config()) as server, RawClient(server.address, "127.0.0.2") as client:
        registry = server.server.registry
        for made in range(PLACES):
            (stream,) = client.call("Arena/CreateMatch", SQUAT)
            wait_until(
                lambda stream=stream, made=made: (
                    stream in client.ended or registry._creating > made
                ),
                what="a write",
            )
            if stream in client.ended:
                break  # refused
            client.reset(stream)
            time.sleep(0.3)  # for the server to see it go
        unlocked.set()
        wait_until(lambda: registry._creating == 0, what="the writes")
        assert sum(1 for _ in registry.all()) == PLACES // 2
        assert server.server.arena.live_shares.held("ipv4:127.0.0.2") == PLACES // 2


@pytest.mark.parametrize("places", [3, 5, 8])
def test_every_place_is_reachable_with_an_odd_cap_too(places: int) -> None:
    # Half of an odd count was rounded down: the ceiling (twice the half) fell
    # one short of the places, and the last one went to nobody, refused with
    # "already hosts 3 live matches" while two were hosted.
    shares = LiveShares(places)
    made = 0
    for address in (f"10.0.0.{n}" for n in range(1, places + 2)):
        while shares.refusal(address) is None:  # each address as many as it may
            shares.place(address)
            made += 1
    assert made == places
    assert shares.refusal("10.0.1.1") == f"the server already hosts {places:,} live matches"
