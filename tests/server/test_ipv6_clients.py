"""A hostile IPv6 client changing address within its /64 at every call.
Every bound per client address counts an IPv6 client by its /64 network (one
host is usually given a whole /64): the matches it created that nobody played
and its share of the live-match places, its watchers of a match and over the
server, its Play streams waiting to join, its health and reflection streams,
its unread answers and cut-off streams, its turn among the clients. gRPC
writes an IPv6 peer with its brackets percent-encoded ("ipv6:%5B::1%5D:5000"):
CreateMatch's bounds once took that for no IP address at all, and the others
counted every address on its own, so changing address got round them all."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, cast

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig, SheepfoldServer
from server.match import Match
from server.peers import peer_address
from server.seats import MatchLimits
from server.unplayed import UnplayedMatches, creator
from server.watch_places import WatchPlaces

pytestmark = pytest.mark.e2e


class Created(NamedTuple):
    peer: str  # as gRPC gave it to the server
    creator: str  # whom the server counted the match against


@pytest.fixture(scope="module")
def created_over_ipv6() -> Created:
    """A match created over IPv6 on a real server listening on ::1."""
    peers: list[str] = []

    def noting(peer: str) -> str:
        peers.append(peer)
        return creator(peer)

    async def scenario() -> str:
        config = dataclasses.replace(ServerConfig(), host="::1", port=0, listen=())
        server = SheepfoldServer(config)
        port = await server.start()
        try:
            async with grpc.aio.insecure_channel(f"[::1]:{port}") as channel:
                created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                    arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
                )
            match = server.registry.hosted(created.match_id)
            assert match is not None and match.creator is not None
            return match.creator
        finally:
            await server.stop("test over")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("server.match_creation.creator", noting)
        recorded = asyncio.run(scenario())
    (peer,) = peers
    return Created(peer, recorded)


def test_a_match_created_over_ipv6_counts_against_the_clients_64(
    created_over_ipv6: Created,
) -> None:
    assert re.fullmatch(r"ipv6:%5B::1%5D:\d+", created_over_ipv6.peer)  # gRPC's own spelling
    assert created_over_ipv6.creator == "ipv6:::/64"


def _spelled_as_grpc(created: Created) -> Callable[[str], str]:
    """A peer string for an IPv6 host, written as gRPC wrote `created.peer`."""
    port = created.peer.rsplit(":", 1)[1]
    return lambda host: f"ipv6:%5B{host}%5D:{port}"


def test_every_address_of_a_64_shares_one_bound_on_unplayed_matches(
    created_over_ipv6: Created,
) -> None:
    spelled_as_grpc = _spelled_as_grpc(created_over_ipv6)
    bound = UnplayedMatches(limit=2)
    for host in ("2001:db8::1", "2001:db8::ffff:2"):
        bound.ended(cast(Match, _Unplayed(creator(spelled_as_grpc(host)))))
    assert bound.refusal(creator(spelled_as_grpc("2001:db8::3"))) is not None
    assert bound.refusal(creator(spelled_as_grpc("2001:db8:0:1::1"))) is None, "another /64"
    # A link-local address keeps its zone, which gRPC percent-encodes too.
    assert creator("ipv6:%5Bfe80::1%25lo%5D:5000") == "ipv6:fe80::%lo/64"


@dataclass
class _Unplayed:
    """What the bound reads of a match that ended with no answer."""

    creator: str
    answered: bool = False


def test_one_64_cannot_take_every_watcher_place_of_a_match(created_over_ipv6: Created) -> None:
    """Counted address by address, seven addresses of one /64 took all 100
    places of a match."""
    spelled_as_grpc = _spelled_as_grpc(created_over_ipv6)
    places, limits = WatchPlaces(), MatchLimits()
    taken = 0
    for number in range(1, limits.max_watchers + 1):
        address = peer_address(spelled_as_grpc(f"2001:db8::{number:x}"))
        if places.refusal("m", address, limits) is not None:
            break
        places.take("m", address)
        taken += 1
    assert taken == limits.max_watchers_per_address
    assert places.refusal("m", peer_address(spelled_as_grpc("2001:db8:1::1")), limits) is None


def test_a_client_is_its_ipv4_address_its_ipv6_64_or_its_socket() -> None:
    assert peer_address("ipv4:10.0.0.1:5000") == "ipv4:10.0.0.1"
    assert peer_address("ipv6:%5B2001:db8::1%5D:5000") == "ipv6:2001:db8::/64"
    assert peer_address("ipv6:%5B::ffff:10.0.0.1%5D:5000") == "ipv4:10.0.0.1"
    assert peer_address("unix:") == "unix:"
    assert peer_address("ipv6:%5Bnot-an-address%5D:5000") == "ipv6:not-an-address"
