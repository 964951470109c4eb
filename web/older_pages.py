"""Pages of the matches list (`/api/matches/page`), fetched sparingly.

Each page is a ListMatches of 200 matches: about 10 ms of the game server's
CPU and 10 more of the viewer's to turn it into JSON, against well under one
for any other page. Asked with nothing shared and no bound, 20 clients from
one address asking pages over and over (24 a second) took as much of a
`serve --web-port` process as 5,000 requests a second for `/`, and the
matches it played made a third of their decisions. So pages asking for the
same page (game filter and token) share one fetch and its answer for
KEEP_SECONDS, and different pages are fetched from the game server
GAP_SECONDS apart at least, and ADDRESS_GAP_SECONDS apart for one client
address (an IPv6 one by its /64, as the site counts connections): a request
waits for its turn, and one whose turn is over MOST_WAIT_SECONDS away is a
503 with Retry-After (which the list page waits out and asks again). A
script paging through every match waits a quarter of a second a page.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import math
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sheepfold.v1 import arena_pb2

from web.gateway import GatewayError
from web.listing import entry

KEEP_SECONDS = 1.0  # a page's answer reused for others asking the same page
GAP_SECONDS = 1 / 8  # between two fetches of different pages, in all
ADDRESS_GAP_SECONDS = 1 / 4  # between two fetches for one client address
MOST_WAIT_SECONDS = 5.0  # a request whose turn is further off: 503
KEPT = 64  # answers kept at most (each about 6 KB gzipped, 43 KB plain)
TURNS_KEPT = 4096  # addresses whose next turn is remembered, before the past ones go

PageKey = tuple[str, str]  # game filter, page token
Fetch = Callable[[str, str], Awaitable[arena_pb2.ListMatchesResponse]]


@dataclass(frozen=True, slots=True)
class PageAnswer:
    """One page's JSON, plain and gzipped."""

    plain: bytes
    gzipped: bytes


@dataclass
class OlderPages:
    fetch: Fetch  # (game, token) -> the game server's page
    keep_seconds: float = KEEP_SECONDS
    gap_seconds: float = GAP_SECONDS
    address_gap_seconds: float = ADDRESS_GAP_SECONDS
    most_wait_seconds: float = MOST_WAIT_SECONDS
    kept: OrderedDict[PageKey, tuple[float, PageAnswer]] = field(default_factory=OrderedDict)
    flights: dict[PageKey, asyncio.Future[PageAnswer]] = field(default_factory=dict)
    next_turn: float = float("-inf")  # loop time of the next fetch's turn, in all
    next_turns: dict[str, float] = field(default_factory=dict)  # ... for each address

    async def get(self, game: str, token: str, address: str) -> PageAnswer:
        """The page, as kept, as being fetched for another client, or fetched
        at `address`'s turn (a 503 GatewayError when that is too far off);
        the game server's refusal (GatewayError) as it gave it."""
        key = (game, token)
        now = asyncio.get_running_loop().time()
        kept = self.kept.get(key)
        if kept is not None and now - kept[0] < self.keep_seconds:
            return kept[1]
        flight = self.flights.get(key)
        if flight is None:
            wait = self._take_turn(address, now)
            flight = asyncio.ensure_future(self._load(key, wait))
            self.flights[key] = flight
            flight.add_done_callback(lambda done: self._landed(key, done))
        return await asyncio.shield(flight)

    def _take_turn(self, address: str, now: float) -> float:
        """How long `address`'s next fetch waits for its turn, which it takes;
        a 503 GatewayError when over `most_wait_seconds`."""
        own = self.next_turns.get(address, now)
        turn = max(now, self.next_turn, own)
        if turn - now > self.most_wait_seconds:
            whose = "for this address" if own >= self.next_turn else "for every visitor"
            raise GatewayError(
                503,
                f"the viewer is fetching many pages of the matches list {whose} now: "
                "try again shortly",
                retry_after=math.ceil(turn - now - self.most_wait_seconds),
            )
        self.next_turn = turn + self.gap_seconds
        self.next_turns[address] = turn + self.address_gap_seconds
        if len(self.next_turns) > TURNS_KEPT:
            self.next_turns = {a: t for a, t in self.next_turns.items() if t > now}
        return turn - now

    async def _load(self, key: PageKey, wait: float) -> PageAnswer:
        if wait > 0:
            await asyncio.sleep(wait)
        found = await self.fetch(*key)
        answer = {
            "matches": [entry(info) for info in found.matches],
            "next_page": found.next_page_token or None,
        }
        plain = json.dumps(answer, separators=(",", ":")).encode()
        page = PageAnswer(plain, gzip.compress(plain, 5))
        self.kept[key] = (asyncio.get_running_loop().time(), page)
        self.kept.move_to_end(key)
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return page

    def _landed(self, key: PageKey, done: asyncio.Future[PageAnswer]) -> None:
        self.flights.pop(key, None)
        if not done.cancelled():
            done.exception()  # retrieved: every request that waited has its answer
