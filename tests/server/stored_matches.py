"""A database of many stored matches, over before the server starts: what a
listing pages through without playing them all."""

from __future__ import annotations

from pathlib import Path

from sheepfold.v1 import arena_pb2

from server.records import ClockConfig, MatchRecord
from server.sqlite_store import SqliteStore

GAMES = ("sheep-showdown", "stubborn-sheep")


def fill(path: Path, count: int, now: float) -> list[str]:
    """`count` finished matches (every fifth aborted) of GAMES in turn, created
    at whole seconds ending a few minutes after `now` (so matches made next fall
    among them), three at each second; their ids, in the order made."""
    store = SqliteStore(path)
    made = []
    try:
        for number in range(count):
            record = MatchRecord(
                match_id=f"{(number * 7919) % 100_000:016x}",
                game=GAMES[number % 2],
                players=2,
                options={},
                seed=number,
                clock=ClockConfig(),
                token_hashes=("a", "b"),
                created_at=now - count / 6 + number // 3,
            )
            store.create_match(record)
            aborted = number % 5 == 0
            result = arena_pb2.MatchResult(
                scores=[number % 7, 3], ranks=[1, 2] if number % 7 > 3 else [2, 1]
            )
            store.finish_match(
                record.match_id,
                "aborted" if aborted else "finished",
                b"" if aborted else result.SerializeToString(),
                "x" if aborted else "",
            )
            made.append(record.match_id)
    finally:
        store.close()
    return made
