"""Streams whose client stopped reading: found and cut off.

A Play or Watch handler waits at each write until the client's HTTP/2 window
lets the message through. A client that never opens its window holds the
handler there, and with it everything the handler holds (a seat, a watcher's
place), for as long as it stays connected: its transport still answers
keepalive pings. Each stream notes when its write began; one whose write has
not finished within the limit is cut off: what it held is given back at once
(its `cut_off` callback), and the handler ends the stream with
RESOURCE_EXHAUSTED as soon as that write goes through. A Play stream sent to
while its client's address has too many bytes queued unread is cut off the
same way at once (`cut_off`; server/streams.py).

It is not cancelled. gRPC's Python API cannot reset a stream, and a handler
cancelled sends no status at all: the call stayed open for as long as its
client stayed connected, holding what had been written to it, and a client
that read again got that and then nothing: no status, no end. Nor would a
status sent while the write waits help (a coroutine handler may send one once
its initial metadata has gone out; Play and Watch are generators, whose writes
gRPC makes itself): it goes behind the unread message, and the call stays open
until the client reads it, as it does here. Left waiting in its write, the
handler ends when the call does (its client reads, resets the stream or goes);
until then the stream counts against its client's address
(server/cut_off_streams.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import structlog

from server.logs import worth_logging

if TYPE_CHECKING:
    from server.cut_off_streams import CutOffStreams


@dataclass(slots=True, eq=False)
class Writer:
    """One stream's handler, and the loop time its current write began (None:
    not writing). The handler sets `since` around each write; `cut` once the
    stream has been cut off, and `cut_off` has given back what it held.
    `about`: what the stream is about (match_id, game, seat), for its log line."""

    method: str
    cut_off: Callable[[], None]
    address: str = ""
    count: CutOffStreams | None = None  # holds the stream, from its cut-off to its end
    about: Mapping[str, object] = field(default_factory=dict)
    since: float | None = None
    cut: bool = False


class StalledWrites:
    """Every open Play and Watch stream; a sweep cuts off those stuck in a write
    for more than `limit` seconds."""

    def __init__(self, limit: float) -> None:
        if not limit > 0:
            raise ValueError("the write stall limit must be a positive number of seconds")
        self.limit = limit
        self.reason = f"cut off: this stream's client read nothing for {limit:g} s"
        self.cancelled = 0  # streams cut off so far
        self._writers: set[Writer] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._log = structlog.get_logger("sheepfold.stalls")

    def add(
        self,
        method: str,
        cut_off: Callable[[], None],
        address: str = "",
        count: CutOffStreams | None = None,
        about: Mapping[str, object] | None = None,
    ) -> Writer:
        """A handler's stream, watched from now on until `remove`; `cut_off`
        gives back what it holds, should it be cut off, and `count` then counts
        it against its client's `address` until `remove`. `about` names its
        match (match_id, game, a seat) in the line logged when it is cut off."""
        writer = Writer(method, cut_off, address, count, dict(about or {}))
        self._writers.add(writer)
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        return writer

    def remove(self, writer: Writer) -> None:
        """The stream has ended (a cut-off one no longer holds anything)."""
        self._writers.discard(writer)
        if writer.cut and writer.count is not None:
            writer.count.let_go(writer.address)
            writer.count = None

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
                    self.cut_off(writer)

    def cut_off(self, writer: Writer, why: str = "") -> None:
        """Cut the stream off now (`why`: other than a write stalled too long,
        for the log), if it is still watched: not cut off already, nor ended."""
        if writer not in self._writers:
            return
        self._writers.discard(writer)
        writer.cut = True
        writer.cut_off()
        if writer.count is not None:
            writer.count.hold(writer.address)
        self.cancelled += 1
        if worth_logging(self.cancelled):
            if why:
                self._log.warning(
                    "stream cancelled: " + why,
                    method=writer.method,
                    **writer.about,
                    total=self.cancelled,
                )
            else:
                self._log.warning(
                    "stream cancelled: its client read nothing for too long",
                    method=writer.method,
                    **writer.about,
                    seconds=self.limit,
                    total=self.cancelled,
                )
