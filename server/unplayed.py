"""Matches created without an admin token that nobody played, per client address.

On a server without an admin token anyone may create matches. A match no seat
joins is aborted at the start timeout, and its row stays in the database: a
client creating matches in a loop and joining none grew the file without end
(the live-match bound only slowed it to that bound per start timeout). One
that joins a seat and leaves gets its match played out by the clocks, every
move forced and stored. So one client address may hold at most `limit`
matches in which no seat's client has answered a decision: those still live,
and those that ended so within the last `window` seconds. Past it
CreateMatch is refused until they are played or age out. A client that plays
the matches it creates meets the bound only while its first decisions wait.

IPv6 addresses count by their /64 network, which one host usually holds whole:
counted one by one, a client could change address for every match.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Callable

from server.match import Match
from server.peers import peer_address

DEFAULT_UNPLAYED_MATCHES = 100
WINDOW_SECONDS = 3600.0


def creator(peer: str) -> str:
    """Whom a match is counted against: the client's address without its port,
    an IPv6 one as its /64 network."""
    address = peer_address(peer)
    if not address.startswith("ipv6:"):
        return address
    try:
        network = ipaddress.ip_network(address[5:].strip("[]") + "/64", strict=False)
    except ValueError:
        return address
    return f"ipv6:{network}"


class UnplayedMatches:
    """Per client address, its matches in which no client answered a decision:
    live, or ended so within the last `window` seconds."""

    def __init__(
        self,
        limit: int = DEFAULT_UNPLAYED_MATCHES,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._waiting: dict[str, dict[str, Match]] = {}  # address -> match id -> match
        self._ended: dict[str, deque[float]] = {}  # address -> when each ended unplayed
        self._creator: dict[str, str] = {}  # match id -> address, while it waits
        self._creating: dict[str, int] = {}  # address -> creations under way
        self._swept = clock()

    def take(self, address: str) -> str | None:
        """A place for one more match from `address`, taken until `created` or
        `released` says how its creation went; or why there is none."""
        held = self._still_live(address) + self._recently_ended(address)
        if held + self._creating.get(address, 0) >= self.limit:
            return (
                f"matches created from this address that nobody played are at their bound "
                f"({self.limit:,} in which no seat answered a decision: live, or ended so "
                f"within the last {self.window / 60:g} minutes); play them, or try again later"
            )
        self._creating[address] = self._creating.get(address, 0) + 1
        return None

    def released(self, address: str) -> None:
        """The creation a place was taken for made no match (or made `created`'s)."""
        left = self._creating[address] - 1
        if left:
            self._creating[address] = left
        else:
            del self._creating[address]

    def created(self, address: str, match: Match) -> None:
        self.released(address)
        if match.over:  # restored as over, or ended at once: nothing waits
            return
        match_id = match.record.match_id
        self._waiting.setdefault(address, {})[match_id] = match
        self._creator[match_id] = address
        self._sweep()

    def ended(self, match: Match) -> None:
        """`match` is over (or its loop failed): one nobody played is counted
        against its creator for `window` seconds."""
        address = self._creator.pop(match.record.match_id, None)
        if address is None:
            return
        waiting = self._waiting.get(address, {})
        if waiting.pop(match.record.match_id, None) is None:
            return  # played before it ended, as seen by _still_live
        if not waiting:
            self._waiting.pop(address, None)
        if not match.answered:
            self._ended.setdefault(address, deque()).append(self._clock())

    def _still_live(self, address: str) -> int:
        waiting = self._waiting.get(address)
        if not waiting:
            return 0
        for match_id in [m for m, match in waiting.items() if match.answered]:
            del waiting[match_id]
            del self._creator[match_id]
        if not waiting:
            del self._waiting[address]
        return len(waiting)

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
        """Forget addresses that have not created a match for a whole window."""
        now = self._clock()
        if now - self._swept < self.window:
            return
        self._swept = now
        for address in list(self._ended):
            self._recently_ended(address)
