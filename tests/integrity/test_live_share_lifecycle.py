"""Every way a match on a server without an admin token comes and goes (made,
refused for bad options or a bad player count, played to its end, aborted at
the start timeout with nobody joined, its loop failed, suspended by a shutdown
and restored by the next start) gives its creator's live-match place back
once it is over, and ListMatches lists each match once, under its status, for
every filter, as a listing of every match one by one does, while the
registry's lists hold no match it no longer hosts."""

from __future__ import annotations

import asyncio
import itertools
import threading
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from clients.sdk import DecisionView
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.match import Match, Status
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import wait_until
from tests.integrity.raw_client import RawClient

GAME = "sheep-showdown"
OTHER = "stubborn-sheep"
START_TIMEOUT = 1.5


class _HeldBot(RandomBot):
    """A random bot whose first decision waits until it is released: its
    match stays running meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.deciding = threading.Event()
        self.released = asyncio.Event()  # set on the server's loop, where the bot plays

    async def decide(self, decision: DecisionView) -> int:  # type: ignore[override]
        self.deciding.set()
        await self.released.wait()
        return super().decide(decision)


def _config() -> ServerConfig:
    return ServerConfig(max_live_matches=8, start_timeout=START_TIMEOUT)


def _create_from(
    server: InProcessServer, source: str, request: arena_pb2.CreateMatchRequest
) -> str:
    """The id of the match a CreateMatch from loopback address `source` made,
    or "" when it was refused."""
    with RawClient(server.address, source) as client:
        (stream,) = client.call("Arena/CreateMatch", request)
        wait_until(lambda: stream in client.ended, what="CreateMatch's answer")
        answer = client.data[stream]
    if not answer:
        return ""
    return arena_pb2.CreateMatchResponse.FromString(answer[5:]).match_id


def _places(server: InProcessServer) -> tuple[int, int]:
    """The live-match places held, and the matches they are held for."""
    shares = server.server.arena.live_shares
    registry = server.server.registry

    async def read() -> tuple[int, int]:
        held_for = sum(1 for m in registry.all() if m.creator is not None and not m.over)
        return shares._held.total, held_for

    return server.run(read())


def _statuses(stub: arena_pb2_grpc.ArenaStub, ids: list[str]) -> list[arena_pb2.MatchInfo]:
    return [stub.GetMatch(arena_pb2.GetMatchRequest(match_id=i), timeout=10) for i in ids]


def _check_listings(server: InProcessServer, ids: list[str]) -> None:
    """Every filter's listing against the matches of `ids` read one by one.
    The matches nobody joins end at the start timeout, which may come while
    the listings are read: the comparison counts only when no match of `ids`
    changed its status meanwhile, and is made again otherwise."""
    with grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for _ in range(5):
            every = _statuses(stub, ids)
            listings = {}
            for game, status in itertools.product(("", GAME, OTHER), [None, *Status]):
                request = arena_pb2.ListMatchesRequest(game=game, limit=100)
                if status is not None:
                    request.status = status.value
                listings[game, status] = stub.ListMatches(request, timeout=10).matches
            if [info.status for info in _statuses(stub, ids)] == [i.status for i in every]:
                break
        else:
            pytest.fail(f"the matches {ids} changed their status during every reading")
        for (game, status), listed in listings.items():
            wanted = {
                info.match_id: info.status
                for info in every
                if (not game or info.game == game)
                and (status is None or info.status == status.value)
            }
            found = [info.match_id for info in listed]
            assert len(found) == len(set(found)), (game, status, found)
            assert {info.match_id: info.status for info in listed} == wanted, (game, status)
            times = [info.created_at for info in listed]
            assert times == sorted(times, reverse=True), (game, status)
    # Nothing left in the registry's lists of a match it no longer hosts.
    registry = server.server.registry

    async def hosted() -> tuple[set[str], set[str]]:
        listed = {m.record.match_id for m in registry._hosted.newest("", None, 10**6)}
        return listed, {m.record.match_id for m in registry.all()}

    listed, held = server.run(hosted())
    assert listed == held


def _running(server: InProcessServer) -> list[str]:
    registry = server.server.registry

    async def read() -> list[str]:
        return [m.record.match_id for m in registry.all() if m.status is Status.RUNNING]

    return server.run(read())


def test_every_place_comes_back_and_every_listing_agrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "server.db"
    squat = arena_pb2.CreateMatchRequest(game=GAME, players=2)
    other = arena_pb2.CreateMatchRequest(game=OTHER, players=2)
    ids: list[str] = []
    with InProcessServer(_config(), SqliteStore(database)) as server:
        ids += [_create_from(server, "127.0.0.2", squat) for _ in range(2)]
        ids.append(_create_from(server, "127.0.0.3", other))
        assert all(ids)
        assert _places(server) == (3, 3)
        bad_options = arena_pb2.CreateMatchRequest(game=GAME, players=2, options={"no": "such"})
        assert _create_from(server, "127.0.0.2", bad_options) == ""
        assert _create_from(server, "127.0.0.2", arena_pb2.CreateMatchRequest(game=GAME)) == ""
        assert _places(server) == (3, 3), "a refused create gives its place back"
        _check_listings(server, ids)
        bots = [_HeldBot(), _HeldBot()]
        playing = server.submit(play_match(server.address, GAME, bots, seed=1))
        wait_until(lambda: any(bot.deciding.is_set() for bot in bots), what="a decision")
        running = _running(server)
        assert len(running) == 1
        _check_listings(server, ids + running)

        async def release() -> None:
            for bot in bots:
                bot.released.set()

        server.run(release())
        ids.append(playing.result(60).match_id)
        assert ids[-1] == running[0]
        _check_listings(server, ids)
        wait_until(lambda: _places(server) == (0, 0), what="every match's end", timeout=30)
        _check_listings(server, ids)
        # One whose loop fails: aborted (and listed so), its place given back.
        with monkeypatch.context() as patched:

            async def fail(match: Match) -> None:
                raise RuntimeError("a bug in the match loop")

            patched.setattr(Match, "_run", fail)
            ids.append(_create_from(server, "127.0.0.3", other))
        wait_until(lambda: _places(server) == (0, 0), what="the failed loop's end")
        _check_listings(server, ids)
        # One suspended by the shutdown, restored by the next start.
        ids.append(_create_from(server, "127.0.0.2", squat))
        assert _places(server) == (1, 1)
    with InProcessServer(_config(), SqliteStore(database)) as server:
        assert _places(server) == (0, 0), "a restored match counts against nobody"
        _check_listings(server, ids)
        # The same address creates again, and it all ends once more.
        ids.append(_create_from(server, "127.0.0.2", squat))
        assert _places(server) == (1, 1)
        wait_until(lambda: _places(server) == (0, 0), what="every match's end", timeout=30)
        wait_until(lambda: not any(True for _ in server.server.registry.all()), what="drops")
        _check_listings(server, ids)
