"""What the start timeout does: a match that nobody joined by then is aborted
(played out by its clocks it would only be the server's own moves, and a flood
of such matches once starved every live match); a match that somebody joined
starts with whoever is there, and the missing seats are played by their clocks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import serving_here
from server.sqlite_store import SqliteStore

ABORTED = "the match was aborted: no seat joined within the start timeout"


async def _get(address: str, match_id: str) -> arena_pb2.MatchInfo:
    async with grpc.aio.insecure_channel(address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=5
        )


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
                clock=arena_pb2.ClockSettings(decision_seconds=0.05, max_strikes=2),
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

    async def restored(store: SqliteStore, match_id: str) -> arena_pb2.MatchInfo:
        async with serving_here(ServerConfig(start_timeout=0.3), store) as address:
            await asyncio.sleep(1.0)  # past the start timeout, nobody back
            return await _get(address, match_id)

    db = tmp_path / "restart.db"
    match_id = asyncio.run(joined_then_stopped(SqliteStore(db)))
    info = asyncio.run(restored(SqliteStore(db), match_id))
    assert info.status == arena_pb2.MATCH_STATUS_RUNNING, info.result.end_reason
