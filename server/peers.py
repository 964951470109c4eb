"""Per-address accounting of Play streams that have not joined yet.

A joined Play stream holds a seat, and a seat holds one stream (a newer join
replaces the older), so joined streams are bounded by the seats the server
hosts. A stream that has not sent its join holds nothing but costs a handler
until the join timeout; these are bounded per client address, so one client
opening thousands of streams is refused at once instead of crowding out the
rest.
"""

from __future__ import annotations

from collections import Counter


def peer_address(peer: str) -> str:
    """The client's address without its port: "ipv4:1.2.3.4:5678" -> "ipv4:1.2.3.4"."""
    if peer.startswith(("ipv4:", "ipv6:")):
        return peer.rsplit(":", 1)[0]
    return peer


class PendingJoins:
    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._open: Counter[str] = Counter()

    def acquire(self, address: str) -> bool:
        """Count one more stream waiting to join from `address`; False when full."""
        if self._open[address] >= self.per_address:
            return False
        self._open[address] += 1
        return True

    def release(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]

    def waiting(self, address: str) -> int:
        return self._open[address]
