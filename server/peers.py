"""Per-address accounting of Play streams that have not joined yet.

A joined Play stream holds a seat, and a seat holds one stream (a newer join
replaces the older), so joined streams are bounded by the seats the server
hosts. A stream that has not sent its join holds nothing but costs a handler
until the join timeout; these are bounded per client address, so one client
opening thousands of streams cannot crowd out the rest. When an address is at
its bound, the stream that has waited longest is pushed out for the newcomer:
streams held open on purpose cannot shut out an honest client that shares the
address, as every sandboxed bot on a tournament's Unix socket does, and an
honest client, which sends its join at once, is never the one waiting longest.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Callable


def peer_address(peer: str) -> str:
    """The client's address without its port: "ipv4:1.2.3.4:5678" -> "ipv4:1.2.3.4"."""
    if peer.startswith(("ipv4:", "ipv6:")):
        return peer.rsplit(":", 1)[0]
    return peer


class PendingJoins:
    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._waiting: dict[str, OrderedDict[int, Callable[[], None]]] = {}
        self._pushed_out: set[int] = set()
        self._tickets = itertools.count()

    def enter(self, address: str, push_out: Callable[[], None]) -> int:
        """One more stream from `address` waits for its join; its ticket. At the
        bound, the one waiting longest is pushed out: its `push_out` is called."""
        waiting = self._waiting.setdefault(address, OrderedDict())
        if len(waiting) >= self.per_address:
            oldest, push_out_oldest = waiting.popitem(last=False)
            self._pushed_out.add(oldest)
            push_out_oldest()
        ticket = next(self._tickets)
        waiting[ticket] = push_out
        return ticket

    def leave(self, address: str, ticket: int) -> bool:
        """The stream joined, timed out or ended; True if it had been pushed out."""
        if ticket in self._pushed_out:
            self._pushed_out.discard(ticket)
            return True
        waiting = self._waiting.get(address)
        if waiting is not None:
            waiting.pop(ticket, None)
            if not waiting:
                del self._waiting[address]
        return False

    def waiting(self, address: str) -> int:
        return len(self._waiting.get(address, ()))
