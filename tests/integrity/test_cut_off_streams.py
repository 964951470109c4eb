"""Streams cut off for not reading stay open until their client reads or goes
(gRPC cannot reset them), each holding what was written to it. A client that
watched, stalled, was cut off and did it again grew the server without bound
(9,600 such Watch streams held 140 MB). An address holding too many is refused
new Play and Watch streams until it reads them or closes them; other addresses
are served as before."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import Case, wait_until
from tests.integrity.test_finished_matches import _played
from tests.stream_flood import END_HEADERS, HEADERS, PREFACE, SETTINGS, frame, request_headers

pytestmark = pytest.mark.e2e

DATA, RST_STREAM, PING = 0, 3, 6
END_STREAM, ACK = 1, 1
INITIAL_WINDOW_SIZE = 4
CANCEL = (8).to_bytes(4, "big")
HELD = 3


class StalledWatches:
    """A connection whose streams' windows stay at zero: the server can write
    nothing to them. It acknowledges the server's settings and pings, as a
    live client does, so the server keeps it."""

    def __init__(self, address: str) -> None:
        if address.startswith("unix:"):
            self._socket = socket.socket(socket.AF_UNIX)
            self._socket.connect(address.removeprefix("unix:"))
        else:
            host, _, port = address.rpartition(":")
            self._socket = socket.create_connection((host, int(port)))
        self._lock = threading.Lock()
        window_zero = INITIAL_WINDOW_SIZE.to_bytes(2, "big") + (0).to_bytes(4, "big")
        self._send(PREFACE + frame(SETTINGS, 0, 0, window_zero))
        self._next_stream = 1
        self._reader = threading.Thread(target=self._answer, daemon=True)
        self._reader.start()

    def watch(self, match_id: str) -> int:
        body = arena_pb2.WatchRequest(match_id=match_id, from_start=True).SerializeToString()
        stream, self._next_stream = self._next_stream, self._next_stream + 2
        message = b"\x00" + len(body).to_bytes(4, "big") + body
        self._send(
            frame(HEADERS, END_HEADERS, stream, request_headers(b"/sheepfold.v1.Arena/Watch"))
            + frame(DATA, END_STREAM, stream, message)
        )
        return stream

    def reset(self, stream: int) -> None:
        self._send(frame(RST_STREAM, 0, stream, CANCEL))

    def close(self) -> None:
        self._socket.shutdown(socket.SHUT_RDWR)
        self._reader.join(timeout=10)
        self._socket.close()

    def _send(self, data: bytes) -> None:
        with self._lock:
            self._socket.sendall(data)

    def _answer(self) -> None:
        received = b""
        try:
            while chunk := self._socket.recv(65536):
                received += chunk
                while len(received) >= 9 and len(received) >= 9 + (
                    size := int.from_bytes(received[:3], "big")
                ):
                    kind, flags, payload = received[3], received[4], received[9 : 9 + size]
                    received = received[9 + size :]
                    if kind in (SETTINGS, PING) and not flags & ACK:
                        self._send(frame(kind, ACK, 0, payload if kind == PING else b""))
        except OSError:
            pass


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
        stalled = StalledWatches(server.address)
        try:
            streams = [stalled.watch(match_id) for _ in range(HELD)]
            wait_until(lambda: server.server.stalls.cancelled == HELD)
            # Its address is refused new streams; another (a Unix socket) is not.
            assert _watch(server.address, match_id) == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _join(server.address) == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _watch(unix, match_id) == grpc.StatusCode.OK
            # A stream it resets is one less held.
            stalled.reset(streams[0])
            wait_until(lambda: _watch(server.address, match_id) == grpc.StatusCode.OK)
            stalled.watch(match_id)
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
        stalled = StalledWatches(mine)
        try:
            for _ in range(HELD):
                stalled.watch(match_id)
            wait_until(lambda: server.server.stalls.cancelled == HELD)
            assert _watch(mine, match_id) == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _watch(other, match_id) == grpc.StatusCode.OK
            assert _watch(server.address, match_id) == grpc.StatusCode.OK
        finally:
            stalled.close()
