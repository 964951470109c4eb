"""Matches created without an admin token that ended unplayed, per client address.

On a server without an admin token anyone may create matches. A match no seat
joins is aborted at the start timeout, and its row stays in the database: a
client creating matches in a loop and joining none grew the file without end
(the live-match bound only slowed it to that bound per start timeout). One
that joins a seat and leaves gets its match played out by the clocks, every
move forced and stored. So one client address may have at most `limit`
matches that ended with no seat's client having answered a decision within
the last `window` seconds; past it CreateMatch is refused until they age out.
Live matches are not counted: `--max-live-matches` bounds those, shared
between addresses (server/live_share.py), and a client creating hundreds at
once to play them (a benchmark's ramp, a large tournament) must not be refused
while its first decisions wait.

IPv6 addresses count by their /64 network, which one host usually holds whole:
counted one by one, a client could change address for every match.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from server.client_limits import DEFAULT_UNPLAYED_MATCHES
from server.peers import peer_address

if TYPE_CHECKING:
    from server.match import Match

WINDOW_SECONDS = 3600.0


def creator(peer: str) -> str:
    """Whom a match is counted against: the client's address without its port,
    an IPv6 one as its /64 network (`peer_address`)."""
    return peer_address(peer)


class UnplayedMatches:
    """Per client address, when each of its matches that ended with no client's
    answer to a decision ended, over the last `window` seconds."""

    def __init__(
        self,
        limit: int = DEFAULT_UNPLAYED_MATCHES,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._ended: dict[str, deque[float]] = {}  # address -> when each ended unplayed
        self._swept = clock()

    def refusal(self, address: str) -> str | None:
        """Why `address` may not create a match now, or None if it may."""
        if self._recently_ended(address) < self.limit:
            return None
        return (
            f"matches created from this address that nobody played are at their bound "
            f"({self.limit:,} ended with no seat having answered a decision within the "
            f"last {self.window / 60:g} minutes); play the matches you create, or try "
            f"again later"
        )

    def ended(self, match: Match) -> None:
        """`match`'s loop has ended (over, or failed): one nobody played is
        counted against its creator (`Match.creator`, None for a match no
        client created) for `window` seconds. Told once for each hosted match
        (`MatchRegistry.match_done`)."""
        if match.creator is not None and not match.answered:
            self._ended.setdefault(match.creator, deque()).append(self._clock())
        self._sweep()

    def _recently_ended(self, address: str) -> int:
        times = self._ended.get(address)
        if times is None:
            return 0
        since = self._clock() - self.window
        while times and times[0] <= since:
            times.popleft()
        if not times:
            del self._ended[address]
        return len(times)

    def _sweep(self) -> None:
        """Forget addresses that have not had a match end unplayed for a whole window."""
        now = self._clock()
        if now - self._swept < self.window:
            return
        self._swept = now
        for address in list(self._ended):
            self._recently_ended(address)
