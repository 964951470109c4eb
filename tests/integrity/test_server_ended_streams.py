"""When the server itself ends a Play stream (a newer join replaces it, a flood,
shutdown) that is normal operation: one info line each, never an error-level
traceback in the logs."""

from __future__ import annotations

from collections.abc import Mapping

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import log_entries, wait_until
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e


def test_streams_the_server_ends_are_logged_as_one_info_line() -> None:
    server = start_server_process()
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(
                arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=1), timeout=10
            )
            seats = []
            for token in (created.seat_tokens[0], created.seat_tokens[0]):  # the second replaces
                seat = RawSeat(stub)
                seat.join(created.match_id, token)
                seat.next("joined")
                seats.append(seat)
            for _ in range(150):  # more refused answers than a stream may send
                seats[1].answer(10_000, 0)
            other = RawSeat(stub)
            other.join(created.match_id, created.seat_tokens[1])
            other.next("joined")
            seats.append(other)

            def ended() -> list[dict]:
                entries = log_entries(server.log_lines)
                return [e for e in entries if e["event"] == "seat stream ended by the server"]

            wait_until(lambda: len(ended()) == 2, what="the replaced and flooded streams ended")
    finally:
        assert stop_server_process(server) == 0
        for seat in seats:
            seat.close()
    entries = log_entries(server.log_lines)
    events = [e["event"] for e in entries]
    assert "seat stream replaced" in events and "seat stream closed for flooding" in events
    assert "match suspended" in events
    ended = [e["seat"] for e in entries if e["event"] == "seat stream ended by the server"]
    # Seat 1's stream, ended at shutdown, may be cancelled before it notices.
    assert ended[:2] == [0, 0] and set(ended) <= {0, 1}
    assert [e for e in entries if e["level"] == "error" or "exception" in e] == []
    assert not any("Traceback" in line for line in server.log_lines)


def test_a_seat_that_keeps_rejoining_to_flood_cannot_fill_the_log() -> None:
    """Each refused answer was one log line, and the flood limit counts per
    stream: one token rejoining and flooding again wrote about 4,000 lines a
    second. A seat's first refusals are logged one by one, then one in a thousand."""
    server = start_server_process()
    streams: list[RawSeat] = []
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(
                arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=2), timeout=10
            )
            for _ in range(4):
                seat = RawSeat(stub)
                streams.append(seat)
                seat.join(created.match_id, created.seat_tokens[0])
                seat.next("joined")
                for _ in range(150):  # more than the 100 refusals a stream may send
                    seat.answer(10_000, 0)
                assert seat.status() == grpc.StatusCode.RESOURCE_EXHAUSTED

            def of_match(event: str) -> list[Mapping[str, object]]:
                return [
                    e
                    for e in log_entries(server.log_lines)
                    if e.get("event") == event and e.get("match_id") == created.match_id
                ]

            wait_until(
                lambda: len(of_match("seat stream closed for flooding")) == 4,
                what="four floods logged",
            )
    finally:
        assert stop_server_process(server) == 0
        for seat in streams:
            seat.close()
    refused = of_match("bad answer")
    assert [entry["total"] for entry in refused] == list(range(1, 21)), "404 refusals, 20 lines"
    assert [entry["total"] for entry in of_match("seat stream closed for flooding")] == [1, 2, 3, 4]
