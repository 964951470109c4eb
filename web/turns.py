"""Loads taken in turn: a few a second in all, and fewer for one client address.

A load that no other request shares (web.shared_answers: a page no one asked
within the second) costs the process that may run the game server a call or
a database read and a render. A client asking page after page, each a
different one, is not bounded by the sharing: each request waits for its
turn, `gap_seconds` from any other load's in all and `address_gap_seconds`
after its address's last one (an IPv6 client by its /64, as the site counts
connections), and one whose turn is over `most_wait_seconds` away is a 503
with Retry-After.

A turn in all is the earliest free one from the address's own: one address
whose own gap puts its loads seconds ahead takes turns seconds ahead, and
leaves the turns before them to other visitors. (Each turn once went after
the last one taken: one client asking 40 pages at once held every other
visitor's turn 5 s off.)
"""

from __future__ import annotations

import bisect
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
    # Loop times of the turns taken in all, from each to the gap then in force:
    # sorted, none that ended by the last turn taken. At most
    # most_wait_seconds / gap_seconds of them lie ahead.
    taken: list[tuple[float, float]] = field(default_factory=list)
    next_turns: dict[str, float] = field(default_factory=dict)  # ... for each address

    def _free_turn(self, earliest: float) -> float:
        """The first loop time from `earliest` whose gap meets no turn taken."""
        turn = earliest
        for start, end in self.taken:
            if end <= turn:
                continue
            if turn < start and turn + self.gap_seconds <= start:
                break
            turn = max(turn, end)
        return turn

    def turn_free(self, address: str, now: float) -> float:
        """The loop time `address`'s next load would take its turn at."""
        return self._free_turn(max(now, self.next_turns.get(address, now)))

    def take_turn(self, address: str, now: float) -> float:
        """How long `address`'s next load waits for its turn, which it takes;
        a 503 GatewayError when over `most_wait_seconds`."""
        self.taken = [(start, end) for start, end in self.taken if end > now]
        own = max(now, self.next_turns.get(address, now))
        turn = self._free_turn(own)
        if turn - now > self.most_wait_seconds:
            own_far = own - now > self.most_wait_seconds
            whose = "for this address" if own_far else "for every visitor"
            raise GatewayError(
                503,
                f"the viewer is fetching many {self.what} {whose} now: try again shortly",
                retry_after=math.ceil(turn - now - self.most_wait_seconds),
            )
        bisect.insort(self.taken, (turn, turn + self.gap_seconds))
        self.next_turns[address] = turn + self.address_gap_seconds
        if len(self.next_turns) > TURNS_KEPT:
            self.next_turns = {a: t for a, t in self.next_turns.items() if t > now}
        return turn - now
