"""On a server without an admin token, one client address's matches that
nobody played are bounded: a client creating matches in a loop and joining
none once grew the database by a row a match without end (each aborted at the
start timeout, and kept), and one joining a seat and leaving got each played
out by the clocks. A client that plays what it creates never meets it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import InProcessServer, serving_here
from server.match import Match
from server.records import ClockConfig, MatchRecord
from server.sqlite_store import SqliteStore
from server.unplayed import UnplayedMatches, creator
from tests.integrity.helpers import wait_until
from tests.sqlite_locks import write_locked

GAME = "sheep-showdown"


async def _create(
    address: str, admin_token: str = "", **clock: float
) -> arena_pb2.CreateMatchResponse:
    async with grpc.aio.insecure_channel(address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(
                game=GAME,
                players=2,
                admin_token=admin_token,
                clock=arena_pb2.ClockSettings(**clock),
            ),
            timeout=10,
        )


async def _refused(address: str) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _create(address)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    return caught.value.details() or ""


def test_matches_nobody_joins_are_bounded_per_address_once_aborted() -> None:
    async def scenario() -> None:
        config = ServerConfig(start_timeout=0.5, max_unplayed_matches_per_address=3)
        async with serving_here(config) as address:
            # Live ones do not count (the live-match bound holds them): twice
            # the bound at once are all created.
            made = [await _create(address) for _ in range(6)]
            assert len({m.match_id for m in made}) == 6
            # Aborted at the start timeout, they count: the rows stay.
            await asyncio.sleep(1.2)
            why = await _refused(address)
            assert "nobody played are at their bound (3 ended with no seat" in why, why

    asyncio.run(scenario())


async def _join_and_leave(address: str, match_id: str, token: str) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        call = arena_pb2_grpc.ArenaStub(channel).Play()
        await call.write(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token)))
        assert (await call.read()).WhichOneof("kind") == "joined"
        call.cancel()


def test_matches_joined_and_left_count_too_as_the_clocks_play_them_out() -> None:
    async def scenario() -> None:
        config = ServerConfig(start_timeout=0.3, max_unplayed_matches_per_address=2)
        async with serving_here(config) as address:
            for _ in range(2):
                created = await _create(address, decision_seconds=0.001, max_strikes=1)
                await _join_and_leave(address, created.match_id, created.seat_tokens[0])
            await asyncio.sleep(1.5)  # played out by the clocks, every move forced
            assert "nobody played" in await _refused(address)

    asyncio.run(scenario())


def test_matches_that_are_played_do_not_count() -> None:
    async def scenario() -> None:
        config = ServerConfig(start_timeout=5, max_unplayed_matches_per_address=2)
        async with serving_here(config) as address:
            for _ in range(4):  # twice the bound, each played to its end
                created = await _create(address)
                await asyncio.gather(
                    *(
                        play(RandomBot(seed=seat), address, created.match_id, token)
                        for seat, token in enumerate(created.seat_tokens)
                    )
                )

    asyncio.run(scenario())


def test_a_server_with_an_admin_token_has_no_such_bound() -> None:
    async def scenario() -> None:
        config = ServerConfig(admin_token="secret", max_unplayed_matches_per_address=1)
        async with serving_here(config) as address:
            for _ in range(3):
                await _create(address, admin_token="secret")

    asyncio.run(scenario())


class _Stub:
    """What the bound reads of a match."""

    def __init__(self, match_id: str) -> None:
        self.record = MatchRecord(match_id, GAME, 2, {}, 1, ClockConfig(), ("a", "b"), 0.0)
        self.answered = False
        self.creator: str | None = None


def _match(match_id: str) -> Match:
    return cast(Match, _Stub(match_id))


def test_only_ended_unanswered_ones_count_and_they_age_out() -> None:
    now = [0.0]
    bound = UnplayedMatches(limit=2, window=60.0, clock=lambda: now[0])
    matches = [_match(name) for name in "abcd"]
    for match in matches:
        match.creator = "ipv4:10.0.0.1"  # recorded as it is hosted
    assert bound.refusal("ipv4:10.0.0.1") is None, "live matches are not counted"
    matches[0].answered = True
    for match in matches[:3]:
        bound.ended(match)
    assert bound.refusal("ipv4:10.0.0.1") is not None, "two ended unanswered"
    assert bound.refusal("ipv4:10.0.0.2") is None, "another address has its own count"
    now[0] = 61.0
    assert bound.refusal("ipv4:10.0.0.1") is None, "the unplayed ones aged out"
    bound.ended(matches[3])
    assert bound.refusal("ipv4:10.0.0.1") is None, "one ended unanswered, below the bound"


def test_addresses_whose_unplayed_matches_aged_out_are_forgotten() -> None:
    """What is kept grows with the addresses seen over the last window, not
    with every address ever seen: 1,000 addresses, each with one match ended
    unplayed and never asking again, are forgotten at the first match that
    ends a window later."""
    now = [0.0]
    bound = UnplayedMatches(limit=2, window=60.0, clock=lambda: now[0])
    for n in range(1_000):
        match = _match(f"m{n}")
        match.creator = f"ipv4:10.0.{n // 250}.{n % 250}"
        bound.ended(match)
    assert len(bound._ended) == 1_000
    now[0] = 61.0
    last = _match("last")
    last.creator = "ipv4:10.9.9.9"
    bound.ended(last)
    assert list(bound._ended) == ["ipv4:10.9.9.9"]


def test_ipv6_clients_count_by_their_64_network() -> None:
    assert creator("ipv6:[2001:db8::1]:5000") == creator("ipv6:[2001:db8::ffff:1]:6000")
    assert creator("ipv6:[2001:db8::1]:5000") != creator("ipv6:[2001:db8:0:1::1]:5000")
    assert creator("ipv4:10.0.0.1:5000") == "ipv4:10.0.0.1"
    assert creator("unix:/tmp/sock") == "unix:/tmp/sock"


def test_a_match_whose_creator_left_while_the_database_was_locked_counts_too(
    tmp_path: Path,
) -> None:
    """A CreateMatch whose caller gives up while the row waits for a lock is
    still made (the writer thread writes it once the lock is gone) and hosted:
    it is its creator's all the same. Such a match once counted against no
    address, so a client that gave up on every create while the database was
    busy had matches nobody played made without bound."""
    db = tmp_path / "left.db"
    config = ServerConfig(start_timeout=0.3, max_unplayed_matches_per_address=1)
    request = arena_pb2.CreateMatchRequest(game=GAME, players=2)
    with (
        InProcessServer(config, SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        with write_locked(db), pytest.raises(grpc.RpcError) as left:
            stub.CreateMatch(request, timeout=0.5)
        assert left.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED

        def aborted() -> int:
            listing = stub.ListMatches(
                arena_pb2.ListMatchesRequest(status=arena_pb2.MATCH_STATUS_ABORTED)
            )
            return len(listing.matches)

        wait_until(lambda: aborted() == 1, what="the match its creator left to be aborted")
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateMatch(request, timeout=5)
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
