"""Resident memory per live match: RSS of `sheepfold serve` before and after
creating many matches (each waiting for its seats, its state set up)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from benchmarks import procs, serving

BATCH = 50  # CreateMatch calls in flight at once


@dataclass(frozen=True, slots=True)
class MemoryResult:
    game: str
    players: int
    matches: int
    rss_before: int
    rss_after: int
    bytes_per_match: float
    create_seconds: float


async def _create(address: str, game: str, players: int, count: int) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for start in range(0, count, BATCH):
            await asyncio.gather(
                *(
                    stub.CreateMatch(
                        arena_pb2.CreateMatchRequest(game=game, players=players, seed=seed),
                        wait_for_ready=True,
                    )
                    for seed in range(start, min(count, start + BATCH))
                )
            )


def measure(game: str, players: int, matches: int) -> MemoryResult:
    server = procs.start(serving.server_command())
    try:
        # One match first, so lazily imported modules (the game, its codec) are
        # not charged to the matches.
        asyncio.run(_create(server.address, game, players, 1))
        time.sleep(0.3)
        before = procs.sample(server.pid).rss_bytes
        started = time.perf_counter()
        asyncio.run(_create(server.address, game, players, matches))
        elapsed = time.perf_counter() - started
        time.sleep(0.5)
        after = procs.sample(server.pid).rss_bytes
    finally:
        procs.stop(server)
    return MemoryResult(
        game=game,
        players=players,
        matches=matches,
        rss_before=before,
        rss_after=after,
        bytes_per_match=(after - before) / matches,
        create_seconds=elapsed,
    )


def run(games_and_players: list[tuple[str, int]], matches: int) -> list[MemoryResult]:
    return [measure(game, players, matches) for game, players in games_and_players]
