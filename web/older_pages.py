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
waits for its turn (web.turns), and one whose turn is over MOST_WAIT_SECONDS
away is a 503 with Retry-After (which the list page waits out and asks
again). A
script paging through every match waits a quarter of a second a page.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sheepfold.v1 import arena_pb2

from web.listing import entry
from web.shared_answers import PageAnswer, SharedAnswers
from web.turns import Turns

KEEP_SECONDS = 1.0  # a page's answer reused for others asking the same page
GAP_SECONDS = 1 / 8  # between two fetches of different pages, in all
ADDRESS_GAP_SECONDS = 1 / 4  # between two fetches for one client address
KEPT = 64  # answers kept at most (each about 6 KB gzipped, 43 KB plain)

PageKey = tuple[str, str]  # game filter, page token
Fetch = Callable[[str, str], Awaitable[arena_pb2.ListMatchesResponse]]


@dataclass
class OlderPages(Turns):
    fetch: Fetch  # (game, token) -> the game server's page
    keep_seconds: float = KEEP_SECONDS
    what: str = field(default="pages of the matches list", kw_only=True)
    gap_seconds: float = field(default=GAP_SECONDS, kw_only=True)
    address_gap_seconds: float = field(default=ADDRESS_GAP_SECONDS, kw_only=True)
    shared: SharedAnswers[PageKey, PageAnswer] = field(default_factory=lambda: SharedAnswers(KEPT))

    async def get(self, game: str, token: str, address: str) -> PageAnswer:
        """The page, as kept, as being fetched for another client, or fetched
        at `address`'s turn (a 503 GatewayError when that is too far off);
        the game server's refusal (GatewayError) as it gave it."""
        key = (game, token)
        return await self.shared.get(key, lambda: self._load(key), self.keep_seconds, self, address)

    async def _load(self, key: PageKey) -> PageAnswer:
        found = await self.fetch(*key)
        answer = {
            "matches": [entry(info) for info in found.matches],
            "next_page": found.next_page_token or None,
        }
        plain = json.dumps(answer, separators=(",", ":")).encode()
        return PageAnswer(plain, gzip.compress(plain, 5))
