"""A client that stops reading cannot hold a stream, and what it holds, for
ever: a Play or Watch stream whose write has waited longer than the server's
write stall limit for its client is cut off, and ends with a status should its
client read again; and a Play stream the server ends with an error drops the
messages still queued for it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.seats import MatchLimits, decision_ids_start
from server.sqlite_store import SqliteStore
from server.streams import Outbound, StreamClosed
from tests.integrity.helpers import Case, expected_watch_stream, wait_until
from tests.integrity.test_finished_matches import _played

pytestmark = pytest.mark.e2e

# Without BDP probing a client's HTTP/2 window stays at its first size, so a
# client that does not read shuts it after some 64 KB.
NO_WINDOW_GROWTH = [("grpc.http2.bdp_probe", 0)]
STALL_SECONDS = 0.5


def test_a_watcher_that_never_reads_gives_its_place_back(tmp_path: Path) -> None:
    """With room for one watcher, one that never reads would keep everyone else
    out for as long as it stays connected; its stream is cancelled instead."""
    db = tmp_path / "w.db"
    match_id, _ = _played(db, Case("stubborn-sheep", 5, {}), seed=4)
    config = ServerConfig(write_stall_seconds=STALL_SECONDS, limits=MatchLimits(max_watchers=1))
    request = arena_pb2.WatchRequest(match_id=match_id, from_start=True)
    with (
        structlog.testing.capture_logs() as logs,
        InProcessServer(config, SqliteStore(db)) as server,
        grpc.insecure_channel(server.address, options=NO_WINDOW_GROWTH) as stalled_channel,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        whole = expected_watch_stream(stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id)))
        stalled = arena_pb2_grpc.ArenaStub(stalled_channel).Watch(request)
        try:
            next(stalled)  # it has the place; it reads nothing more
            with pytest.raises(grpc.RpcError) as refused:
                list(stub.Watch(request, timeout=30))
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert _watch_when_placed(stub, request, attempts=200) == whole
        finally:
            stalled.cancel()
    (cancelled, *_) = [line for line in logs if line["event"].startswith("stream cancelled")]
    about = {key: cancelled.get(key) for key in ("method", "match_id", "game")}
    assert about == {
        "method": "/sheepfold.v1.Arena/Watch",
        "match_id": match_id,
        "game": "stubborn-sheep",
    }


def _watch_when_placed(
    stub: arena_pb2_grpc.ArenaStub, request: arena_pb2.WatchRequest, attempts: int
) -> list[arena_pb2.WatchResponse]:
    """The whole Watch stream, trying again every 0.05 s while the match has no
    room for another watcher (the last refusal is raised)."""
    for attempt in range(attempts):
        try:
            return list(stub.Watch(request, timeout=30))
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED or attempt == attempts - 1:
                raise
            time.sleep(0.05)
    raise AssertionError("no attempts")


def _solo_match_and_a_flood(
    stub: arena_pb2_grpc.ArenaStub,
) -> tuple[arena_pb2.CreateMatchResponse, list[arena_pb2.PlayRequest]]:
    """A one-seat match, and a Play stream's messages joining its seat and then
    sending a thousand answers the server must refuse (each refusal queues the
    decision again)."""
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="stubborn-sheep", players=1, seed=3)
    )
    join = arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
    # The id of its first decision, so that each refusal is for the index alone.
    first = decision_ids_start(created.match_id) + 1
    wrong = arena_pb2.Answer(decision_id=first, action_index=10_000)
    requests = [arena_pb2.PlayRequest(join=join)]
    requests += [arena_pb2.PlayRequest(answer=wrong)] * 1000
    return created, requests


def test_a_flooding_seat_that_never_reads_is_cut_off_and_can_join_again() -> None:
    """It sends answers the server must refuse (each refusal queues the
    decision again) and reads nothing. Its stream is cancelled once its write
    has waited past the limit; the seat joins again and the match is played."""
    # Room for a thousand refusals: over 600 KB of decisions queued for it.
    limits = MatchLimits(max_rejected=2000)
    config = ServerConfig(write_stall_seconds=STALL_SECONDS, limits=limits)
    with (
        structlog.testing.capture_logs() as logs,
        InProcessServer(config) as server,
        grpc.insecure_channel(server.address, options=NO_WINDOW_GROWTH) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created, requests = _solo_match_and_a_flood(stub)
        flooding = stub.Play(iter(requests))
        try:
            get = arena_pb2.GetMatchRequest(match_id=created.match_id)
            for _ in range(200):
                time.sleep(0.05)
                if not stub.GetMatch(get, timeout=10).seats[0].connected:
                    break  # its stream has ended on the server
            else:
                raise AssertionError("the stalled Play stream was never cancelled")
            result = asyncio.run(
                play(RandomBot(1), server.address, created.match_id, created.seat_tokens[0])
            )
        finally:
            flooding.cancel()
    cancelled = [line for line in logs if line["event"].startswith("stream cancelled")]
    assert cancelled[0]["method"] == "/sheepfold.v1.Arena/Play"
    # A line about a match's stream names the match, its game and the seat.
    about = {key: cancelled[0].get(key) for key in ("match_id", "game", "seat")}
    assert about == {"match_id": created.match_id, "game": "stubborn-sheep", "seat": 0}
    assert len(result.scores) == 1


def test_a_watcher_cut_off_that_reads_again_is_told_so_not_left_waiting(tmp_path: Path) -> None:
    """Cut off, its stream used to stay open with no status: a client that read
    again got what had been written to it, then nothing until its deadline (or
    for ever, without one)."""
    db = tmp_path / "w.db"
    match_id, _ = _played(db, Case("stubborn-sheep", 5, {}), seed=4)
    config = ServerConfig(write_stall_seconds=STALL_SECONDS)
    request = arena_pb2.WatchRequest(match_id=match_id, from_start=True)
    with (
        InProcessServer(config, SqliteStore(db)) as server,
        grpc.insecure_channel(server.address, options=NO_WINDOW_GROWTH) as channel,
    ):
        stalled = arena_pb2_grpc.ArenaStub(channel).Watch(request, timeout=10)
        next(stalled)
        wait_until(lambda: server.server.stalls.cancelled == 1)
        with pytest.raises(grpc.RpcError) as ended:
            for _ in stalled:
                pass
    assert ended.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "read nothing" in (ended.value.details() or "")


def test_a_seat_cut_off_that_reads_again_is_told_so_not_left_waiting() -> None:
    limits = MatchLimits(max_rejected=2000)
    config = ServerConfig(write_stall_seconds=STALL_SECONDS, limits=limits)
    with (
        InProcessServer(config) as server,
        grpc.insecure_channel(server.address, options=NO_WINDOW_GROWTH) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        _, requests = _solo_match_and_a_flood(stub)
        flooding = stub.Play(iter(requests), timeout=10)
        wait_until(lambda: server.server.stalls.cancelled == 1)
        with pytest.raises(grpc.RpcError) as ended:
            for _ in flooding:
                pass
    assert ended.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "read nothing" in (ended.value.details() or "")


def test_an_error_ends_a_queue_at_once_and_a_plain_end_after_what_is_queued() -> None:
    ended: Outbound[str] = Outbound()
    for message in ("a", "b"):
        ended.send(message)
    ended.close(grpc.StatusCode.ABORTED, "replaced")
    assert len(ended) == 1

    finished: Outbound[str] = Outbound()
    for message in ("a", "b"):
        finished.send(message)
    finished.close(None, "match over")
    assert len(finished) == 3
    assert finished._items[-1] == StreamClosed(None, "match over")
