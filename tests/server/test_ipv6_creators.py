"""A hostile IPv6 client creating matches from one address of its /64 after
another. On a server without an admin token a client's matches nobody plays,
and its share of the live-match places, are counted per address, an IPv6 one
by its /64 network (one host is usually given a whole /64). gRPC writes an
IPv6 peer with its brackets percent-encoded ("ipv6:%5B::1%5D:5000"), which the
count once took for no IP address at all: each address of a /64 counted as a
client of its own, so changing address got round both bounds."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import socket
from dataclasses import dataclass
from typing import NamedTuple, cast

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig, SheepfoldServer
from server.match import Match
from server.unplayed import UnplayedMatches, creator

pytestmark = pytest.mark.e2e


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


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

    if not _ipv6_loopback():
        pytest.skip("no IPv6 loopback here")
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


def test_every_address_of_a_64_shares_one_bound_on_unplayed_matches(
    created_over_ipv6: Created,
) -> None:
    port = created_over_ipv6.peer.rsplit(":", 1)[1]

    def spelled_as_grpc(host: str) -> str:
        return f"ipv6:%5B{host}%5D:{port}"

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
