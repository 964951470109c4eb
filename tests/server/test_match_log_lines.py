"""The log's promise, checked from outside as an operator reads it: a real
server with JSON logs hosts a match with a bad answer, a rejoin and a seat
disqualified for missed deadlines, and a match nobody joins, which is aborted.
Every line about a match names its match_id and its game, and the strike and
the disqualification are in the log as they are in the result."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import log_entries, wait_until
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

GAME = "sheep-n-sheep"


def _info(stub: arena_pb2_grpc.ArenaStub, match_id: str) -> arena_pb2.MatchInfo:
    return stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=10)


def _play_a_troubled_match(
    stub: arena_pb2_grpc.ArenaStub,
) -> tuple[str, int, arena_pb2.MatchResult]:
    """The seat to move first answers out of range, rejoins on a new stream and
    plays to the end; the other never answers. Its id, the idle seat, the result."""
    clock = arena_pb2.ClockSettings(decision_seconds=2.0, max_strikes=2)
    request = arena_pb2.CreateMatchRequest(game=GAME, players=2, seed=7, clock=clock)
    created = stub.CreateMatch(request, timeout=10)
    seats = [RawSeat(stub) for _ in created.seat_tokens]
    for seat, token in zip(seats, created.seat_tokens, strict=True):
        seat.join(created.match_id, token)
    running = arena_pb2.MATCH_STATUS_RUNNING
    wait_until(lambda: _info(stub, created.match_id).status == running, what="the start")
    mover = _info(stub, created.match_id).to_move
    first = seats[mover].next("decision", skip=("event", "joined"))
    seats[mover].answer(first.decision.decision_id, 10_000)
    seats[mover].next("error", skip=("event",))
    again = RawSeat(stub)
    again.join(created.match_id, created.seat_tokens[mover])
    assert seats[mover].status() == grpc.StatusCode.ABORTED  # replaced by the new join
    resent = again.next("decision", skip=("event", "joined"))
    assert resent.decision.decision_id == first.decision.decision_id
    result = again.play_to_end(resent.decision)
    idle = 1 - mover
    seats[idle].close()
    again.close()
    return created.match_id, idle, result


def test_every_line_about_a_match_names_it_and_its_game() -> None:
    server = start_server_process("--db", ":memory:", "--start-timeout", "1")
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            request = arena_pb2.CreateMatchRequest(game="stubborn-sheep", players=1)
            abandoned = stub.CreateMatch(request, timeout=10).match_id
            match_id, idle, result = _play_a_troubled_match(stub)
            aborted = arena_pb2.MATCH_STATUS_ABORTED
            wait_until(lambda: _info(stub, abandoned).status == aborted, what="the abort")
    finally:
        assert stop_server_process(server) == 0
    assert result.seats[idle].disqualified and result.seats[idle].strikes == 2
    assert result.ranks[idle] == 2
    logged = log_entries(server.log_lines)
    about_a_match = [line for line in logged if "match_id" in line]
    games = {match_id: GAME, abandoned: "stubborn-sheep"}
    unnamed = [line for line in about_a_match if line.get("game") != games[line["match_id"]]]
    assert unnamed == []
    events = {line["event"] for line in about_a_match if line["match_id"] == match_id}
    assert {"bad answer", "seat stream replaced", "match finished"} <= events
    missed = [
        (line["strikes"], line["disqualified"])
        for line in about_a_match
        if line["event"] == "decision deadline missed" and line["seat"] == idle
    ]
    assert missed[:2] == [(1, False), (2, True)]
    (finished,) = [line for line in about_a_match if line["event"] == "match finished"]
    assert idle in finished["disqualified"]
    assert [line["event"] for line in about_a_match if line["match_id"] == abandoned] == [
        "match created",
        "match abandoned",
    ]
