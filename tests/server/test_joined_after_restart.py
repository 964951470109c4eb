"""SeatInfo.joined says a seat joined at least once: across a restart too, for
a seat whose answers are in the database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.matchplay import create_match
from server.app import ServerConfig
from server.inprocess import serving_here
from server.sqlite_store import SqliteStore

MOVES_BEFORE_THE_RESTART = 6


async def _info(address: str, match_id: str) -> arena_pb2.MatchInfo:
    async with grpc.aio.insecure_channel(address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=5
        )


async def _seat(stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str) -> None:
    """Join and answer every decision with the first action, until cancelled."""
    answers: asyncio.Queue[arena_pb2.PlayRequest] = asyncio.Queue()
    call = stub.Play()
    await call.write(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token)))

    async def write() -> None:
        while True:
            await call.write(await answers.get())

    writer = asyncio.create_task(write())
    try:
        async for response in call:
            if response.HasField("decision"):
                answer = arena_pb2.Answer(decision_id=response.decision.decision_id)
                answers.put_nowait(arena_pb2.PlayRequest(answer=answer))
    finally:
        writer.cancel()
        call.cancel()


async def _played_then_stopped(store: SqliteStore) -> tuple[str, list[bool]]:
    """A match both seats joined and played a few moves in, then the server
    stopped; what GetMatch said of its seats' joins before the stop."""
    clock = arena_pb2.ClockSettings(decision_seconds=60)
    async with serving_here(ServerConfig(), store) as address:
        created = await create_match(address, "sheep-n-sheep", 2, seed=5, clock=clock)
        match_id = created.match_id
        async with grpc.aio.insecure_channel(address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            seats = [asyncio.create_task(_seat(stub, match_id, t)) for t in created.seat_tokens]
            for _ in range(400):
                info = await _info(address, match_id)
                if info.moves >= MOVES_BEFORE_THE_RESTART:
                    break
                await asyncio.sleep(0.01)
            for seat in seats:
                seat.cancel()
            await asyncio.gather(*seats, return_exceptions=True)
        info = await _info(address, match_id)
    assert info.status == arena_pb2.MATCH_STATUS_RUNNING
    assert info.moves >= MOVES_BEFORE_THE_RESTART
    return match_id, [seat.joined for seat in info.seats]


def test_seats_that_played_before_a_restart_still_show_as_joined(tmp_path: Path) -> None:
    """Both seats joined and answered decisions, then the server restarted: GetMatch
    said neither had ever joined (joined is kept in memory for the server run), so
    a tournament runner reading it warned that the match had started without
    them, and the result written at the end said so for good."""
    db = tmp_path / "restart.db"
    match_id, before = asyncio.run(_played_then_stopped(SqliteStore(db)))
    assert before == [True, True]
    store = SqliteStore(db)
    stored = store.load(match_id)
    store.close()
    assert stored is not None
    assert {move.seat for move in stored.moves if not move.forced} == {0, 1}, "both answered"

    async def restarted(store: SqliteStore) -> arena_pb2.MatchInfo:
        async with serving_here(ServerConfig(start_timeout=60), store) as address:
            return await _info(address, match_id)

    after = asyncio.run(restarted(SqliteStore(db)))
    assert after.moves >= MOVES_BEFORE_THE_RESTART, "restored with its moves"
    assert [seat.joined for seat in after.seats] == [True, True]
    assert [seat.connected for seat in after.seats] == [False, False], "nobody is back yet"
