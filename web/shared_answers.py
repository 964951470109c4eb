"""Answers shared by every client asking the same thing at about the same time.

One load of a key at a time: requests arriving while it is under way wait for
it, and its answer is reused for `keep_seconds` after it landed. A failed load
is its own requests' alone: the next request loads again. Used for the pages
of the matches list (web.older_pages) and the tournament pages
(web.tournament_routes), which cost the game server's process a database
read or a call and a render each, and which a crowd asks over and over.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class PageAnswer:
    """A page's body, plain and gzipped (built once, sent to every client)."""

    plain: bytes
    gzipped: bytes


@dataclass
class SharedAnswers(Generic[K, V]):
    kept_most: int  # answers kept at most, the least recently landed going first
    kept: OrderedDict[K, tuple[float, V]] = field(default_factory=OrderedDict)
    flights: dict[K, asyncio.Future[V]] = field(default_factory=dict)

    async def get(self, key: K, load: Callable[[], Awaitable[V]], keep_seconds: float) -> V:
        """The answer for `key`: as kept (landed under `keep_seconds` ago), as
        being loaded for another request, or loaded now by `load()` (called
        here, before this returns to the loop: what it raises at once, this
        raises, and nothing is loaded)."""
        now = asyncio.get_running_loop().time()
        kept = self.kept.get(key)
        if kept is not None and now - kept[0] < keep_seconds:
            return kept[1]
        flight = self.flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(self._load(key, load()))
            self.flights[key] = flight
            flight.add_done_callback(lambda done: self._landed(key, done))
        return await asyncio.shield(flight)

    async def _load(self, key: K, loading: Awaitable[V]) -> V:
        answer = await loading
        self.kept[key] = (asyncio.get_running_loop().time(), answer)
        self.kept.move_to_end(key)
        while len(self.kept) > self.kept_most:
            self.kept.popitem(last=False)
        return answer

    def _landed(self, key: K, done: asyncio.Future[V]) -> None:
        if self.flights.get(key) is done:
            del self.flights[key]
        if not done.cancelled():
            done.exception()  # retrieved: every request that waited has its answer
