"""The database never stalls the server (issue 15, items 4 and 5).

A server with thousands of finished matches in its database answers ListMatches
and GetMatch for them from stored summaries, off its event loop: a bystander
match whose bot answers at once gets no strike while those calls run. A second
process holding the database's write lock slows the server down: health
answers at once and says NOT_SERVING, CreateMatch gets UNAVAILABLE with a
clear message, the running match waits for its moves to be written and then
finishes with no strike and a replay that reproduces it. A finished match is
not kept in memory, and is answered the same from the file.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.matchplay import play_match
from clients.sdk import play
from server.app import ServerConfig
from server.health import LIVENESS_SERVICE
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import (
    Case,
    SlowBot,
    assert_replay_reproduces_result,
    create_request,
    game_cases,
    get_replay,
    log_entries,
)
from tests.raw_stream import RawSeat
from tests.server.test_metrics import scrape, value

pytestmark = pytest.mark.e2e

COPIES_PER_GAME = 750  # four games: 3,000 finished matches
BYSTANDER = Case("sheep-n-sheep", 2, {})
GARDEN = Case("sheep-and-garden", 2, {})

# Holds the write lock of the database named on its command line for as long as
# its second argument says, like an operator's sqlite3 shell in a transaction.
LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE schema_version SET version = version")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
"""


def _database_with_finished_matches(db: Path) -> list[str]:
    """One real finished match per game, each copied COPIES_PER_GAME times."""
    with InProcessServer(ServerConfig(), SqliteStore(db)) as server:
        originals = [
            server.run(
                play_match(
                    server.address,
                    case.game,
                    [SlowBot(seat) for seat in range(case.players)],
                    seed=7,
                    options=case.options,
                )
            ).match_id
            for case in game_cases()
        ]
    copies = []
    with sqlite3.connect(db, isolation_level=None) as con:
        columns = {
            table: [row[1] for row in con.execute(f"PRAGMA table_info({table})")]
            for table in ("matches", "moves")
        }

        def copy(table: str, original: str, n: int) -> None:
            names = columns[table]
            chosen = [
                "printf('%s-%05d', match_id, n.i)"
                if c == "match_id"
                else "created_at - n.i"
                if c == "created_at"
                else c
                for c in names
            ]
            con.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
                f" INSERT INTO {table} ({', '.join(names)})"
                f" SELECT {', '.join(chosen)} FROM {table}, n WHERE match_id = ?",
                (n, original),
            )

        con.execute("BEGIN")
        for original in originals:
            copy("matches", original, COPIES_PER_GAME)
            copy("moves", original, COPIES_PER_GAME)
            copies += [f"{original}-{i:05d}" for i in range(1, COPIES_PER_GAME + 1)]
        con.execute("COMMIT")
    return copies


async def _bystander(address: str, stop: asyncio.Event) -> list[arena_pb2.MatchResult]:
    """Matches with a tight clock, one after another until told to stop; the bots
    answer at once, so any strike is the server's fault."""
    results = []
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        while not stop.is_set() or not results:
            created = await stub.CreateMatch(
                create_request(BYSTANDER, len(results), decision_seconds=1.0, max_strikes=3)
            )
            seats = await asyncio.gather(
                *(
                    play(SlowBot(seat), address, created.match_id, token, seat)
                    for seat, token in enumerate(created.seat_tokens)
                )
            )
            results.append(seats[0])
    return results


async def _hammer(address: str, stored: list[str], stop: asyncio.Event) -> list[int]:
    """What the issue's attacker did: big listings (of every game, so each stored
    match is in one), many GetMatch, a few replays."""
    listed = []
    finished = arena_pb2.MATCH_STATUS_FINISHED
    requests = [arena_pb2.ListMatchesRequest(limit=1000, status=finished)] + [
        arena_pb2.ListMatchesRequest(game=case.game, limit=1000, status=finished)
        for case in game_cases()
    ]
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        try:
            for round_ in range(3):
                listings = await asyncio.gather(
                    *(stub.ListMatches(request, timeout=60) for request in requests)
                )
                listed += [len(listing.matches) for listing in listings]
                assert all(
                    m.status == arena_pb2.MATCH_STATUS_FINISHED and m.result.scores
                    for listing in listings
                    for m in listing.matches
                )
                picked = stored[round_::20]
                infos = await asyncio.gather(
                    *(
                        stub.GetMatch(arena_pb2.GetMatchRequest(match_id=m), timeout=60)
                        for m in picked
                    )
                )
                assert all(
                    info.status == arena_pb2.MATCH_STATUS_FINISHED and info.result.scores
                    for info in infos
                )
                replay = await stub.GetReplay(
                    arena_pb2.GetReplayRequest(match_id=picked[0]), timeout=60
                )
                assert replay.actions and replay.result.scores
        finally:
            stop.set()
    return listed


def test_listing_thousands_of_stored_matches_never_stalls_a_live_match(tmp_path: Path) -> None:
    db = tmp_path / "many.db"
    stored = _database_with_finished_matches(db)
    server = start_server_process("--db", str(db))
    try:

        async def scenario() -> tuple[list[arena_pb2.MatchResult], list[int]]:
            stop = asyncio.Event()
            bystander = asyncio.create_task(_bystander(server.address, stop))
            await asyncio.sleep(0.2)  # the bystander is playing before the attack starts
            listed = await _hammer(server.address, stored, stop)
            return await bystander, listed

        results, listed = asyncio.run(scenario())
    finally:
        stop_server_process(server)
    # Per round: every game (1,000 newest), then each game's 750 copies and its original.
    per_game = [1000] + [COPIES_PER_GAME + 1] * len(game_cases())
    assert [min(n, m) for n, m in zip(listed, per_game * 3, strict=True)] == per_game * 3, (
        f"every listing is full, read from the store: {listed}"
    )
    strikes = [seat.strikes for result in results for seat in result.seats]
    assert strikes and not any(strikes), (
        f"the bystander's bots answered at once, yet got strikes {strikes}: "
        "the server's event loop stalled while answering listings"
    )


def _health(address: str, service: str = "") -> int:
    with grpc.insecure_channel(address) as channel:
        return (
            health_pb2_grpc.HealthStub(channel)
            .Check(health_pb2.HealthCheckRequest(service=service), timeout=1.0)
            .status
        )


# Long enough for everything checked while locked to run inside it on a loaded
# machine: 2 s of health checks, a look and a listing (1 s each at most) and the
# create's 1 s write timeout. With 4 s, a CI run's create began so late that the
# lock ended within its wait, and it was written instead of refused.
LOCKED_SECONDS = 7


def test_a_database_locked_by_another_process_slows_the_server_but_never_freezes_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "locked.db"
    server = start_server_process("--db", str(db), "--db-write-timeout", "1", "--metrics-port", "0")
    locker: subprocess.Popen[str] | None = None
    try:
        address = server.address
        started = next(e for e in log_entries(server.log_lines) if e["event"] == "server started")
        metrics_port = int(str(started["metrics_port"]))
        with grpc.insecure_channel(address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(create_request(GARDEN, 3, decision_seconds=2.0))
            match_id = created.match_id

            async def seats() -> list[arena_pb2.MatchResult]:
                return await asyncio.gather(
                    *(
                        play(SlowBot(seat, delay=0.05), address, match_id, token, seat)
                        for seat, token in enumerate(created.seat_tokens)
                    )
                )

            # The bots play on their own thread's loop while this thread attacks.
            results: list[arena_pb2.MatchResult] = []
            bots = threading.Thread(target=lambda: results.extend(asyncio.run(seats())))
            bots.start()
            deadline = time.monotonic() + 20
            while stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).moves < 3:
                assert time.monotonic() < deadline, "the match never got going"
                time.sleep(0.02)

            locker = subprocess.Popen(
                [sys.executable, "-c", LOCKER, str(db), str(LOCKED_SECONDS)],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
            locked_at = time.monotonic()

            # Health answers at once all along, and says the truth; the liveness
            # service stays SERVING (waiting matches are no reason to restart).
            statuses, live = [], []
            while time.monotonic() - locked_at < 2.0:
                statuses.append(_health(address))
                live.append(_health(address, LIVENESS_SERVICE))
                time.sleep(0.05)
            assert health_pb2.HealthCheckResponse.NOT_SERVING in statuses, statuses
            assert set(live) == {health_pb2.HealthCheckResponse.SERVING}, live
            # The one move waiting on the lock is a write not made: the alert on
            # the queue's depth sees it (the queue behind it is empty).
            assert value(scrape(metrics_port), "sheepfold_db_queue_depth") >= 1

            during = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=1.0)
            assert during.status == arena_pb2.MATCH_STATUS_RUNNING
            stuck_at = during.moves
            listed = stub.ListMatches(arena_pb2.ListMatchesRequest(), timeout=1.0)
            assert [m.match_id for m in listed.matches] == [match_id]

            with pytest.raises(grpc.RpcError) as refused:
                stub.CreateMatch(create_request(GARDEN, 4), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            message = refused.value.details() or ""
            assert "database" in message and "locked" in message and "try again" in message
            assert "sqlite3" not in message and "OperationalError" not in message
            assert time.monotonic() - locked_at < LOCKED_SECONDS, "all of the above ran locked"
            assert stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).moves == stuck_at, (
                "no move is applied while it cannot be written"
            )

            assert locker.wait(timeout=10) == 0
            bots.join(timeout=60)
            assert not bots.is_alive(), "the match finished after the lock was released"
            assert len(results) == 2
            assert [s.strikes for s in results[0].seats] == [0, 0], "waiting cost no seat a strike"

            deadline = time.monotonic() + 10
            while _health(address) != health_pb2.HealthCheckResponse.SERVING:
                assert time.monotonic() < deadline, "health came back to SERVING"
                time.sleep(0.05)
            again = stub.CreateMatch(create_request(GARDEN, 5))
            assert again.match_id
        replay = asyncio.run(get_replay(address, match_id))
        assert_replay_reproduces_result(replay)
    finally:
        if locker is not None and locker.poll() is None:
            locker.kill()
            locker.wait()
        stop_server_process(server)
    events = [entry["event"] for entry in log_entries(server.log_lines)]
    assert "database write waiting" in events
    assert not any("match loop failed" in str(e) for e in events)
    with sqlite3.connect(db) as con:
        (moves,) = con.execute(
            "SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,)
        ).fetchone()
    assert moves == len(replay.actions), "every move was written, in order, after the wait"


def test_a_finished_match_leaves_memory_and_is_answered_the_same_from_the_file(
    tmp_path: Path,
) -> None:
    """Once its result is written a match is no longer held by the server; GetMatch,
    ListMatches, GetReplay and a late join answer from the stored row as they did
    while it was held."""
    with InProcessServer(ServerConfig(), SqliteStore(tmp_path / "s.db")) as server:
        registry = server.server.registry
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(create_request(GARDEN, 11, time_bank_seconds=3.0))
            match_id = created.match_id
            held = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
            assert registry.hosted(match_id) is not None
            seats = [RawSeat(stub) for _ in created.seat_tokens]
            for seat, (raw, token) in enumerate(zip(seats, created.seat_tokens, strict=True)):
                raw.join(match_id, token, seat)
            results: dict[int, arena_pb2.MatchResult] = {}
            players = [
                threading.Thread(target=lambda n=n: results.update({n: seats[n].play_to_end()}))
                for n in range(len(seats))
            ]
            for thread in players:
                thread.start()
            for thread in players:
                thread.join(timeout=60)
            assert len(results) == 2, "both seats played to the end"
            deadline = time.monotonic() + 10
            while registry.hosted(match_id) is not None:
                assert time.monotonic() < deadline, "the finished match is dropped from memory"
                time.sleep(0.02)
            assert list(registry.all()) == [], "nothing finished is kept in memory"

            stored = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
            replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id))
            assert stored.status == arena_pb2.MATCH_STATUS_FINISHED
            assert stored.result == results[0] == replay.result
            assert stored.seed == 11 and stored.moves == len(replay.actions) > 0
            assert [
                (s.seat, s.connected, s.strikes, s.disqualified, s.time_bank_seconds)
                for s in stored.seats
            ] == [
                (s.seat, False, s.strikes, s.disqualified, s.time_bank_seconds)
                for s in results[0].seats
            ]
            assert (stored.game, stored.players, stored.options, stored.clock) == (
                held.game,
                held.players,
                held.options,
                held.clock,
            )
            assert stored.created_at == held.created_at
            assert list(stub.ListMatches(arena_pb2.ListMatchesRequest()).matches) == [stored]
            assert_replay_reproduces_result(replay)

            late = RawSeat(stub)
            late.join(match_id, created.seat_tokens[0])
            assert late.status() == grpc.StatusCode.FAILED_PRECONDITION
            forged = RawSeat(stub)
            forged.join(match_id, "not-a-token")
            assert forged.status() == grpc.StatusCode.UNAUTHENTICATED


def test_a_create_its_caller_left_while_the_database_was_locked_is_not_left_unknown(
    tmp_path: Path,
) -> None:
    """A CreateMatch whose caller gives up (its deadline, a cancel) while the
    write waits for a lock held by another process: the writer thread still
    writes the row once the lock is gone. The server must then know that
    match: its row once lay in the file as a match still to be played that
    GetMatch called NOT_FOUND, never aborted, until a restart brought it back."""
    db = tmp_path / "left.db"
    server = start_server_process(
        "--db", str(db), "--start-timeout", "1", "--max-live-matches", "1"
    )
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            locker = subprocess.Popen(
                [sys.executable, "-c", LOCKER, str(db), "2.5"], stdout=subprocess.PIPE, text=True
            )
            assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
            with pytest.raises(grpc.RpcError) as left:
                stub.CreateMatch(create_request(GARDEN, 5), timeout=1.0)
            assert left.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            # The write still to come holds its live-match place.
            with pytest.raises(grpc.RpcError) as full:
                stub.CreateMatch(create_request(GARDEN, 6), timeout=0.5)
            assert full.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert locker.wait(timeout=10) == 0
            deadline = time.monotonic() + 15
            while True:
                with sqlite3.connect(db) as reader:
                    rows = reader.execute("SELECT match_id, status FROM matches").fetchall()
                if rows and rows[0][1] != "running":
                    break
                assert time.monotonic() < deadline, f"the match was never ended: {rows}"
                time.sleep(0.1)
            [(match_id, status)] = rows
            assert status == "aborted"
            info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), timeout=5)
            assert info.status == arena_pb2.MATCH_STATUS_ABORTED
            assert info.result.end_reason == "no seat joined within the start timeout"
            assert stub.CreateMatch(create_request(GARDEN, 7), timeout=5).match_id
    finally:
        stop_server_process(server)
    assert not [line for line in server.log_lines if not line.startswith("{")]


def test_a_write_the_database_refuses_is_a_clear_internal_error(tmp_path: Path) -> None:
    """A database that refuses for good (here a trigger an operator added) gets
    INTERNAL with a sentence, not UNKNOWN with a raw sqlite3 exception."""
    db = tmp_path / "refusing.db"
    SqliteStore(db).close()
    with sqlite3.connect(db) as con:
        con.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON matches"
            " BEGIN SELECT RAISE(ABORT, 'no new matches today'); END"
        )
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateMatch(create_request(GARDEN, 1), timeout=10)
        assert refused.value.code() == grpc.StatusCode.INTERNAL
        assert refused.value.details() == (
            "the database refused to create match: no new matches today"
        )
        assert list(server.server.registry.all()) == [], "nothing half-created"
        assert stub.ListMatches(arena_pb2.ListMatchesRequest()).matches == []


def test_a_move_dropped_at_shutdown_is_logged_as_json_and_exits_1(tmp_path: Path) -> None:
    """SIGTERM while a move waits on a database another process holds: the move is
    dropped after the grace and logged so, one JSON object per line. asyncio once
    added three raw lines ("Future exception was never retrieved", ...). `serve`
    then exits 1, its last line counting the writes dropped: it exited 0, which
    told a supervisor that all was kept."""
    db = tmp_path / "held.db"
    server = start_server_process("--db", str(db), "--log-format", "json")
    locker: subprocess.Popen[str] | None = None
    seats: list[RawSeat] = []
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(
                create_request(Case("sheep-n-sheep", 2, {}), 3, decision_seconds=30.0)
            )
            for token in created.seat_tokens:
                seat = RawSeat(stub)
                seat.join(created.match_id, token)
                seat.next("joined")
                seats.append(seat)
            decision = seats[0].next("decision").decision
            locker = subprocess.Popen(
                [sys.executable, "-c", LOCKER, str(db), "15"], stdout=subprocess.PIPE, text=True
            )
            assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
            seats[0].answer(decision.decision_id, 0)
            deadline = time.monotonic() + 10
            while _health(server.address) != health_pb2.HealthCheckResponse.NOT_SERVING:
                assert time.monotonic() < deadline, "the move never waited on the lock"
                time.sleep(0.05)
            assert stop_server_process(server) == 1
    finally:
        for seat in seats:
            seat.close()
        if locker is not None and locker.poll() is None:
            locker.kill()
            locker.wait()
        if server.process.poll() is None:
            stop_server_process(server)
    entries = log_entries(server.log_lines)  # every line parsed as JSON
    assert len(entries) == len([line for line in server.log_lines if line.strip()])
    assert "database write dropped at shutdown" in [entry["event"] for entry in entries]
    last = entries[-1]
    assert (last["level"], last["event"], last["writes_dropped"]) == (
        "error",
        "server stopped with database writes dropped: their matches continue from "
        "their last written move when the server starts again on this database",
        1,
    )
    # As that line says: restarted once the lock is gone, the match waits for its
    # seats at the move that was dropped, none made.
    again = start_server_process("--db", str(db))
    try:
        with grpc.insecure_channel(again.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
            assert info.status in {arena_pb2.MATCH_STATUS_WAITING, arena_pb2.MATCH_STATUS_RUNNING}
            assert info.moves == 0
    finally:
        assert stop_server_process(again) == 0
