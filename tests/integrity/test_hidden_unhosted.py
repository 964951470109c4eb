"""A match whose row is written but which this server does not host (yet) tells
nobody its seed.

`MatchRegistry.add` writes a new match's row and hosts it after: a creation
waiting on a locked database, one whose caller left meanwhile, or one written
while the server stops (the next start restores it) leaves a running row in
the database that no hosted match answers for. The seed fixes every deck
order, so GetReplay, GetMatch and ListMatches must give it for no such row:
they read the store for matches that are over only, and the stored summary of
a running match carries no seed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.clock_limits import ClockConfig
from server.inprocess import InProcessServer
from server.records import MatchRecord, MatchSummary
from server.sqlite_store import SqliteStore
from server.summaries import match_info

pytestmark = pytest.mark.e2e

SEED = 424_242


@pytest.fixture
def served(tmp_path: Path) -> Iterator[InProcessServer]:
    with InProcessServer(ServerConfig(), SqliteStore(tmp_path / "matches.db")) as server:
        yield server


def _written_not_hosted(server: InProcessServer) -> MatchRecord:
    """A match as `MatchRegistry.add` leaves it between writing its row and
    hosting it."""
    registry = server.server.registry

    async def write() -> MatchRecord:
        match, _tokens = registry.prepare("sheep-n-sheep", 3, {}, SEED, ClockConfig())
        await registry.store.create_match(match.record)
        return match.record

    record = server.run(write())
    assert registry.hosted(record.match_id) is None
    return record


def test_a_written_match_not_hosted_gives_no_replay(served: InProcessServer) -> None:
    record = _written_not_hosted(served)
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        with pytest.raises(grpc.RpcError) as refused:
            stub.GetReplay(arena_pb2.GetReplayRequest(match_id=record.match_id))
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND


def test_a_written_match_not_hosted_is_neither_shown_nor_listed_with_its_seed(
    served: InProcessServer,
) -> None:
    record = _written_not_hosted(served)
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        try:
            info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=record.match_id))
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.NOT_FOUND
        else:
            assert not info.HasField("seed")
        listed = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=100)).matches
    assert all(not m.HasField("seed") for m in listed if m.match_id == record.match_id)


def test_the_summary_of_a_running_match_carries_no_seed(served: InProcessServer) -> None:
    record = _written_not_hosted(served)
    running = match_info(MatchSummary(record, "running", None, "", 0))
    assert running.status == arena_pb2.MATCH_STATUS_RUNNING
    assert not running.HasField("seed")
    finished = match_info(MatchSummary(record, "finished", None, "", 0))
    assert finished.seed == SEED
