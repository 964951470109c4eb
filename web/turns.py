"""Loads taken in turn: a few a second in all, and fewer for one client address.

A load that no other request shares (web.shared_answers: a page no one asked
within the second) costs the process that may run the game server a call or
a database read and a render. A client asking page after page, each a
different one, is not bounded by the sharing: each request waits for its
turn, `gap_seconds` after the last load's in all and `address_gap_seconds`
after its address's last one (an IPv6 client by its /64, as the site counts
connections), and one whose turn is over `most_wait_seconds` away is a 503
with Retry-After.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from web.gateway import GatewayError

MOST_WAIT_SECONDS = 5.0  # a request whose turn is further off: 503
TURNS_KEPT = 4096  # addresses whose next turn is remembered, before the past ones go


@dataclass(kw_only=True)
class Turns:
    what: str  # what is loaded, for the 503: "pages of the matches list"
    gap_seconds: float  # between two loads, in all
    address_gap_seconds: float  # between two loads for one client address
    most_wait_seconds: float = MOST_WAIT_SECONDS
    next_turn: float = float("-inf")  # loop time of the next load's turn, in all
    next_turns: dict[str, float] = field(default_factory=dict)  # ... for each address

    def _take_turn(self, address: str, now: float) -> float:
        """How long `address`'s next load waits for its turn, which it takes;
        a 503 GatewayError when over `most_wait_seconds`."""
        own = self.next_turns.get(address, now)
        turn = max(now, self.next_turn, own)
        if turn - now > self.most_wait_seconds:
            whose = "for this address" if own >= self.next_turn else "for every visitor"
            raise GatewayError(
                503,
                f"the viewer is fetching many {self.what} {whose} now: try again shortly",
                retry_after=math.ceil(turn - now - self.most_wait_seconds),
            )
        self.next_turn = turn + self.gap_seconds
        self.next_turns[address] = turn + self.address_gap_seconds
        if len(self.next_turns) > TURNS_KEPT:
            self.next_turns = {a: t for a, t in self.next_turns.items() if t > now}
        return turn - now
