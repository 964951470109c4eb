"""A hostile client against a real `sheepfold serve` on loopback: answers at
the bounds of their fields, seats that half-close their Play stream at each
point, calls whose deadline has already passed when they arrive, and metadata
past what gRPC takes. Each gets the status meant for it, the match goes on for
the other seats, and the server logs no error for any of it."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf.message import Message
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import (
    ServerProcess,
    server_logging_no_fault,
)
from tests.raw_stream import RawSeat
from tests.stream_flood import END_HEADERS, HEADERS, PREFACE, SETTINGS, frame, request_headers

pytestmark = pytest.mark.e2e

GAME = "sheep-n-sheep"
ARENA = "/sheepfold.v1.Arena/"
DATA, END_STREAM = 0, 1
UINT64_MAX = 2**64 - 1
INT32_MAX, INT32_MIN = 2**31 - 1, -(2**31)


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    # Every attack here is a client's mistake: none may log an error or a traceback.
    with server_logging_no_fault("--start-timeout", "60") as server:
        yield server


@pytest.fixture
def stub(served: ServerProcess) -> Iterator[arena_pb2_grpc.ArenaStub]:
    with grpc.insecure_channel(served.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


def _create(
    stub: arena_pb2_grpc.ArenaStub, decision_seconds: float = 0.0, max_strikes: int = 0
) -> arena_pb2.CreateMatchResponse:
    clock = arena_pb2.ClockSettings(decision_seconds=decision_seconds, max_strikes=max_strikes)
    return stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game=GAME, players=2, seed=11, clock=clock)
    )


def _join(stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str) -> RawSeat:
    seat = RawSeat(stub)
    seat.join(match_id, token)
    seat.next("joined")
    return seat


def _in_background(seat: RawSeat) -> tuple[threading.Thread, list[arena_pb2.MatchResult]]:
    """`seat` answering 0 to every decision on a thread of its own, to the result."""
    results: list[arena_pb2.MatchResult] = []
    thread = threading.Thread(target=lambda: results.append(seat.play_to_end()), daemon=True)
    thread.start()
    return thread, results


def _info(stub: arena_pb2_grpc.ArenaStub, match_id: str) -> arena_pb2.MatchInfo:
    return stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))


def test_answers_at_the_bounds_of_their_fields_are_refused_and_echoed_exactly(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    """Decision ids at the ends of uint64 (past int64 too) are stale, and the
    PlayError names them exactly as sent; action indexes at the ends of int32
    are out of range and the decision comes again. The match then plays on."""
    created = _create(stub)
    seats = [_join(stub, created.match_id, token) for token in created.seat_tokens]
    mover = _info(stub, created.match_id).to_move
    decision = seats[mover].next("decision").decision
    for decision_id in (0, 2**63 - 1, 2**63, UINT64_MAX):
        seats[mover].answer(decision_id, 0)
        error = seats[mover].next("error").error
        assert error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0], error
        assert error.decision_id == decision_id
        assert error.message.startswith(f"stale decision id {decision_id};"), error.message
    for index in (INT32_MAX, INT32_MIN):
        seats[mover].answer(decision.decision_id, index)
        error = seats[mover].next("error").error
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0], error
        assert error.decision_id == decision.decision_id
        assert f"action index {index} is out of range" in error.message
        assert seats[mover].next("decision").decision.decision_id == decision.decision_id
    # The other seat naming the open decision, at the bounds too: not its turn.
    for index in (0, INT32_MAX):
        seats[1 - mover].answer(decision.decision_id, index)
        error = seats[1 - mover].next("error").error
        assert error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0], error
        assert "it is not seat" in error.message
    assert _info(stub, created.match_id).moves == 0, "no refused answer was played"
    thread, results = _in_background(seats[1 - mover])
    assert len(seats[mover].play_to_end(decision).scores) == 2
    thread.join(60)
    assert len(results[0].scores) == 2
    info = _info(stub, created.match_id)
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    assert [seat.strikes for seat in info.seats] == [0, 0]
    for seat in seats:
        seat.close()


@pytest.mark.parametrize("point", ["after the join", "after an answer", "after a refused answer"])
def test_a_seat_that_half_closes_keeps_its_seat_and_still_gets_the_result(
    stub: arena_pb2_grpc.ArenaStub, point: str
) -> None:
    """A seat that closes its side of the stream stays connected: its decisions
    keep coming and run to their deadlines (strikes, then disqualified), the
    other seat plays on, and the half-closed stream still gets the result and
    ends OK."""
    # The other seat's answers must beat the deadline: 0.05 s was too short
    # for them on a slowed CPU.
    created = _create(stub, decision_seconds=0.5, max_strikes=2)
    mover = _info(stub, created.match_id).to_move
    quitter = _join(stub, created.match_id, created.seat_tokens[mover])
    player = _join(stub, created.match_id, created.seat_tokens[1 - mover])
    decision = quitter.next("decision").decision
    if point == "after an answer":
        quitter.answer(decision.decision_id, 0)
    elif point == "after a refused answer":
        quitter.answer(decision.decision_id, len(decision.actions))
        assert quitter.next("error").error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    quitter.close()
    thread, results = _in_background(player)
    result = quitter.next("result", skip=("event", "decision", "error")).result
    assert quitter.status() == grpc.StatusCode.OK
    thread.join(60)
    assert results == [result], "both seats were told the same end"
    assert result.end_reason == "game over"
    assert result.seats[mover].disqualified and not result.seats[1 - mover].disqualified
    assert result.ranks[mover] == 2
    info = _info(stub, created.match_id)
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    assert not any(seat.connected for seat in info.seats)
    player.close()


def _call_with_timeout(address: str, method: str, request: bytes, timeout: str) -> int:
    """`method` called over a raw HTTP/2 connection with `grpc-timeout: timeout`
    ("1n": a deadline that has passed by the time the call arrives), its request
    sent and (but for Play, whose stream stays open) half-closed; the call's
    grpc-status, read from its trailers."""
    host, port = address.rsplit(":", 1)
    headers = request_headers((ARENA + method).encode(), [(b"grpc-timeout", timeout.encode())])
    body = b"\x00" + len(request).to_bytes(4, "big") + request
    flags = 0 if method == "Play" else END_STREAM
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(
            PREFACE
            + frame(SETTINGS, 0, 0, b"")
            + frame(HEADERS, END_HEADERS, 1, headers)
            + frame(DATA, flags, 1, body)
        )
        received = b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            found = re.search(rb"grpc-status[\x01\x02](\d+)", received)
            if found:
                return int(found.group(1))
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    raise AssertionError(f"{method}: no grpc-status in {received[-200:]!r}")


def test_calls_whose_deadline_has_passed_on_arrival_hold_nothing(
    served: ServerProcess, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """Every Arena call, sent with a deadline already past: it ends, OK or
    DEADLINE_EXCEEDED (whichever comes first), logs nothing, and holds nothing:
    a Play join that expired leaves no stream on its seat, a Watch no watcher,
    and the seats then join and play as if it had never come."""
    created = _create(stub)
    join = arena_pb2.PlayRequest(
        join=arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
    )
    calls: dict[str, Message] = {
        "Play": join,
        "Watch": arena_pb2.WatchRequest(match_id=created.match_id, from_start=True),
        "GetMatch": arena_pb2.GetMatchRequest(match_id=created.match_id),
        "GetReplay": arena_pb2.GetReplayRequest(match_id=created.match_id),
        "ListMatches": arena_pb2.ListMatchesRequest(limit=1000),
        "ListGames": arena_pb2.ListGamesRequest(),
        "CreateMatch": arena_pb2.CreateMatchRequest(game=GAME, players=2),
    }
    allowed = {grpc.StatusCode.OK.value[0], grpc.StatusCode.DEADLINE_EXCEEDED.value[0]}
    # GetReplay of a live match is refused whether or not its deadline passed first.
    allowed_replay = allowed | {grpc.StatusCode.FAILED_PRECONDITION.value[0]}
    for timeout in ("1n", "1u", "1m"):
        for method, request in calls.items():
            code = _call_with_timeout(served.address, method, request.SerializeToString(), timeout)
            assert code in (allowed_replay if method == "GetReplay" else allowed), (method, code)
    info = _info(stub, created.match_id)
    assert info.status == arena_pb2.MATCH_STATUS_WAITING
    assert not any(seat.connected for seat in info.seats), "an expired join holds no seat"
    seats = [_join(stub, created.match_id, token) for token in created.seat_tokens]
    thread, results = _in_background(seats[1])
    assert len(seats[0].play_to_end().scores) == 2
    thread.join(60)
    assert len(results) == 1
    for seat in seats:
        seat.close()


def test_metadata_past_the_limit_is_refused_before_anything_is_made(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    """Request headers past gRPC's 16 KiB: RESOURCE_EXHAUSTED before the call
    runs, so no match is created and no seat is joined; the same calls with
    ordinary headers then work."""
    huge = [("x-padding", "a" * 20_000)]
    many = [("x-padding", "a" * 7_000)] * 3
    created = _create(stub)
    for metadata in (huge, many):
        before = len(stub.ListMatches(arena_pb2.ListMatchesRequest(limit=1000)).matches)
        with pytest.raises(grpc.RpcError) as caught:
            stub.CreateMatch(arena_pb2.CreateMatchRequest(game=GAME, players=2), metadata=metadata)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        after = len(stub.ListMatches(arena_pb2.ListMatchesRequest(limit=1000)).matches)
        assert after == before, "a refused CreateMatch made no match"
        join = arena_pb2.PlayRequest(
            join=arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
        )
        with pytest.raises(grpc.RpcError) as caught:
            list(stub.Play(iter([join]), metadata=metadata, timeout=10))
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert not any(seat.joined for seat in _info(stub, created.match_id).seats)
    seat = _join(stub, created.match_id, created.seat_tokens[0])
    assert _info(stub, created.match_id).seats[0].connected
    seat.close()


def test_a_create_whose_deadline_has_passed_creates_no_match(
    served: ServerProcess, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """CreateMatch arriving with its deadline gone (or a millisecond from
    gone) is refused DEADLINE_EXCEEDED before anything is made: its client,
    told DEADLINE_EXCEEDED by gRPC whatever the server does, would never learn
    the id of a match made for it. The server once made it all the same."""
    request = arena_pb2.CreateMatchRequest(game=GAME, players=2).SerializeToString()
    listing = arena_pb2.ListMatchesRequest(limit=1000)
    before = {match.match_id for match in stub.ListMatches(listing).matches}
    for timeout in ("1n", "1u", "1m") * 5:
        code = _call_with_timeout(served.address, "CreateMatch", request, timeout)
        assert code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0], (timeout, code)
    after = {match.match_id for match in stub.ListMatches(listing).matches}
    assert after == before, "an expired CreateMatch made a match"


def test_an_expired_join_leaves_the_seat_to_its_live_stream(
    served: ServerProcess, stub: arena_pb2_grpc.ArenaStub
) -> None:
    """A Play join arriving with its deadline gone is refused before it
    touches the seat: the seat's live stream is not replaced by it (it once
    was, ABORTED "replaced by a newer join", by a call that was over)."""
    created = _create(stub)
    seat = _join(stub, created.match_id, created.seat_tokens[0])
    join = arena_pb2.PlayRequest(
        join=arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
    )
    for timeout in ("1n", "1u", "1m") * 5:
        code = _call_with_timeout(served.address, "Play", join.SerializeToString(), timeout)
        assert code == grpc.StatusCode.DEADLINE_EXCEEDED.value[0], (timeout, code)
    assert _info(stub, created.match_id).seats[0].connected
    other = _join(stub, created.match_id, created.seat_tokens[1])
    thread, results = _in_background(other)
    assert len(seat.play_to_end().scores) == 2, "the first join's stream played on"
    thread.join(60)
    assert len(results) == 1
    for each in (seat, other):
        each.close()
