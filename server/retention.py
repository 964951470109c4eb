"""How long finished matches stay in the database, and the task that enforces it.

Pruning goes through the writer queue in small batches, so live matches'
moves are written between two batches and never wait long behind it."""

from __future__ import annotations

import asyncio
import time

import structlog

from server.retention_policy import Retention
from server.storage import StoreWorker
from server.store_errors import StoreRefused, StoreUnavailable

BATCH = 200


async def prune_once(store: StoreWorker, retention: Retention) -> int:
    """Delete what the retention says should go; returns how many matches."""
    before = None if retention.days is None else time.time() - retention.days * 86_400
    removed = 0
    while True:
        batch = await store.prune(before, retention.count, BATCH)
        removed += batch
        if batch < BATCH:
            return removed


async def keep_pruning(store: StoreWorker, retention: Retention) -> None:
    log = structlog.get_logger("sheepfold.retention")
    while True:
        try:
            removed = await prune_once(store, retention)
        except (StoreUnavailable, StoreRefused) as error:
            # Refused (a damaged file): logged by the writer; tried again next time.
            log.warning("pruning finished matches postponed", error=str(error))
        else:
            if removed:
                log.info("finished matches pruned", removed=removed)
        await asyncio.sleep(retention.every)
