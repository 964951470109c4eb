"""A client that asks and never reads the answers (its HTTP/2 window left at
zero) is refused further calls once its unread answers pass a bound; other
addresses are served as before, and it is served again once it reads or
closes. Without the bound every answer stayed in the server's memory until
the client closed its connection: 600 MB in 70 s from one client."""

from __future__ import annotations

import socket
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.integrity.helpers import wait_until
from tests.integrity.raw_client import RawClient
from tests.stream_flood import END_HEADERS, HEADERS, PREFACE, SETTINGS, frame, request_headers

pytestmark = pytest.mark.e2e

DATA, END_STREAM = 0, 1
INITIAL_WINDOW_SIZE = 4


def _unread_calls(address: str, calls: int) -> socket.socket:
    """A connection that asks ListGames `calls` times with a stream window of zero:
    the server can send none of the answers."""
    host, _, port = address.rpartition(":")
    connection = socket.create_connection((host, int(port)))
    empty_request = b"\x00" + (0).to_bytes(4, "big")
    window_zero = INITIAL_WINDOW_SIZE.to_bytes(2, "big") + (0).to_bytes(4, "big")
    out = PREFACE + frame(SETTINGS, 0, 0, window_zero)
    list_games = request_headers(b"/sheepfold.v1.Arena/ListGames")
    for stream in range(1, 2 * calls, 2):
        out += frame(HEADERS, END_HEADERS, stream, list_games)
        out += frame(DATA, END_STREAM, stream, empty_request)
    connection.sendall(out)
    return connection


def _list_games(address: str) -> grpc.StatusCode:
    with grpc.insecure_channel(address) as channel:
        try:
            arena_pb2_grpc.ArenaStub(channel).ListGames(arena_pb2.ListGamesRequest(), timeout=10)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                assert "has not read the answers" in (error.details() or "")
            return error.code()
        return grpc.StatusCode.OK


@pytest.mark.parametrize("bound", ["bytes", "calls"])
def test_an_address_that_reads_no_answers_is_refused_more_calls(tmp_path: Path, bound: str) -> None:
    limits = (
        {"max_unread_bytes_per_address": 20_000}
        if bound == "bytes"
        else {"max_unread_calls_per_address": 10}
    )
    unix = f"unix:{tmp_path / 'arena.sock'}"
    config = ServerConfig(listen=("127.0.0.1:0", unix), **limits)
    with InProcessServer(config) as server:
        assert _list_games(server.address) == grpc.StatusCode.OK
        stalled = _unread_calls(server.address, 200)
        try:
            # Its own address is refused; another (here a Unix socket) is not.
            wait_until(lambda: _list_games(server.address) == grpc.StatusCode.RESOURCE_EXHAUSTED)
            assert _list_games(unix) == grpc.StatusCode.OK
        finally:
            stalled.close()
        # Its connection gone, its answers are freed and the address served again.
        wait_until(lambda: _list_games(server.address) == grpc.StatusCode.OK)


# Addresses of a client with many (IPv6, a botnet; on loopback any 127.x.y.z).
FLOODERS = [f"127.0.0.{number}" for number in range(2, 10)]
ASKED = 60  # by each flooder, more than its own bound lets it hold


@pytest.mark.parametrize("bound", ["bytes", "calls"])
def test_many_addresses_together_are_bounded_and_a_light_client_is_still_answered(
    bound: str,
) -> None:
    """Each address within its own bound, eight addresses held eight times as
    much, and any number of addresses any multiple. Past the server's cap each
    address is refused once it holds its share, and at twice the cap every
    address; a client holding none, such as one that reads, is answered."""
    per_address, cap = (20_000, 40_000) if bound == "bytes" else (20, 40)
    limits = (
        {"max_unread_bytes_per_address": per_address, "max_unread_bytes": cap}
        if bound == "bytes"
        else {"max_unread_calls_per_address": per_address, "max_unread_calls": cap}
    )
    config = ServerConfig(listen=("127.0.0.1:0",), **limits)
    with InProcessServer(config) as server:
        answer = len(_answer_from(server, "127.0.0.1"))  # 551 bytes; 60 of them pass 20,000
        floods = [RawClient(server.address, source, reads=False) for source in FLOODERS]
        try:
            for flood in floods:
                flood.call("Arena/ListGames", arena_pb2.ListGamesRequest(), times=ASKED)
            # Each call is let in (its answer waits unread) or refused.
            wait_until(lambda: all(len(flood.headed) == ASKED for flood in floods))
            held = sum(flood.held() for flood in floods) * (answer if bound == "bytes" else 1)
            assert held <= 2 * cap, f"{held} held: 8 x {per_address} without a bound in all"
            assert all(flood.ended for flood in floods), "every flooder is refused"
            # Clients from other addresses are answered.
            assert _list_games(server.address) == grpc.StatusCode.OK  # 127.0.0.1
            for _ in range(3):
                assert _answer_from(server, "127.0.0.200")
        finally:
            for flood in floods:
                flood.close()
        # Their connections gone, their answers are freed and they are served again.
        wait_until(lambda: bool(_answer_from(server, FLOODERS[0])))


def _answer_from(server: InProcessServer, source: str) -> bytes:
    """ListGames' answer to a client from `source` that reads (b"" if refused)."""
    with RawClient(server.address, source) as client:
        [stream] = client.call("Arena/ListGames", arena_pb2.ListGamesRequest())
        wait_until(lambda: stream in client.ended)
        data = client.data[stream]
    if data:
        assert arena_pb2.ListGamesResponse.FromString(data[5:]).games
    return data[5:]
