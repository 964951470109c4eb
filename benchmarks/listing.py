"""What a ListMatches costs the event loop with many hosted matches.

    python -m benchmarks.listing --matches 10000

Hosts `--matches` live matches in this process (half waiting for their seats,
half running; nobody plays them) beside `--ended` aborted ones in a SQLite
file, then asks the registry for each filter the API has (every status and
each one, every game and one game), for the web viewer's list (which, once
its newest 200 are cut, asks again for the running and the waiting ones), and
for a page a quarter of the way down the listing (a client paging on). It
prints the event loop's CPU time per call, the median of `--calls` calls: the
time every match's decisions wait while a listing is made. The store's read
runs on a reader thread and is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import structlog

from cli.values import whole_number
from server.match import Status
from server.page_tokens import Position
from server.records import ClockConfig
from server.registry import MatchRegistry
from server.sqlite_store import SqliteStore
from server.storage import StoreWorker

GAME = "sheep-showdown"
WEB_LIMIT = 200


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.listing",
        description="the event loop's time per ListMatches with many hosted matches",
    )
    # Four matches at least: the deep page starts a quarter of the way down.
    parser.add_argument(
        "--matches", type=whole_number(4, 1_000_000), default=10_000, help="live matches hosted"
    )
    parser.add_argument(
        "--ended", type=whole_number(0, 1_000_000), default=500, help="aborted matches stored"
    )
    parser.add_argument(
        "--calls", type=whole_number(1, 100_000), default=50, help="calls timed per filter"
    )
    return parser.parse_args(argv)


async def _host(registry: MatchRegistry, count: int, start_timeout: float) -> None:
    registry.start_timeout = start_timeout
    for number in range(count):
        match, _ = await registry.create(GAME, 2, {}, number, ClockConfig())
        if number % 2:
            match.status = Status.RUNNING  # as if its seats had joined


async def _web_list(registry: MatchRegistry) -> None:
    """What web/listing.py asks once its list is cut at `WEB_LIMIT`."""
    found = await registry.listing("", None, WEB_LIMIT)
    if len(found) >= WEB_LIMIT:
        for status in (Status.RUNNING, Status.WAITING):
            await registry.listing("", status, WEB_LIMIT)


async def _loop_time(call: Callable[[], Awaitable[object]], calls: int) -> float:
    """The median CPU time of this (the event loop's) thread per call, in ms."""
    spent = []
    for _ in range(calls):
        start = time.thread_time()
        await call()
        spent.append(time.thread_time() - start)
    return statistics.median(spent) * 1000


async def _measure(args: argparse.Namespace, folder: Path) -> None:
    store = StoreWorker(SqliteStore(folder / "listing.db"))
    registry = MatchRegistry(store, max_live_matches=args.matches + args.ended + 1)
    await _host(registry, args.ended, 0.05)
    while any(True for _ in registry.all()):  # the ended ones aborted and dropped
        await asyncio.sleep(0.05)
    await _host(registry, args.matches, 3600.0)
    statuses: dict[str, Status | None] = {"any": None} | {s.name.lower(): s for s in Status}
    print(f"{args.matches} live matches, {args.ended} ended; event-loop ms per call (median)")
    for limit in (1, 100, 1000):
        for game in ("", GAME):
            for name, status in statuses.items():
                ms = await _loop_time(
                    functools.partial(registry.listing, game, status, limit), args.calls
                )
                print(f"  limit={limit:<5} game={game or '*':<15} status={name:<9} {ms:7.3f}")
    ms = await _loop_time(functools.partial(_web_list, registry), args.calls)
    print(f"  web viewer's list (3 calls)                        {ms:7.3f}")
    for name, status in (("any", None), ("running", Status.RUNNING)):
        # A page deep in the listing: what a client paging through every match asks.
        skipped = await registry.listing("", status, args.matches // 4)
        after = Position.of(skipped[-1].created_at, skipped[-1].match_id)
        ms = await _loop_time(
            functools.partial(registry.listing, "", status, 100, after), args.calls
        )
        print(f"  limit=100   after {len(skipped):<6} status={name:<9}             {ms:7.3f}")
    await registry.shutdown("benchmark over")
    await store.close()


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_measure(args, Path(folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
