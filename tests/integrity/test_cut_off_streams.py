"""Streams cut off for not reading stay open until their client reads or goes
(gRPC cannot reset them), each holding what was written to it. A client that
watched, stalled, was cut off and did it again grew the server without bound
(9,600 such Watch streams held 140 MB). An address holding too many is refused
new Play and Watch streams until it reads them or closes them; other addresses
are served as before."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import Case, wait_until
from tests.integrity.raw_client import RawClient
from tests.integrity.test_finished_matches import _played

pytestmark = pytest.mark.e2e

HELD = 3


def _stalled_watch(client: RawClient, match_id: str) -> int:
    """A Watch of `match_id` from its start on `client`, which reads nothing."""
    request = arena_pb2.WatchRequest(match_id=match_id, from_start=True)
    [stream] = client.call("Arena/Watch", request)
    return stream


def _watch(address: str, match_id: str) -> grpc.StatusCode:
    request = arena_pb2.WatchRequest(match_id=match_id)
    with grpc.insecure_channel(address) as channel:
        try:
            list(arena_pb2_grpc.ArenaStub(channel).Watch(request, timeout=10))
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                assert "cut off for reading nothing" in (error.details() or "")
            return error.code()
        return grpc.StatusCode.OK


def _join(address: str) -> grpc.StatusCode:
    with grpc.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="stubborn-sheep", players=1), timeout=10
        )
        join = arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
        stream = stub.Play(iter([arena_pb2.PlayRequest(join=join)]), timeout=10)
        try:
            next(stream)
        except grpc.RpcError as error:
            return error.code()
        finally:
            stream.cancel()
        return grpc.StatusCode.OK


def test_an_address_holding_streams_cut_off_is_refused_more(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    match_id, _ = _played(db, Case("stubborn-sheep", 5, {}), seed=4)
    unix = f"unix:{tmp_path / 'arena.sock'}"
    config = ServerConfig(
        listen=("127.0.0.1:0", unix),
        write_stall_seconds=0.5,
        max_cut_off_streams_per_address=HELD,
    )
    with InProcessServer(config, SqliteStore(db)) as server:
        stalled = RawClient(server.address, reads=False)
        try:
            streams = [_stalled_watch(stalled, match_id) for _ in range(HELD)]
            wait_until(lambda: server.server.stalls.cancelled == HELD)
            # Its address is refused new streams; another (a Unix socket) is not.
            assert _watch(server.address, match_id) == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _join(server.address) == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _watch(unix, match_id) == grpc.StatusCode.OK
            # A stream it resets is one less held.
            stalled.reset(streams[0])
            wait_until(lambda: _watch(server.address, match_id) == grpc.StatusCode.OK)
            _stalled_watch(stalled, match_id)
            wait_until(lambda: server.server.stalls.cancelled == HELD + 1)
            assert _watch(server.address, match_id) == grpc.StatusCode.RESOURCE_EXHAUSTED
        finally:
            stalled.close()
        # Its connection gone, its streams end and the address is served again.
        wait_until(lambda: _watch(server.address, match_id) == grpc.StatusCode.OK)
        assert _join(server.address) == grpc.StatusCode.OK


def test_each_bot_socket_counts_its_own(tmp_path: Path) -> None:
    """Every Unix socket client is one address: counted on one server for all
    the sockets, a bot holding streams cut off would shut out every other."""
    db = tmp_path / "f.db"
    match_id, _ = _played(db, Case("stubborn-sheep", 5, {}), seed=4)
    mine, other = (f"unix:{tmp_path / name}" for name in ("a.sock", "b.sock"))
    config = ServerConfig(
        bot_sockets=(mine, other), write_stall_seconds=0.5, max_cut_off_streams_per_address=HELD
    )
    with InProcessServer(config, SqliteStore(db)) as server:
        stalled = RawClient(mine, reads=False)
        try:
            for _ in range(HELD):
                _stalled_watch(stalled, match_id)
            wait_until(lambda: server.server.stalls.cancelled == HELD)
            assert _watch(mine, match_id) == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _watch(other, match_id) == grpc.StatusCode.OK
            assert _watch(server.address, match_id) == grpc.StatusCode.OK
        finally:
            stalled.close()


# Addresses of a client with many (IPv6, a botnet; on loopback any 127.x.y.z).
FLOODERS = [f"127.0.0.{number}" for number in range(2, 8)]
CAP = 4  # the server's cap, from every address together


def test_many_addresses_together_are_bounded_and_a_light_client_still_watches(
    tmp_path: Path,
) -> None:
    """Each address within its own bound, six addresses once held 18 streams
    cut off (any number with more addresses). Past the server's cap each
    address is refused once it holds its share; an address holding none, such
    as a spectator who reads, still watches."""
    db = tmp_path / "f.db"
    match_id, _ = _played(db, Case("stubborn-sheep", 5, {}), seed=4)
    config = ServerConfig(
        listen=("127.0.0.1:0",),
        write_stall_seconds=0.5,
        max_cut_off_streams_per_address=HELD,
        max_cut_off_streams=CAP,
    )
    with InProcessServer(config, SqliteStore(db)) as server:
        floods = [RawClient(server.address, source, reads=False) for source in FLOODERS]
        try:
            for rounds in range(1, HELD + 1):
                for flood in floods:
                    _stalled_watch(flood, match_id)
                # Every stream is cut off or refused (the server ends it at once).
                wait_until(
                    lambda rounds=rounds: (
                        server.server.stalls.cancelled + sum(len(flood.ended) for flood in floods)
                        == rounds * len(floods)
                    )
                )
            assert server.server.stalls.cancelled <= 2 * CAP  # not 6 x 3
            assert all(flood.ended for flood in floods), "every flooder is refused"
            # A client from another address (127.0.0.1) still watches.
            assert _watch(server.address, match_id) == grpc.StatusCode.OK
            assert _join(server.address) == grpc.StatusCode.OK
        finally:
            for flood in floods:
                flood.close()
        # Their connections gone, their streams end and they are served again.
        wait_until(lambda: _watched_from(server.address, FLOODERS[0], match_id))


def _watched_from(address: str, source: str, match_id: str) -> bool:
    """Whether a client from `source` that reads watches the match to its end."""
    with RawClient(address, source) as client:
        [stream] = client.call("Arena/Watch", arena_pb2.WatchRequest(match_id=match_id))
        wait_until(lambda: stream in client.ended)
        return bool(client.data[stream])
