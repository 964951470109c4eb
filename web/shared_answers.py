"""Answers shared by every client asking the same thing at about the same time.

One load of a key at a time: requests arriving while it is under way wait for
it, and its answer is reused for `keep_seconds` after it landed. A failed load
is its own requests' alone: the next request loads again. Used for the pages
of the matches list (web.older_pages) and the tournament pages
(web.tournament_routes), which cost the game server's process a database
read or a call and a render each, and which a crowd asks over and over.

A load taken in turn (web.turns) waits for its turn first: a request whose
own turn is sooner than that load's begins a load of its own, which the
requests after it share. (A load waiting for its client's turn once held the
page for everyone: a client with its turn 5 s off, asking a page first once
its answer was a second old, made every other visitor wait 5 s for it.)
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from web.turns import Turns

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
    # The load of each key under way, and the loop time of its turn.
    flights: dict[K, tuple[float, asyncio.Future[V]]] = field(default_factory=dict)
    # Every load under way: those above, and any a sooner turn's load took
    # the place of (still waiting for their own turn).
    loads: set[asyncio.Future[V]] = field(default_factory=set)

    async def get(
        self,
        key: K,
        load: Callable[[], Awaitable[V]],
        keep_seconds: float,
        turns: Turns | None = None,
        address: str = "",
    ) -> V:
        """The answer for `key`: as kept (landed under `keep_seconds` ago), as
        being loaded for another request, or loaded now by `load()`, at
        `address`'s turn in `turns` when given (a 503 GatewayError, raised
        here, when that turn is too far off)."""
        now = asyncio.get_running_loop().time()
        kept = self._kept(key, now, keep_seconds)
        if kept is not None:
            return kept[1]
        flight = self.flights.get(key)
        if flight is None or (turns is not None and turns.turn_free(address, now) < flight[0]):
            wait = 0.0 if turns is None else turns.take_turn(address, now)
            loading = asyncio.ensure_future(self._load(key, load, wait, keep_seconds))
            flight = (now + wait, loading)
            self.flights[key] = flight
            self.loads.add(loading)
            loading.add_done_callback(lambda done: self._landed(key, done))
        return await asyncio.shield(flight[1])

    async def close(self) -> None:
        """Ends the loads under way, and waits till they have: as the viewer
        stops, a load waiting for its turn, its requests gone, outlived the
        app and then its event loop ("Task was destroyed but it is pending!")."""
        loads = list(self.loads)
        for loading in loads:
            loading.cancel()
        await asyncio.gather(*loads, return_exceptions=True)

    def _kept(self, key: K, now: float, keep_seconds: float) -> tuple[float, V] | None:
        kept = self.kept.get(key)
        return kept if kept is not None and now - kept[0] < keep_seconds else None

    async def _load(
        self, key: K, load: Callable[[], Awaitable[V]], wait: float, keep_seconds: float
    ) -> V:
        if wait > 0:
            await asyncio.sleep(wait)
            # An answer another request's load landed meanwhile.
            kept = self._kept(key, asyncio.get_running_loop().time(), keep_seconds)
            if kept is not None:
                return kept[1]
        answer = await load()
        self.kept[key] = (asyncio.get_running_loop().time(), answer)
        self.kept.move_to_end(key)
        while len(self.kept) > self.kept_most:
            self.kept.popitem(last=False)
        return answer

    def _landed(self, key: K, done: asyncio.Future[V]) -> None:
        self.loads.discard(done)
        flight = self.flights.get(key)
        if flight is not None and flight[1] is done:
            del self.flights[key]
        if not done.cancelled():
            done.exception()  # retrieved: every request that waited has its answer
