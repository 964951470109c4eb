"""Abuse: every hostile or broken input gets its gRPC status, and the match it
was aimed at still finishes with a result the engine confirms.

(A second join on the same seat and joining a finished match are in
test_reconnect.py: ABORTED for the replaced stream, FAILED_PRECONDITION.)
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.seats import MatchLimits
from tests.integrity.helpers import (
    Case,
    assert_replay_reproduces_result,
    create_request,
    get_replay,
)
from tests.raw_stream import RawSeat
from tests.sockets import count_open

pytestmark = pytest.mark.e2e

CASE = Case("sheep-n-sheep", 2, {})
FIVE_MB = 5 * 1024 * 1024


@pytest.fixture
def server() -> Iterator[InProcessServer]:
    config = ServerConfig(limits=MatchLimits(max_rejected=50), join_timeout=0.5)
    with InProcessServer(config) as running:
        yield running


@pytest.fixture
def stub(server: InProcessServer) -> Iterator[arena_pb2_grpc.ArenaStub]:
    with grpc.insecure_channel(server.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


class Seats:
    """Both seats of a fresh match on raw streams."""

    def __init__(self, stub: arena_pb2_grpc.ArenaStub, seed: int) -> None:
        self.stub = stub
        self.created = stub.CreateMatch(create_request(CASE, seed))
        self.match_id = self.created.match_id
        self.raw = [RawSeat(stub), RawSeat(stub)]
        for seat, raw in enumerate(self.raw):
            raw.join(self.match_id, self.created.seat_tokens[seat])
            assert raw.next("joined").joined.seat == seat

    def rejoin(self, seat: int) -> RawSeat:
        self.raw[seat].close()
        self.raw[seat] = RawSeat(self.stub)
        self.raw[seat].join(self.match_id, self.created.seat_tokens[seat])
        assert self.raw[seat].next("joined", skip=("event",)).joined.seat == seat
        return self.raw[seat]

    def finish(
        self, server: InProcessServer, pending: dict[int, arena_pb2.Decision] | None = None
    ) -> None:
        """Both seats play to the end; the result must match the engine."""
        self.play_to_end(pending)
        self.check_replay(server)

    def play_to_end(
        self,
        pending: dict[int, arena_pb2.Decision] | None = None,
        *,
        answered: int | None = None,
        no_errors: bool = False,
    ) -> None:
        """Both seats play to the end, on the streams they have; both see one
        result (RawSeat.play_to_end says what `answered` and `no_errors` do)."""
        results: list[arena_pb2.MatchResult | None] = [None, None]

        def run(seat: int) -> None:
            first = (pending or {}).get(seat)
            results[seat] = self.raw[seat].play_to_end(
                first, answered=answered, no_errors=no_errors
            )

        threads = [threading.Thread(target=run, args=(seat,), daemon=True) for seat in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        for raw in self.raw:
            raw.close()
        assert results[0] is not None and results[0] == results[1], "the match finished"

    def check_replay(self, server: InProcessServer) -> None:
        """The stored match: nothing forced, and its replay reproduces its result."""
        replay = server.run(get_replay(server.address, self.match_id))
        assert not any(a.forced for a in replay.actions)
        assert_replay_reproduces_result(replay)


def _first_decision(seats: Seats) -> tuple[int, arena_pb2.Decision]:
    """The seat to move first and its decision."""
    info = seats.stub.GetMatch(arena_pb2.GetMatchRequest(match_id=seats.match_id))
    for _ in range(100):
        if info.HasField("to_move"):
            break
        time.sleep(0.01)
        info = seats.stub.GetMatch(arena_pb2.GetMatchRequest(match_id=seats.match_id))
    mover = info.to_move
    return mover, seats.raw[mover].next("decision").decision


def test_acting_out_of_turn_is_failed_precondition(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    seats = Seats(stub, 1)
    mover, decision = _first_decision(seats)
    other = 1 - mover
    seats.raw[other].answer(decision.decision_id, 0)  # the other seat answers the mover's decision
    error = seats.raw[other].next("error").error
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert f"not seat {other}'s turn" in error.message
    seats.finish(server, {mover: decision})


def test_acting_for_another_seat_is_refused(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    seats = Seats(stub, 2)
    other_match = stub.CreateMatch(create_request(CASE, 3))
    for join, code in [
        ({"token": seats.created.seat_tokens[1], "seat": 0}, grpc.StatusCode.PERMISSION_DENIED),
        ({"token": seats.created.seat_tokens[1], "seat": 7}, grpc.StatusCode.PERMISSION_DENIED),
        ({"token": seats.created.seat_tokens[1], "seat": -1}, grpc.StatusCode.PERMISSION_DENIED),
        ({"token": other_match.seat_tokens[0]}, grpc.StatusCode.UNAUTHENTICATED),
        ({"token": ""}, grpc.StatusCode.UNAUTHENTICATED),
    ]:
        intruder = RawSeat(stub)
        intruder.send(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=seats.match_id, **join)))
        assert intruder.status() == code, join
        intruder.close()
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=seats.match_id))
    assert all(seat.connected for seat in info.seats), "the real seats were not displaced"
    seats.finish(server)


def test_flooding_answers_applies_one_then_closes_the_stream(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    seats = Seats(stub, 4)
    mover, decision = _first_decision(seats)
    for _ in range(500):
        seats.raw[mover].answer(decision.decision_id, 0)
    assert seats.raw[mover].status() == grpc.StatusCode.RESOURCE_EXHAUSTED
    replay_moves = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=seats.match_id)).moves
    assert replay_moves <= 2, "500 copies of one answer applied it once, not 500 times"
    seats.rejoin(mover)
    pending = {}
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=seats.match_id))
    if info.to_move == mover:
        pending[mover] = seats.raw[mover].next("decision").decision
    seats.finish(server, pending)


def test_the_flood_limit_allows_max_rejected_refusals_and_closes_at_the_next(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """ "more than 50 rejected messages on this stream" (max_rejected is 50 here):
    50 refused answers leave the stream playing on; a 51st ends it. The test
    above sends 500 and would pass with the limit off by one either way."""
    seats = Seats(stub, 6)
    mover, decision = _first_decision(seats)
    for _ in range(50):
        seats.raw[mover].answer(decision.decision_id, len(decision.actions))
    for _ in range(50):
        error = seats.raw[mover].next("error", skip=("event", "decision")).error
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0], error
    # The stream that had 50 refused still takes an answer and plays to the end.
    # Copies of the refused decision sent again may still be queued on it: they
    # are not answered (an answer to a decision no longer open is refused too).
    seats.raw[mover].answer(decision.decision_id, 0)
    seats.play_to_end(answered=decision.decision_id, no_errors=True)
    seats.check_replay(server)

    flooded = Seats(stub, 7)
    mover, decision = _first_decision(flooded)
    for _ in range(51):
        flooded.raw[mover].answer(decision.decision_id, len(decision.actions))
    assert flooded.raw[mover].status() == grpc.StatusCode.RESOURCE_EXHAUSTED
    flooded.rejoin(mover)
    flooded.finish(server, {mover: flooded.raw[mover].next("decision").decision})


def test_huge_messages_are_resource_exhausted(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    with pytest.raises(grpc.RpcError) as create:
        stub.CreateMatch(
            arena_pb2.CreateMatchRequest(
                game="sheep-n-sheep", players=2, options={"x": "y" * FIVE_MB}
            )
        )
    assert create.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED

    seats = Seats(stub, 5)
    mover, decision = _first_decision(seats)
    seats.raw[mover].send(
        arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=seats.match_id, token="t" * FIVE_MB))
    )
    assert seats.raw[mover].status() == grpc.StatusCode.RESOURCE_EXHAUSTED
    # Large but within the request bound: an ordinary refusal.
    big = RawSeat(stub)
    big.join(seats.match_id, "t" * 8_000)
    assert big.status() == grpc.StatusCode.UNAUTHENTICATED
    big.close()
    seats.rejoin(mover)
    again = seats.raw[mover].next("decision").decision
    assert again.decision_id == decision.decision_id
    seats.finish(server, {mover: again})


def _http2_frame_types(data: bytes) -> list[int]:
    types, offset = [], 0
    while offset + 9 <= len(data):
        length = struct.unpack(">I", b"\x00" + data[offset : offset + 3])[0]
        types.append(data[offset + 3])
        offset += 9 + length
    return types


def test_garbage_bytes_on_the_port_close_that_connection_only(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    seats = Seats(stub, 6)
    mover, decision = _first_decision(seats)
    host, port = server.address.rsplit(":", 1)
    for payload in (
        os.urandom(64 * 1024),
        b"GET / HTTP/1.1\r\nHost: sheepfold\r\n\r\n",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + os.urandom(4096),
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(500),  # a TLS hello
    ):
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            with contextlib.suppress(OSError):  # the server may close before reading it all
                raw.sendall(payload)
            received = b""
            while chunk := raw.recv(65536):
                received += chunk
        # Closed by the server; all it sent were HTTP/2 SETTINGS / WINDOW_UPDATE frames.
        assert set(_http2_frame_types(received)) <= {0x4, 0x8, 0x7}, received
    health = health_pb2_grpc.HealthStub(grpc.insecure_channel(server.address))
    assert (
        health.Check(health_pb2.HealthCheckRequest()).status
        == health_pb2.HealthCheckResponse.SERVING
    )
    seats.finish(server, {mover: decision})


@pytest.mark.parametrize("which", ["main port", "health port"])
@pytest.mark.parametrize(
    "opening",
    [b"", b"PRI * HTTP/2.0\r\n", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"],
    ids=["nothing", "half a preface", "a preface without SETTINGS"],
)
def test_a_connection_that_never_finishes_its_handshake_is_closed(
    opening: bytes, which: str
) -> None:
    """Opened and left silent, a connection holds server memory: it is closed once
    the handshake timeout passes (gRPC alone waits 60 s), and the server serves on."""
    config = ServerConfig(handshake_timeout=1.0, health_port=0)
    with InProcessServer(config) as running:
        port = running.server.port if which == "main port" else running.server.health_port
        assert port
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(opening)
            started = time.monotonic()
            while raw.recv(65536):  # SETTINGS frames may come first
                pass
            waited = time.monotonic() - started
        assert 0.5 < waited < 5, waited
        health = health_pb2_grpc.HealthStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
        assert (
            health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
            == health_pb2.HealthCheckResponse.SERVING
        )


def test_a_flood_of_connections_is_held_to_the_bound_and_the_match_goes_on() -> None:
    """One client opening connection after connection could take every file
    descriptor the server may open, and then nobody could connect; the server
    holds at most `max_connections` and closes the rest as they arrive."""
    bound = 6
    config = ServerConfig(max_connections=bound, health_port=0)
    with InProcessServer(config) as running, grpc.insecure_channel(running.address) as channel:
        seats = Seats(arena_pb2_grpc.ArenaStub(channel), 8)  # one connection of the bound
        mover, decision = _first_decision(seats)
        flood = [
            socket.create_connection(("127.0.0.1", running.server.port), timeout=10)
            for _ in range(4 * bound)
        ]
        try:
            for connection in flood:
                connection.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\0\0\0\4\0\0\0\0\0")
            time.sleep(1.0)
            kept = count_open(flood)
            assert 1 <= kept <= bound - 1, kept
            health = health_pb2_grpc.HealthStub(
                grpc.insecure_channel(f"127.0.0.1:{running.server.health_port}")
            )
            assert (
                health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
                == health_pb2.HealthCheckResponse.SERVING
            )
            seats.play_to_end({mover: decision})  # on the connection it already had
        finally:
            for connection in flood:
                connection.close()
        # Once the flood has gone, newcomers connect again.
        with grpc.insecure_channel(running.address) as newcomer:
            listed = arena_pb2_grpc.ArenaStub(newcomer).ListGames(
                arena_pb2.ListGamesRequest(), timeout=10, wait_for_ready=True
            )
            assert listed.games
        seats.check_replay(running)


def test_a_stream_that_never_joins_is_closed(stub: arena_pb2_grpc.ArenaStub) -> None:
    idle = RawSeat(stub)
    started = time.monotonic()
    assert idle.status() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - started < 5
    idle.close()


def test_answers_before_joining_and_joins_after_joining_are_refused(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    early = RawSeat(stub)
    early.answer(1, 0)
    assert early.status() == grpc.StatusCode.INVALID_ARGUMENT
    early.close()
    seats = Seats(stub, 7)
    mover, decision = _first_decision(seats)
    seats.raw[mover].join(seats.match_id, seats.created.seat_tokens[mover])
    assert seats.raw[mover].next("error").error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    seats.finish(server, {mover: decision})


@pytest.mark.parametrize(
    ("fields", "code", "text"),
    [
        ({"game": "sheep-n-sheep", "players": 2**31 - 1}, "INVALID_ARGUMENT", "players"),
        ({"game": "sheep-n-sheep", "players": -3}, "INVALID_ARGUMENT", "players"),
        ({"game": "", "players": 2}, "INVALID_ARGUMENT", "unknown game"),
        ({"game": "sheep-n-sheep", "players": 2, "seed": 2**64 - 1}, "OK", ""),
    ],
)
def test_create_match_bounds(
    stub: arena_pb2_grpc.ArenaStub, fields: dict, code: str, text: str
) -> None:
    started = time.monotonic()
    try:
        response = stub.CreateMatch(arena_pb2.CreateMatchRequest(**fields), timeout=5)
    except grpc.RpcError as error:
        assert error.code().name == code
        assert text in error.details()
    else:
        assert code == "OK"
        assert response.seed == fields["seed"]
    assert time.monotonic() - started < 2, "refused at once, without work per seat"


def test_limits_on_live_matches_and_listing() -> None:
    with (
        InProcessServer(ServerConfig(max_live_matches=1)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        stub.CreateMatch(create_request(CASE, 1))
        with pytest.raises(grpc.RpcError) as caught:
            stub.CreateMatch(create_request(CASE, 2))
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        for request, said in (
            # The value as sent, and what it may be: "must not be negative" alone
            # did not show what was sent.
            (arena_pb2.ListMatchesRequest(limit=-1), "or more, not -1"),
            (arena_pb2.ListMatchesRequest(status=99), "unknown match status 99"),
        ):
            with pytest.raises(grpc.RpcError) as bad:
                stub.ListMatches(request)
            assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert said in (bad.value.details() or ""), bad.value.details()
        with pytest.raises(grpc.RpcError) as missing:
            stub.GetMatch(arena_pb2.GetMatchRequest(match_id="nope"))
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        server.server.registry.accepting = False  # what SIGTERM does first
        with pytest.raises(grpc.RpcError) as closing:
            stub.CreateMatch(create_request(CASE, 3))
        assert closing.value.code() == grpc.StatusCode.UNAVAILABLE
