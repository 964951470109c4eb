"""What the start timeout does: a match that nobody joined by then is aborted
(played out by its clocks it would only be the server's own moves, and a flood
of such matches once starved every live match); a match that somebody joined
starts with whoever is there, and the missing seats are played by their clocks.
Across a restart the same holds: whether a seat ever joined is in the database."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import grpc
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import serving_here
from server.match import Match
from server.records import ClockConfig, MatchRecord, RecordedMove, hash_token, new_seat_token
from server.rulings import NOBODY_JOINED
from server.sqlite_schema import SCHEMA_VERSION, migrate, schema_version
from server.sqlite_store import SqliteStore
from server.store import MemoryStore

ABORTED = "the match was aborted: no seat joined within the start timeout"


async def _get(address: str, match_id: str) -> arena_pb2.MatchInfo:
    async with grpc.aio.insecure_channel(address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=5
        )


async def _restored_past_the_start_timeout(
    store: SqliteStore, match_id: str
) -> arena_pb2.MatchInfo:
    """The match as a server restarted on `store` shows it once the start
    timeout has passed with nobody back."""
    async with serving_here(ServerConfig(start_timeout=0.3), store) as address:
        await asyncio.sleep(1.0)
        return await _get(address, match_id)


async def _wait_for_status(address: str, match_id: str, status: int) -> arena_pb2.MatchInfo:
    for _ in range(200):
        info = await _get(address, match_id)
        if info.status == status:
            return info
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {match_id} stayed {arena_pb2.MatchStatus.Name(info.status)}")


async def _join(address: str, match_id: str, token: str) -> tuple[grpc.StatusCode, str]:
    async with grpc.aio.insecure_channel(address) as channel:
        call = arena_pb2_grpc.ArenaStub(channel).Play()
        await call.write(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token)))
        try:
            async for _ in call:
                pass
        except grpc.aio.AioRpcError as error:
            return error.code(), error.details() or ""
        raise AssertionError("the join was not refused")


def test_a_match_nobody_joined_is_aborted_at_the_start_timeout() -> None:
    async def scenario() -> None:
        config = ServerConfig(start_timeout=0.5, max_live_matches=1)
        async with serving_here(config) as address:
            created = await create_match(address, "sheep-showdown", 3, seed=4)
            info = await _wait_for_status(address, created.match_id, arena_pb2.MATCH_STATUS_ABORTED)
            assert info.moves == 0, "no move was forced for seats nobody played"
            assert info.result.end_reason == "no seat joined within the start timeout"
            assert not info.result.scores, "no result for a game nobody played"
            assert len(info.seats) == 3, "its seats are listed, as any match's"
            assert not any(s.joined or s.disqualified or s.strikes for s in info.seats)
            # Its seat at the live-match bound is free again.
            again = await create_match(address, "sheep-showdown", 3, seed=5)
            assert again.match_id != created.match_id
            # A seat arriving late is told why it cannot play, not "no match".
            code, details = await _join(address, created.match_id, created.seat_tokens[1])
            assert (code, details) == (grpc.StatusCode.FAILED_PRECONDITION, ABORTED)

    asyncio.run(scenario())


def test_a_match_somebody_joined_starts_and_its_clocks_play_the_missing_seats() -> None:
    async def scenario() -> None:
        config = ServerConfig(start_timeout=0.5)
        async with serving_here(config) as address:
            created = await create_match(
                address,
                "sheep-n-sheep",
                2,
                seed=6,
                # Long enough for the seat that came to answer on a loaded machine:
                # at 0.05 s it too was disqualified there.
                clock=arena_pb2.ClockSettings(decision_seconds=0.5, max_strikes=2),
            )
            result = await asyncio.wait_for(
                play(RandomBot(1), address, created.match_id, created.seat_tokens[0]), 60
            )
            info = await _get(address, created.match_id)
            assert info.status == arena_pb2.MATCH_STATUS_FINISHED
            assert [seat.disqualified for seat in info.seats] == [False, True]
            assert list(result.ranks) == [1, 2], "the seat that never came is ranked last"

    asyncio.run(scenario())


def test_a_restored_match_whose_seats_had_joined_is_not_aborted(tmp_path: Path) -> None:
    """Both seats joined, then the server restarted before the first move: the
    restored match waits for them and then runs on its clocks, as any restored
    match does. Its seats did join; "no seat joined" would be false."""

    async def joined_then_stopped(store: SqliteStore) -> str:
        async with serving_here(ServerConfig(), store) as address:
            created = await create_match(
                address,
                "sheep-n-sheep",
                2,
                seed=8,
                clock=arena_pb2.ClockSettings(decision_seconds=60),
            )
            async with grpc.aio.insecure_channel(address) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                calls = [stub.Play() for _ in created.seat_tokens]
                for call, token in zip(calls, created.seat_tokens, strict=True):
                    join = arena_pb2.Join(match_id=created.match_id, token=token)
                    await call.write(arena_pb2.PlayRequest(join=join))
                info = await _wait_for_status(
                    address, created.match_id, arena_pb2.MATCH_STATUS_RUNNING
                )
                assert info.moves == 0 and all(seat.joined for seat in info.seats)
                for call in calls:
                    call.cancel()
        return created.match_id

    db = tmp_path / "restart.db"
    match_id = asyncio.run(joined_then_stopped(SqliteStore(db)))
    info = asyncio.run(_restored_past_the_start_timeout(SqliteStore(db), match_id))
    assert info.status == arena_pb2.MATCH_STATUS_RUNNING, info.result.end_reason


def test_a_restored_match_no_seat_ever_joined_is_aborted_at_the_start_timeout(
    tmp_path: Path,
) -> None:
    """Created, never joined, then the server restarted: the restored match is
    aborted at the start timeout as a new one is, with no move (a flood of
    matches nobody joined is not played out by its clocks after a restart). A
    restored match that a seat joins after the restart plays on."""

    async def created_then_stopped(store: SqliteStore) -> list[arena_pb2.CreateMatchResponse]:
        async with serving_here(ServerConfig(start_timeout=60), store) as address:
            return [await create_match(address, "sheep-n-sheep", 2, seed=s) for s in (9, 10)]

    async def restarted(
        store: SqliteStore,
        unjoined: arena_pb2.CreateMatchResponse,
        joined_now: arena_pb2.CreateMatchResponse,
    ) -> None:
        started = time.monotonic()
        async with serving_here(ServerConfig(start_timeout=1.0), store) as address:
            first = await _get(address, unjoined.match_id)
            assert first.status == arena_pb2.MATCH_STATUS_WAITING, "restored, it waits first"
            async with grpc.aio.insecure_channel(address) as channel:
                call = arena_pb2_grpc.ArenaStub(channel).Play()
                join = arena_pb2.Join(match_id=joined_now.match_id, token=joined_now.seat_tokens[0])
                await call.write(arena_pb2.PlayRequest(join=join))
                info = await _wait_for_status(
                    address, unjoined.match_id, arena_pb2.MATCH_STATUS_ABORTED
                )
                assert time.monotonic() - started >= 1.0, "not before the start timeout"
                assert info.moves == 0
                assert info.result.end_reason == NOBODY_JOINED
                assert not info.result.scores
                code, details = await _join(address, unjoined.match_id, unjoined.seat_tokens[1])
                assert (code, details) == (grpc.StatusCode.FAILED_PRECONDITION, ABORTED)
                await _wait_for_status(address, joined_now.match_id, arena_pb2.MATCH_STATUS_RUNNING)
                call.cancel()

    db = tmp_path / "restart.db"
    unjoined, later = asyncio.run(created_then_stopped(SqliteStore(db)))
    asyncio.run(restarted(SqliteStore(db), unjoined, later))
    store = SqliteStore(db)
    aborted = store.load(unjoined.match_id)
    assert aborted is not None
    assert (aborted.status, aborted.end_reason, aborted.moves) == ("aborted", NOBODY_JOINED, [])
    playing = store.load(later.match_id)
    assert playing is not None and playing.status == "running" and playing.seat_joined
    store.close()


def test_a_restored_match_one_seat_joined_before_the_restart_is_not_aborted(
    tmp_path: Path,
) -> None:
    """One seat of three joined, no move yet, then the server restarted: the join
    was written, and the restored match runs on its clocks after the start
    timeout with whoever comes back, as before; it is never taken for a match
    nobody joined."""

    async def one_seat_joined_then_stopped(store: SqliteStore) -> str:
        async with serving_here(ServerConfig(start_timeout=60), store) as address:
            created = await create_match(
                address,
                "sheep-showdown",
                3,
                seed=11,
                clock=arena_pb2.ClockSettings(decision_seconds=60),
            )
            async with grpc.aio.insecure_channel(address) as channel:
                call = arena_pb2_grpc.ArenaStub(channel).Play()
                join = arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[1])
                await call.write(arena_pb2.PlayRequest(join=join))
                await call.read()  # Joined
                info = await _get(address, created.match_id)
                assert [seat.joined for seat in info.seats] == [False, True, False]
                assert info.status == arena_pb2.MATCH_STATUS_WAITING and info.moves == 0
                call.cancel()
        return created.match_id

    db = tmp_path / "restart.db"
    match_id = asyncio.run(one_seat_joined_then_stopped(SqliteStore(db)))
    store = SqliteStore(db)
    stored = store.load(match_id)
    store.close()
    assert stored is not None and stored.seat_joined and not stored.moves
    info = asyncio.run(_restored_past_the_start_timeout(SqliteStore(db), match_id))
    assert info.status == arena_pb2.MATCH_STATUS_RUNNING, info.result.end_reason


def test_unfinished_matches_of_an_older_database_are_not_aborted_as_unjoined(
    tmp_path: Path,
) -> None:
    """A file written before joins were recorded (schema version 4) is migrated;
    nobody knows whether its matches' seats joined, so none is aborted for it,
    with a move or without: the upgrade never ends a match that was being played."""
    db = tmp_path / "v4.db"
    with closing(sqlite3.connect(db, isolation_level=None)) as old:
        assert migrate(old, upto=4) == 4
        for match_id, moves in (("nomoves", 0), ("onemove", 1)):
            _write_as_schema_4(old, match_id, moves)

    async def restored() -> list[arena_pb2.MatchInfo]:
        async with serving_here(ServerConfig(start_timeout=0.3), SqliteStore(db)) as address:
            await asyncio.sleep(1.0)  # past the start timeout, nobody back
            return [await _get(address, match_id) for match_id in ("nomoves", "onemove")]

    infos = asyncio.run(restored())
    assert [info.status for info in infos] == [arena_pb2.MATCH_STATUS_RUNNING] * 2, [
        info.result.end_reason for info in infos
    ]
    with closing(sqlite3.connect(db)) as migrated:
        assert schema_version(migrated) == SCHEMA_VERSION
        joined = dict(migrated.execute("SELECT match_id, seat_joined FROM matches"))
    assert joined == {"nomoves": 1, "onemove": 1}


def _write_as_schema_4(db: sqlite3.Connection, match_id: str, moves: int) -> None:
    """An unfinished match as a server of schema version 4 wrote it: its row as
    CreateMatch inserted it, and `moves` moves (each the first legal action)."""
    game = games.get("sheep-n-sheep")
    db.execute(
        "INSERT INTO matches (match_id, game, players, options_json, seed,"
        " decision_seconds, time_bank_seconds, max_strikes, token_hashes_json,"
        " created_at, status, rules_version)"
        " VALUES (?, ?, 2, '{}', '12', 60.0, 0.0, 3, ?, ?, 'running', ?)",
        (
            match_id,
            game.name,
            json.dumps([hash_token(new_seat_token()) for _ in range(2)]),
            time.time(),
            game.rules_version,
        ),
    )
    state = game.new_state(2, 12, {})
    for number in range(1, moves + 1):
        seat, action = state.to_move, state.legal_actions()[0]
        state.apply(action)
        db.execute(
            "INSERT INTO moves (match_id, move, seat, action_index, label, forced, bank)"
            " VALUES (?, ?, ?, 0, ?, '', 0.0)",
            (match_id, number, seat, action.label),
        )


def test_seats_that_all_joined_as_the_start_timeout_fired_are_not_called_missing() -> None:
    """The timeout can fire between the last join and the loop waking to it: the
    match then starts with every seat, and says nothing of seats missing."""

    async def scenario() -> list[dict[str, object]]:
        game = games.get("sheep-showdown")
        record = MatchRecord(
            match_id="m",
            game=game.name,
            players=2,
            options={},
            seed=3,
            clock=ClockConfig(),
            token_hashes=("a", "b"),
            created_at=0.0,
        )
        with structlog.testing.capture_logs() as logs:
            match = Match(record, game, MemoryStore(), start_timeout=0.2)
            match.start()
            await asyncio.sleep(0.05)
            for seat in match.seats:  # joined, the loop not yet told
                seat.joined = True
            match.ever_joined = True
            await asyncio.sleep(0.4)
            await match.stop("test over")
        return logs

    logs = asyncio.run(scenario())
    assert "match running" in [line["event"] for line in logs]
    assert not [line for line in logs if "without every seat" in str(line["event"])]


def test_a_restored_match_with_a_move_but_no_join_written_is_not_aborted(
    tmp_path: Path,
) -> None:
    """A match whose first join the database lacks (the server died before
    that write was made) but that has a move is a match that was played:
    restored with nobody back by the start timeout, it runs on its clocks;
    it is not aborted as one nobody joined, its moves thrown away."""
    game = games.get("sheep-n-sheep")
    record = MatchRecord(
        match_id="played-unjoined",
        game=game.name,
        players=2,
        options={},
        seed=12,
        clock=ClockConfig(decision_seconds=60),
        token_hashes=tuple(hash_token(new_seat_token()) for _ in range(2)),
        created_at=time.time(),
        rules_version=game.rules_version,
    )
    state = game.new_state(2, record.seed, {})
    seat, action = state.to_move, state.legal_actions()[0]
    assert seat is not None
    db = tmp_path / "restart.db"
    store = SqliteStore(db)
    store.create_match(record)
    # A move forced by the clock: nothing in it says a seat joined either.
    store.record_move(record.match_id, RecordedMove(1, seat, 0, action.label, "timeout", 0.0))
    stored = store.load(record.match_id)
    store.close()
    assert stored is not None and not stored.seat_joined and len(stored.moves) == 1

    info = asyncio.run(_restored_past_the_start_timeout(SqliteStore(db), record.match_id))
    assert info.status == arena_pb2.MATCH_STATUS_RUNNING, info.result.end_reason
    assert info.moves == 1


def test_a_seat_that_moved_in_an_older_database_is_shown_as_joined(tmp_path: Path) -> None:
    """A file written before each seat's join was recorded (schema version 4)
    says nothing of which seats joined; a seat that answered a decision did.
    Restored, that seat is shown joined (GetMatch, and the result it goes
    into), the seat that never moved not."""
    db = tmp_path / "v4.db"
    with closing(sqlite3.connect(db, isolation_level=None)) as old:
        assert migrate(old, upto=4) == 4
        _write_as_schema_4(old, "onemove", 1)
    mover = games.get("sheep-n-sheep").new_state(2, 12, {}).to_move
    assert mover is not None

    info = asyncio.run(_restored_past_the_start_timeout(SqliteStore(db), "onemove"))
    assert info.moves == 1
    assert [seat.joined for seat in info.seats] == [seat == mover for seat in range(2)]
