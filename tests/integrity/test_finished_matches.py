"""A match the server no longer hosts (it ended) is read from the store, never
rebuilt at once on the event loop: each watcher gets it replayed move by move
as it reads, and a join to it is answered from its stored record alone.

What shows from outside that nothing is replayed ahead: a stored match whose
moves no longer replay (a damaged database) still refuses joins for the right
reason, and its watchers get every move up to the damage before a DATA_LOSS."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.matchplay import create_match
from clients.sdk import play
from server.app import ServerConfig
from server.fairness import FairQueue
from server.inprocess import InProcessServer
from server.spectators import MOVES_PER_STEP
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import (
    Case,
    SlowBot,
    case_ids,
    expected_watch_stream,
    game_cases,
    stopped_by_the_end,
)

pytestmark = pytest.mark.e2e


def _watch(stub: arena_pb2_grpc.ArenaStub, match_id: str, from_start: bool) -> list:
    request = arena_pb2.WatchRequest(match_id=match_id, from_start=from_start)
    return list(stub.Watch(request, timeout=30))


def _join(stub: arena_pb2_grpc.ArenaStub, join: arena_pb2.Join) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as refused:
        list(stub.Play(iter([arena_pb2.PlayRequest(join=join)]), timeout=30))
    return refused.value


def _played(db: Path, case: Case, seed: int) -> tuple[str, list[str]]:
    """A match of `case` played to the end and stored in `db` by a server that
    then stops, so the next server never hosted it: its id and seat tokens."""

    async def scenario(address: str) -> tuple[str, list[str]]:
        created = await create_match(
            address, case.game, case.players, seed=seed, options=case.options
        )
        await asyncio.gather(
            *(
                play(SlowBot(seat), address, created.match_id, token, seat)
                for seat, token in enumerate(created.seat_tokens)
            )
        )
        return created.match_id, list(created.seat_tokens)

    with InProcessServer(ServerConfig(), SqliteStore(db)) as server:
        return server.run(scenario(server.address))


@pytest.mark.parametrize("case", game_cases(), ids=case_ids(game_cases()))
def test_a_finished_match_is_watched_from_the_store(case: Case, tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    match_id, _ = _played(db, case, seed=11)
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id))
        expected = expected_watch_stream(replay)
        assert _watch(stub, match_id, from_start=True) == expected
        # Not from the start: where the match ended, then its result.
        assert _watch(stub, match_id, from_start=False) == expected[-2:]


def test_a_join_to_a_finished_match_checks_the_token_without_replaying_it(
    tmp_path: Path,
) -> None:
    case = Case("sheep-showdown", 2, {"rounds": "1"})
    db = tmp_path / "j.db"
    match_id, tokens = _played(db, case, seed=5)
    _damage_move(db, match_id, move=3)

    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        nobody = _join(stub, arena_pb2.Join(match_id=match_id, token="not a token"))
        assert nobody.code() == grpc.StatusCode.UNAUTHENTICATED
        wrong_seat = _join(stub, arena_pb2.Join(match_id=match_id, seat=1, token=tokens[0]))
        assert wrong_seat.code() == grpc.StatusCode.PERMISSION_DENIED
        assert wrong_seat.details() == "this token does not belong to seat 1"
        over = _join(stub, arena_pb2.Join(match_id=match_id, seat=0, token=tokens[0]))
        assert over.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert over.details() == "the match is over"
        unknown = _join(stub, arena_pb2.Join(match_id="0" * 16, token=tokens[0]))
        assert unknown.code() == grpc.StatusCode.NOT_FOUND


@pytest.mark.parametrize("index", [9999, -1])
def test_a_watcher_of_a_damaged_stored_match_gets_the_moves_before_the_damage(
    tmp_path: Path, index: int
) -> None:
    case = Case("sheep-showdown", 2, {"rounds": "1"})
    db = tmp_path / "d.db"
    match_id, _ = _played(db, case, seed=5)
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        replay = arena_pb2_grpc.ArenaStub(channel).GetReplay(
            arena_pb2.GetReplayRequest(match_id=match_id)
        )
    expected = expected_watch_stream(replay)
    damaged_move = 2 * MOVES_PER_STEP + 2  # in the middle of a step
    assert len(replay.actions) > damaged_move
    _damage_move(db, match_id, move=damaged_move, index=index)

    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
        structlog.testing.capture_logs() as logs,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        seen: list[arena_pb2.WatchResponse] = []
        request = arena_pb2.WatchRequest(match_id=match_id, from_start=True)
        with pytest.raises(grpc.RpcError) as lost:
            for message in stub.Watch(request, timeout=30):
                seen.append(message)
        assert lost.value.code() == grpc.StatusCode.DATA_LOSS
        assert lost.value.details().startswith(
            f"match {match_id} cannot be replayed from the database: "
        )
        # The start and the moves before the damage (each its events and a snapshot).
        snapshots = [m.snapshot.move for m in seen if m.WhichOneof("kind") == "snapshot"]
        assert snapshots == list(range(damaged_move))
        assert seen == expected[: len(seen)]
        with pytest.raises(grpc.RpcError) as lost_again:
            _watch(stub, match_id, from_start=False)
        assert lost_again.value.code() == grpc.StatusCode.DATA_LOSS
        # The server goes on, and says what it could not replay.
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    damaged = [entry for entry in logs if entry["event"] == "cannot replay stored match"]
    assert [(entry["match_id"], entry.get("game")) for entry in damaged] == [
        (match_id, replay.game),
        (match_id, replay.game),
    ]


def _damage_move(db: Path, match_id: str, move: int, index: int = 9999) -> None:
    """Make move `move` of a stored match an action the engine never offers
    (`index`: a negative one was once taken from the end of the list)."""
    with sqlite3.connect(db) as connection:
        changed = connection.execute(
            "UPDATE moves SET action_index = ? WHERE match_id = ? AND move = ?",
            (index, match_id, move),
        ).rowcount
    assert changed == 1


def test_a_watcher_of_a_stored_match_is_told_when_the_server_shuts_down(tmp_path: Path) -> None:
    """As a live match's watchers are: the replay stops within a step and the
    stream ends with UNAVAILABLE and the reason, instead of going on until the
    shutdown grace cuts it off (or sending the whole match while shutting down)."""
    db = tmp_path / "s.db"
    match_id, _ = _played(db, Case("stubborn-sheep", 5, {}), seed=4)
    server = InProcessServer(ServerConfig(shutdown_grace=30), SqliteStore(db))
    server.start()
    with stopped_by_the_end(server) as stop, grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        request = arena_pb2.WatchRequest(match_id=match_id, from_start=True)
        stream = stub.Watch(request, timeout=60)
        received = [next(stream)]
        stop()
        with pytest.raises(grpc.RpcError) as ended:
            received.extend(stream)
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
    assert ended.value.details() == "in-process server closing"
    assert not any(message.HasField("result") for message in received)


def test_a_whole_match_watcher_of_a_match_kept_for_its_watchers_is_told_at_shutdown() -> None:
    """A match that ends while watched is no longer hosted but kept for its
    watchers; a watcher asking for its whole match has the moves before the
    watchers' log replayed. At shutdown that replay, like any, ends UNAVAILABLE
    with the reason instead of going on through the grace."""
    server = InProcessServer(ServerConfig(shutdown_grace=30))
    server.start()
    turns = server.server.replay_turns
    with stopped_by_the_end(server) as stop, grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=8)
        )
        seats = server.submit(_played_slowly(server.address, created))
        request = arena_pb2.GetMatchRequest(match_id=created.match_id)
        while stub.GetMatch(request, timeout=10).moves < 20:
            time.sleep(0.01)
        keeper = stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id))
        next(keeper)  # the watchers' log begins here, 20 moves or more in
        server.run(turns.acquire())  # every replay waits for its turn
        whole = stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id, from_start=True))
        match = server.server.registry.hosted(created.match_id)
        assert match is not None
        while match.watcher_count < 2:
            time.sleep(0.005)
        seats.result(60)  # over: no longer hosted, kept for its watchers
        stop()
        server.submit(_release(turns))
        with pytest.raises(grpc.RpcError) as ended:
            list(whole)
        keeper.cancel()
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
    assert ended.value.details() == "in-process server closing"


async def _release(turns: FairQueue) -> None:
    turns.release()


async def _played_slowly(address: str, created: arena_pb2.CreateMatchResponse) -> None:
    await asyncio.gather(
        *(
            play(SlowBot(seat, 0.002), address, created.match_id, token, seat)
            for seat, token in enumerate(created.seat_tokens)
        )
    )
