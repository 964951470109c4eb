"""Soak: thousands of short matches through one `sheepfold serve` with a SQLite
file, bounded in time. Every `every` finished matches it samples the server's
resident memory, its open file descriptors and the database's size, so a leak
shows as a slope: after the warm-up, memory and open files must stay flat,
and the database grows by a fixed number of bytes per match.

The bots (random, answering at once) run in this process; only the server
subprocess is measured.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from benchmarks import procs
from clients.sdk import DecisionView, play
from server import launch

CONCURRENCY = 16  # matches in flight at once


@dataclass(frozen=True, slots=True)
class SoakSample:
    matches: int
    seconds: float
    rss_bytes: int
    open_files: int
    db_bytes: int


@dataclass(slots=True)
class SoakResult:
    game: str
    players: int
    options: dict[str, str]
    warmup_matches: int
    samples: list[SoakSample] = field(default_factory=list)
    # The file once the server has stopped and its WAL is folded in.
    final_db_bytes: int = 0
    end: SoakSample | None = None  # after the last match, with every client gone

    @property
    def matches(self) -> int:
        return self.end.matches if self.end else 0

    def _after_warmup(self) -> list[SoakSample]:
        return [s for s in self.samples if s.matches >= self.warmup_matches]

    @property
    def rss_growth_per_1000(self) -> float | None:
        """Resident bytes gained per 1,000 matches after the warm-up (least squares)."""
        return _slope(self._after_warmup(), "rss_bytes")

    @property
    def open_files_growth_per_1000(self) -> float | None:
        return _slope(self._after_warmup(), "open_files")

    @property
    def db_bytes_per_match(self) -> float | None:
        """The database file per finished match, measured once the server stopped."""
        if not self.matches or not self.final_db_bytes:
            return None
        return self.final_db_bytes / self.matches


def _slope(samples: list[SoakSample], attribute: str) -> float | None:
    if len(samples) < 2:
        return None
    xs = [s.matches for s in samples]
    ys = [float(getattr(s, attribute)) for s in samples]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    return 1000 * sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread


class _QuickBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: DecisionView) -> int:
        return self.rng.randrange(len(decision.actions))


def _sample(pid: int, db: Path, matches: int, seconds: float) -> SoakSample:
    rss = procs.sample(pid).rss_bytes
    return SoakSample(matches, seconds, rss, _open_files(pid), _db_bytes(db))


def _open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _db_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())


async def _soak(
    address: str,
    pid: int,
    db: Path,
    result: SoakResult,
    matches: int,
    seconds: float,
    every: int,
) -> None:
    started = time.perf_counter()
    finished = 0
    next_sample = 0
    created = 0

    def sample() -> None:
        result.samples.append(_sample(pid, db, finished, time.perf_counter() - started))

    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)

        async def one_after_another() -> None:
            nonlocal finished, next_sample, created
            while created < matches and time.perf_counter() - started < seconds:
                seed = created
                created += 1
                match = await stub.CreateMatch(
                    arena_pb2.CreateMatchRequest(
                        game=result.game,
                        players=result.players,
                        options=result.options,
                        seed=seed,
                    ),
                    wait_for_ready=True,
                )
                await asyncio.gather(
                    *(
                        play(_QuickBot(seed * 8 + seat), address, match.match_id, token, seat)
                        for seat, token in enumerate(match.seat_tokens)
                    )
                )
                finished += 1
                # Sampled only while every slot still plays: at the end connections close.
                if finished >= next_sample and created < matches:
                    next_sample += every
                    sample()

        await asyncio.gather(*(one_after_another() for _ in range(CONCURRENCY)))
    # Kept apart: connections close as the last matches end, so open files drop.
    result.end = _sample(pid, db, finished, time.perf_counter() - started)


def run(
    game: str,
    players: int,
    options: dict[str, str],
    matches: int,
    seconds: float,
    warmup: int,
    every: int = 250,
) -> SoakResult:
    result = SoakResult(game, players, dict(options), warmup)
    with tempfile.TemporaryDirectory(prefix="sheepfold-soak-") as folder:
        db = Path(folder) / "soak.db"
        server = procs.start(launch.serve_command("--db", str(db), "--start-timeout", "300"))
        try:
            asyncio.run(_soak(server.address, server.pid, db, result, matches, seconds, every))
        finally:
            procs.stop(server)
        with sqlite3.connect(db) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        result.final_db_bytes = db.stat().st_size
    return result
