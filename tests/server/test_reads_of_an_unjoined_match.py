"""Reads of a match whose seats have not joined, against a real `sheepfold
serve` on loopback: a client that watches, asks for the replay and the match
while the match waits for its seats, and stays until the start timeout
aborts it.

While it waits: the replay is refused FAILED_PRECONDITION (its seed would
give every hidden hand and the deck order away), GetMatch and ListMatches
show no seed, and watchers get the public snapshot. At the start timeout the
watchers get the result naming why the match ended and their streams end OK;
only then does the replay (and with it the seed) come. The server logs no
error for any of it."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ServerProcess, server_logging_no_fault

pytestmark = pytest.mark.e2e

START_TIMEOUT = "2"
NOBODY_JOINED = "no seat joined within the start timeout"


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    with server_logging_no_fault("--start-timeout", START_TIMEOUT) as server:
        yield server


def _watched(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, from_start: bool
) -> tuple[threading.Thread, list[arena_pb2.WatchResponse]]:
    """A watcher on a thread of its own, reading to the end of its stream."""
    seen: list[arena_pb2.WatchResponse] = []

    def watch() -> None:
        request = arena_pb2.WatchRequest(match_id=match_id, from_start=from_start)
        seen.extend(stub.Watch(request, timeout=30))  # an error fails the join below

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread, seen


def test_a_match_waiting_for_its_seats_shows_no_seed_and_ends_its_watchers_with_why(
    served: ServerProcess,
) -> None:
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=3, seed=77)
        )
        match_id = created.match_id
        watchers = [_watched(stub, match_id, from_start) for from_start in (True, False)]
        with pytest.raises(grpc.RpcError) as refused:
            stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id))
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.status == arena_pb2.MATCH_STATUS_WAITING
        assert not info.HasField("seed")
        listed = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=1000)).matches
        assert [match.HasField("seed") for match in listed if match.match_id == match_id] == [False]

        for thread, seen in watchers:
            thread.join(30)
            assert not thread.is_alive(), "a watcher's stream did not end"
            kinds = [response.WhichOneof("kind") for response in seen]
            assert kinds == ["snapshot", "result"], kinds
            observed = seen[0].snapshot.observation.sheep_n_sheep
            assert list(observed.hand_sizes) == [2, 2, 2]
            assert not observed.hand and not observed.HasField("seat"), "a spectator's view"
            assert seen[1].result.end_reason == NOBODY_JOINED
            assert not seen[1].result.scores

        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.status == arena_pb2.MATCH_STATUS_ABORTED
        assert info.seed == 77
        replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id))
        assert (replay.seed, len(replay.actions)) == (77, 0)
        assert replay.result.end_reason == NOBODY_JOINED
        after = list(stub.Watch(arena_pb2.WatchRequest(match_id=match_id), timeout=10))
        assert [response.WhichOneof("kind") for response in after] == ["snapshot", "result"]
