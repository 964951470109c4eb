"""A match whose loop fails (a bug in an engine, a database that refuses a
move) is aborted for good: written to the store as such, its seats and
watchers sent its result, and listed and read as aborted, now and after a
restart. Such a match once stayed listed as waiting or running until a
restart. When the database refuses its abort too, it ends its streams
INTERNAL, and refuses the seats that rejoin and the spectators that come later
with the same status, instead of leaving them waiting for ever."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from games.sheep_and_garden.state import SheepAndGardenState
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.match import SERVER_FAILED
from server.spectators import Spectators
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import wait_until
from tests.raw_stream import RawSeat
from tests.server.test_metrics import scrape, value

pytestmark = pytest.mark.e2e

RUNNING = arena_pb2.MATCH_STATUS_RUNNING
# Long enough to tell a refusal from a stream left waiting.
PATIENCE = 5.0


def test_a_failed_match_whose_abort_is_refused_refuses_rejoins_and_watchers(
    tmp_path: Path,
) -> None:
    db = tmp_path / "no-moves.db"
    SqliteStore(db).close()
    with sqlite3.connect(db) as con:
        con.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON moves"
            " BEGIN SELECT RAISE(ABORT, 'no moves today'); END"
        )
        con.execute(
            "CREATE TRIGGER refuse_end BEFORE UPDATE OF status ON matches"
            " BEGIN SELECT RAISE(ABORT, 'no ends today'); END"
        )
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1), timeout=10
        )
        seat = RawSeat(stub, timeout=PATIENCE)
        seat.join(created.match_id, created.seat_tokens[0])
        seat.next("joined")
        decision = seat.next("decision").decision
        seat.answer(decision.decision_id, 0)  # its write is refused: the loop fails
        assert seat.status() == grpc.StatusCode.INTERNAL
        seat.close()

        # The SDKs rejoin after INTERNAL: the rejoin is refused, not left waiting
        # for a decision that never comes.
        again = RawSeat(stub, timeout=PATIENCE)
        again.join(created.match_id, created.seat_tokens[0])
        with pytest.raises(grpc.RpcError) as refused:
            again.next("joined")
        assert refused.value.code() == grpc.StatusCode.INTERNAL
        assert "the match failed on the server" in refused.value.details()
        again.close()

        with pytest.raises(grpc.RpcError) as watched:
            list(stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id), timeout=PATIENCE))
        assert watched.value.code() == grpc.StatusCode.INTERNAL
        assert "the match failed on the server" in watched.value.details()

        # A forged token is still told so first.
        forged = RawSeat(stub, timeout=PATIENCE)
        forged.join(created.match_id, "not-a-token")
        assert forged.status() == grpc.StatusCode.UNAUTHENTICATED
        forged.close()

        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_RUNNING, "unfinished, for a restart"


def _status(stub: arena_pb2_grpc.ArenaStub, status: int) -> list[str]:
    listing = stub.ListMatches(arena_pb2.ListMatchesRequest(status=status), timeout=10)
    return [info.match_id for info in listing.matches]


def _seat_and_watcher(
    stub: arena_pb2_grpc.ArenaStub,
) -> tuple[arena_pb2.CreateMatchResponse, RawSeat, Iterator[arena_pb2.WatchResponse]]:
    """A one-seat match, its seat joined and a watcher past its snapshot."""
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1), timeout=10
    )
    seat = RawSeat(stub, timeout=PATIENCE)
    seat.join(created.match_id, created.seat_tokens[0])
    seat.next("joined")
    watch = stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id), timeout=PATIENCE)
    assert next(watch).WhichOneof("kind") == "snapshot"
    return created, seat, watch


def test_a_match_whose_engine_fails_is_aborted_for_good(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "failing-engine.db"
    secret = "secret detail of the engine"
    with (
        structlog.testing.capture_logs() as logs,
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created, seat, watch = _seat_and_watcher(stub)
        match_id = created.match_id
        decision = seat.next("decision").decision

        def broken(state: SheepAndGardenState, action: object) -> None:
            raise RuntimeError(secret)

        with monkeypatch.context() as patched:
            patched.setattr(SheepAndGardenState, "apply", broken)
            seat.answer(decision.decision_id, 0)  # the engine fails: the loop with it
            result = seat.next("result").result
        assert result.end_reason == SERVER_FAILED
        assert seat.status() == grpc.StatusCode.OK, "the seat's stream ends, not hangs"
        seat.close()
        watched = list(watch)  # ends, with the result last
        assert watched[-1].result.end_reason == SERVER_FAILED

        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_ABORTED
        assert info.result.end_reason == SERVER_FAILED
        assert _status(stub, arena_pb2.MATCH_STATUS_ABORTED) == [match_id]
        assert _status(stub, arena_pb2.MATCH_STATUS_WAITING) == []
        assert _status(stub, arena_pb2.MATCH_STATUS_RUNNING) == []
        assert server.server.registry.hosted(match_id) is None, "over, and dropped"

        again = RawSeat(stub, timeout=PATIENCE)
        again.join(match_id, created.seat_tokens[0])
        with pytest.raises(grpc.RpcError) as refused:
            again.next("joined")
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert refused.value.details() == f"the match was aborted: {SERVER_FAILED}"
        again.close()
    failed = [e for e in logs if e["event"] == "match loop failed; the match is aborted"]
    assert [e["match_id"] for e in failed] == [match_id]
    assert failed[0]["exc_info"], "the operator's log has the traceback"
    assert all(secret not in str(value) for value in info.result.ListFields())

    # The store has it aborted: the next start does not bring it back.
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        assert server.server.registry.hosted(match_id) is None
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_ABORTED
        assert info.result.end_reason == SERVER_FAILED
        assert _status(stub, arena_pb2.MATCH_STATUS_ABORTED) == [match_id]


def _refusing_ends(db: Path, when: str = "") -> None:
    """A database that takes matches, joins and moves but refuses every end
    (`when`: those the condition on the row's NEW values picks)."""
    SqliteStore(db).close()
    with sqlite3.connect(db) as con:
        con.execute(
            f"CREATE TRIGGER refuse_end BEFORE UPDATE OF status ON matches {when}"
            " BEGIN SELECT RAISE(ABORT, 'no ends today'); END"
        )


def _silent_seat_match(
    stub: arena_pb2_grpc.ArenaStub,
) -> tuple[arena_pb2.CreateMatchResponse, grpc.StatusCode]:
    """A match whose one seat joins and never answers: disqualified at its first
    decision, the rest played by the server, the match at its end at once;
    with how its seat's stream ended."""
    clock = arena_pb2.ClockSettings(decision_seconds=0.01, max_strikes=1)
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1, clock=clock),
        timeout=10,
    )
    seat = RawSeat(stub, timeout=PATIENCE)
    seat.join(created.match_id, created.seat_tokens[0])
    status = seat.status()
    seat.close()
    return created, status


def _still_hosted_unfinished(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, status: int
) -> None:
    """GetMatch and ListMatches still show the match unfinished, as the file
    has it, and a rejoin is refused INTERNAL, not NOT_FOUND."""
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=10)
    assert info.status == status
    assert _status(stub, status) == [match_id]
    again = RawSeat(stub, timeout=PATIENCE)
    again.join(match_id, token)
    with pytest.raises(grpc.RpcError) as refused:
        again.next("joined")
    assert refused.value.code() == grpc.StatusCode.INTERNAL
    again.close()


def test_a_match_whose_abandon_is_refused_stays_hosted_unfinished(tmp_path: Path) -> None:
    db = tmp_path / "no-ends.db"
    _refusing_ends(db)
    with (
        InProcessServer(ServerConfig(start_timeout=0.3), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1), timeout=10
        )
        match = server.server.registry.hosted(created.match_id)
        assert match is not None
        deadline = time.monotonic() + PATIENCE
        while match.failed is None and time.monotonic() < deadline:
            time.sleep(0.05)  # nobody joins: aborted at the start timeout, refused
        assert match.failed is not None
        assert server.server.registry.hosted(created.match_id) is match
        _still_hosted_unfinished(
            stub, created.match_id, created.seat_tokens[0], arena_pb2.MATCH_STATUS_WAITING
        )


def test_a_match_whose_end_is_refused_stays_hosted_unfinished(tmp_path: Path) -> None:
    db = tmp_path / "no-ends.db"
    _refusing_ends(db)
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created, status = _silent_seat_match(stub)
        assert status == grpc.StatusCode.INTERNAL
        _still_hosted_unfinished(
            stub, created.match_id, created.seat_tokens[0], arena_pb2.MATCH_STATUS_RUNNING
        )
    # The database mended, the next start finishes it as it was played.
    with sqlite3.connect(db) as con:
        con.execute("DROP TRIGGER refuse_end")
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        asked = arena_pb2.GetMatchRequest(match_id=created.match_id)
        wait_until(lambda: stub.GetMatch(asked, timeout=10).status != RUNNING, PATIENCE)
        info = stub.GetMatch(asked, timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_FINISHED
        assert [seat.disqualified for seat in info.result.seats] == [True]


def test_a_match_whose_end_is_refused_and_abort_written_is_counted_once(
    tmp_path: Path,
) -> None:
    db = tmp_path / "no-finished.db"
    _refusing_ends(db, "WHEN NEW.status = 'finished'")
    with (
        InProcessServer(ServerConfig(metrics_port=0), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        port = server.server.metrics_port
        assert port
        stub = arena_pb2_grpc.ArenaStub(channel)
        created, status = _silent_seat_match(stub)
        assert status == grpc.StatusCode.OK, "told the abort"
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_ABORTED
        assert info.result.end_reason == SERVER_FAILED
        samples = scrape(port)
        ended = "sheepfold_matches_finished_total"
        assert value(samples, ended, game="sheep-and-garden", outcome="aborted") == 1
        assert value(samples, ended, game="sheep-and-garden", outcome="completed") == 0
        assert value(samples, ended, game="sheep-and-garden", outcome="disqualification") == 0


def test_a_match_whose_end_is_written_is_not_rewritten_as_aborted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure after the end is written (telling it to the watchers) leaves
    the end as written, and as the seat was told it: not aborted over it."""
    db = tmp_path / "told.db"
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created, seat, watch = _seat_and_watcher(stub)
        match_id = created.match_id

        def broken(spectators: Spectators, result: object) -> None:
            raise RuntimeError("the watchers could not be told")

        monkeypatch.setattr(Spectators, "finished", broken)
        result = seat.play_to_end()
        assert seat.status() == grpc.StatusCode.OK
        seat.close()
        with pytest.raises(grpc.RpcError) as cut:
            list(watch)
        assert cut.value.code() == grpc.StatusCode.INTERNAL, "ended, not left waiting"
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_FINISHED
        assert info.result == result
        assert server.server.registry.hosted(match_id) is None
