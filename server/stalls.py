"""Streams whose client stopped reading: found and cancelled.

A Play or Watch handler waits at each write until the client's HTTP/2 window
lets the message through. A client that never opens its window holds the
handler there, and with it everything the handler holds (a seat's queue, a
watcher's place, a finished match's replay), for as long as it stays
connected: its transport still answers keepalive pings. Each stream notes
when its write began; one whose write has not finished within the limit is
cancelled, which ends the call and frees what it held.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import structlog

from server.logs import worth_logging


@dataclass(slots=True, eq=False)
class Writer:
    """One stream's handler, and the loop time its current write began (None:
    not writing). The handler sets `since` around each write."""

    task: asyncio.Task[Any]
    method: str
    since: float | None = None


class StalledWrites:
    """Every open Play and Watch stream; a sweep cancels those stuck in a write
    for more than `limit` seconds."""

    def __init__(self, limit: float) -> None:
        if not limit > 0:
            raise ValueError("the write stall limit must be a positive number of seconds")
        self.limit = limit
        self.cancelled = 0
        self._writers: set[Writer] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._log = structlog.get_logger("sheepfold.stalls")

    def add(self, method: str) -> Writer:
        """The calling handler's stream, watched from now on until `remove`."""
        task = asyncio.current_task()
        assert task is not None, "called from a handler's task"
        writer = Writer(task, method)
        self._writers.add(writer)
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        return writer

    def remove(self, writer: Writer) -> None:
        self._writers.discard(writer)

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    async def _sweep(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.limit / 4)
            now = loop.time()
            for writer in list(self._writers):
                since = writer.since
                if since is not None and now - since > self.limit:
                    self._cancel(writer)

    def _cancel(self, writer: Writer) -> None:
        self._writers.discard(writer)
        writer.task.cancel()
        self.cancelled += 1
        if worth_logging(self.cancelled):
            self._log.warning(
                "stream cancelled: its client read nothing for too long",
                method=writer.method,
                seconds=self.limit,
                total=self.cancelled,
            )
