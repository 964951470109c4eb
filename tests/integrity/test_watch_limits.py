"""Watch on any match, finished ones too, is capped at --max-watchers, and the
history a watcher asks for is served from one copy per match: a watcher is a
position in it, not a queue of its own."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.app import ServerConfig
from server.client_limits import MatchLimits
from server.inprocess import InProcessServer
from server.match import Match
from server.records import ClockConfig, MatchRecord, RecordedMove
from server.store import MemoryStore
from tests.conftest import ServerProcess, start_server_process, stop_server_process
from tests.integrity.helpers import expected_watch_stream, get_replay

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    running = start_server_process("--max-watchers", "3")
    try:
        yield running
    finally:
        assert stop_server_process(running) == 0


def test_a_finished_match_takes_no_more_than_max_watchers(server: ServerProcess) -> None:
    finished = asyncio.run(
        play_match(server.address, "sheep-and-garden", [RandomBot(s) for s in range(4)], seed=4)
    )
    expected = expected_watch_stream(asyncio.run(get_replay(server.address, finished.match_id)))
    request = arena_pb2.WatchRequest(match_id=finished.match_id, from_start=True)
    # A small receive window: otherwise the transport may take the whole history
    # at once and the server's side of a stream ends before the client reads it.
    options = [("grpc.http2.lookahead_bytes", 1024), ("grpc.http2.bdp_probe", 0)]
    with grpc.insecure_channel(server.address, options=options) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        # Three watchers that read one message and then stop reading hold the match.
        unread = [stub.Watch(request, timeout=30) for _ in range(3)]
        for call in unread:
            assert next(call) == expected[0]
        with pytest.raises(grpc.RpcError) as caught:
            next(stub.Watch(request, timeout=10))
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert caught.value.details() == "this match already has 3 watchers"
        # A reader that finishes frees its place; it saw the whole public match.
        assert [expected[0], *unread[0]] == expected
        for _ in range(100):
            try:
                assert list(stub.Watch(request, timeout=30)) == expected
                break
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                time.sleep(0.05)  # the server frees the place just after the stream ends
        else:
            raise AssertionError("the finished watcher's place never came free")
        for call in unread[1:]:
            call.cancel()


def test_watchers_share_one_copy_of_the_history() -> None:
    async def scenario() -> None:
        game = games.get("sheep-n-sheep")
        record = MatchRecord(
            match_id="m",
            game=game.name,
            players=2,
            options={},
            seed=5,
            clock=ClockConfig(),
            token_hashes=("a", "b"),
            created_at=0.0,
        )
        match = Match(record, game, MemoryStore())
        state = game.new_state(2, 5)
        moves = []
        for number in range(1, 21):
            seat = state.to_move
            assert seat is not None
            state.apply(state.legal_actions()[0])
            moves.append(RecordedMove(number, seat, 0, ""))
        match.replay(moves)
        first, second = match.watch(True), match.watch(True)
        assert first.log is second.log
        # Nothing is rebuilt when they come: the 20 moves before the shared log
        # are replayed for each as it reads.
        assert first.earlier_moves == second.earlier_moves == 20
        assert len(first.log.messages) == 1
        played = [arena_pb2.WatchResponse(event=arena_pb2.EventMessage(move=21)) for _ in range(49)]
        played.append(arena_pb2.WatchResponse(snapshot=arena_pb2.Snapshot(move=21)))
        match.spectators.played(lambda: played)  # a move, as the match gives it
        assert len(first.unread()) == 50
        assert all(a is b for a, b in zip(first.unread(), second.unread(), strict=True))
        latest = match.watch(False)
        assert [m.WhichOneof("kind") for m in latest.unread()] == ["snapshot"]
        assert latest.unread()[0] is first.unread()[-1]
        for watcher in (first, second, latest):
            match.unwatch(watcher)
        assert match.watch(True).log is not first.log, "rebuilt once nobody watched"

    asyncio.run(scenario())


def test_max_watchers_per_address_sets_what_one_client_may_hold_of_a_match() -> None:
    """For a server behind a proxy, where every spectator has the proxy's address."""
    server = start_server_process("--max-watchers-per-address", "2")
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(
                arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
            )
            request = arena_pb2.WatchRequest(match_id=created.match_id)
            held = [stub.Watch(request, timeout=30) for _ in range(2)]
            for call in held:
                assert next(call).HasField("snapshot")
            with pytest.raises(grpc.RpcError) as caught:
                next(stub.Watch(request, timeout=10))
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert caught.value.details() == "this address already has 2 watchers of this match"
            for call in held:
                call.cancel()
    finally:
        assert stop_server_process(server) == 0


def test_one_address_cannot_take_every_watch_place_on_the_server(tmp_path: Path) -> None:
    """Each match within its own bound per address, one client watching enough
    matches took every place the server has (16 watchers of each of 125
    matches: all 2,000), and every other spectator was refused. Now an address
    holds `--max-watch-streams-per-address` at most, and another address (here
    the Unix socket's) still watches."""
    socket = tmp_path / "s.sock"
    server = start_server_process(
        "--listen",
        "127.0.0.1:0",
        "--listen",
        f"unix:{socket}",
        "--max-watch-streams",
        "6",
        "--max-watch-streams-per-address",
        "4",
    )
    try:
        with (
            grpc.insecure_channel(server.address) as channel,
            grpc.insecure_channel(f"unix:{socket}") as other_channel,
        ):
            stub = arena_pb2_grpc.ArenaStub(channel)
            ids = [
                stub.CreateMatch(
                    arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
                ).match_id
                for _ in range(3)
            ]
            held = [
                stub.Watch(arena_pb2.WatchRequest(match_id=ids[i // 2]), timeout=30)
                for i in range(4)
            ]
            for call in held:
                assert next(call).HasField("snapshot")
            with pytest.raises(grpc.RpcError) as caught:
                next(stub.Watch(arena_pb2.WatchRequest(match_id=ids[2]), timeout=10))
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert caught.value.details() == "this address already has 4 watchers on this server"
            other = arena_pb2_grpc.ArenaStub(other_channel).Watch(
                arena_pb2.WatchRequest(match_id=ids[2]), timeout=30
            )
            assert next(other).HasField("snapshot")
            other.cancel()
            for call in held:
                call.cancel()
    finally:
        assert stop_server_process(server) == 0


@pytest.mark.parametrize(
    ("limits", "flag"),
    [
        ({"max_watchers": 0}, "--max-watchers 0"),
        ({"max_watch_streams": 0}, "--max-watch-streams 0"),
    ],
)
def test_a_server_that_takes_no_spectators_says_so_and_not_to_come_back(
    limits: dict[str, int], flag: str
) -> None:
    """A server started with no watcher places (`serve --max-watchers 0`) once
    refused every Watch RESOURCE_EXHAUSTED "this match already has 0 watchers":
    untrue of the match, and a status that tells a client to try again later
    (the web viewer answers it 503), when no later will do."""
    config = ServerConfig(limits=MatchLimits(**limits))
    with InProcessServer(config) as running, grpc.insecure_channel(running.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
        )
        for match_id in (created.match_id, "no-such-match"):
            with pytest.raises(grpc.RpcError) as caught:
                next(stub.Watch(arena_pb2.WatchRequest(match_id=match_id), timeout=10))
            assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert caught.value.details() == f"this server takes no spectators (serve {flag})"
