"""A client that keeps joining a seat, or keeps watching a match, is logged as a
bad answer is: its first 20 one by one, then one in a thousand, each line with
the count so far. A bot once wrote 8 MB of such lines in 28 seconds."""

from __future__ import annotations

import time
from collections import Counter

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.logs import LOGGED_IN_FULL
from tests.integrity.helpers import Case, create_request, wait_until
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

TIMES = LOGGED_IN_FULL + 10


def test_joins_and_watchers_past_the_first_few_are_not_logged_one_by_one() -> None:
    with (
        structlog.testing.capture_logs() as logs,
        InProcessServer(ServerConfig()) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(create_request(Case("sheep-n-sheep", 2, {}), 3), timeout=10)
        for _ in range(TIMES):
            call = stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id), timeout=10)
            next(call)
            call.cancel()
        for _ in range(TIMES):
            refused = RawSeat(stub)
            refused.join(created.match_id, "not a seat token")
            with pytest.raises(grpc.RpcError):
                refused.next("joined")
            refused.close()
        seats = []
        for _ in range(TIMES):  # each join replaces the one before
            seat = RawSeat(stub)
            seat.join(created.match_id, created.seat_tokens[0])
            seat.next("joined")
            seats.append(seat)

        def counted() -> Counter[str]:
            return Counter(str(entry["event"]) for entry in logs)

        wait_until(
            lambda: (
                counted()["watcher left"] == LOGGED_IN_FULL
                and counted()["seat stream ended by the server"] >= LOGGED_IN_FULL
            ),
            what="the watchers left and the replaced streams ended",
        )
        time.sleep(0.2)  # for any line past the first 20 to come
        for seat in seats:
            seat.close()
    events = counted()
    assert events["watcher left"] == LOGGED_IN_FULL
    # Streams 1 to 20 of the 29 replaced.
    assert events["seat stream ended by the server"] == LOGGED_IN_FULL
    assert events["watcher joined"] == LOGGED_IN_FULL
    assert events["seat joined"] == LOGGED_IN_FULL
    assert events["seat stream replaced"] == LOGGED_IN_FULL - 1  # the first replaced nothing
    joined = [entry["joins"] for entry in logs if entry["event"] == "seat joined"]
    assert joined == list(range(1, LOGGED_IN_FULL + 1))
    refused = [entry for entry in logs if entry["event"] == "join refused"]
    assert [entry["total"] for entry in refused] == list(range(1, LOGGED_IN_FULL + 1))
    assert {(entry["code"], entry["game"]) for entry in refused} == {
        ("UNAUTHENTICATED", "sheep-n-sheep")
    }
