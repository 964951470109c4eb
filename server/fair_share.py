"""A bound on what clients hold in the server's memory, per address and from
every address together, that a flood from many addresses cannot easily turn
against light clients.

Each address may hold up to `per_address`. That alone lets a client with many
addresses (IPv6, a botnet, or 127.0.0.2, 127.0.0.3, ... on loopback) hold as
much as it likes, so the addresses together are bounded too: once they hold
`cap` in all, an address is let in only while it holds less than its fair
share, the room left below twice the cap divided among the addresses holding
any (itself among them). At the cap that share is the cap divided by the
addresses; it shrinks as the total grows, and at twice the cap it is nothing:
every address is refused until some of it is freed.

So a light client, holding little, is still let in while a flood from many
addresses holds more than the cap. The flood cannot take the room it would
need: addresses that all hold alike stop at the cap (past it, each would hold
more than the room left divided among them), give or take one each. Only a
flood that keeps bringing new addresses, each taking a share of what is left,
brings the total near twice the cap, and with each new address the room
left shrinks in proportion: halving it takes about as many new addresses
again as hold any already. Once it is full every newcomer is refused, light or
not, until the flood lets go: what a client holds cannot be taken back (gRPC
can neither reset a stream nor drop an answer), so with no end of addresses
either newcomers are refused or memory has no bound, and memory comes first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Over(enum.Enum):
    """Which bound a newcomer from an address would pass."""

    ADDRESS = enum.auto()  # its address holds as much as one address may
    SHARE = enum.auto()  # the server holds more than its cap, and the address its share
    CEILING = enum.auto()  # the server holds twice its cap: nobody gets more


@dataclass(frozen=True)
class FairShare:
    per_address: int
    cap: int

    def __post_init__(self) -> None:
        if self.per_address < 1 or self.cap < 1:
            raise ValueError("room for one at least, per address and in all")

    @property
    def ceiling(self) -> int:
        return 2 * self.cap

    def over(self, held: int, total: int, sharing: int) -> Over | None:
        """The bound an address holding `held`, of `total` held by the
        addresses `sharing` it (this one among them), would pass by taking
        more; None when it may."""
        if held >= self.per_address:
            return Over.ADDRESS
        if total < self.cap:
            return None
        if total >= self.ceiling:
            return Over.CEILING
        # held < (ceiling - total) / sharing, in whole numbers
        if held * sharing >= self.ceiling - total:
            return Over.SHARE
        return None


def first(*overs: Over | None) -> Over | None:
    """Of the bounds passed, the one to tell the client of: its own address's,
    then the server's ceiling, then its share."""
    for over in (Over.ADDRESS, Over.CEILING, Over.SHARE):
        if over in overs:
            return over
    return None


class Tally:
    """What each address holds, their total, and how many addresses hold any."""

    def __init__(self) -> None:
        self._held: dict[str, int] = {}
        self.total = 0

    def __getitem__(self, address: str) -> int:
        return self._held.get(address, 0)

    def sharing(self, address: str) -> int:
        """The addresses holding any, `address` among them."""
        return len(self._held) + (address not in self._held)

    def add(self, address: str, amount: int = 1) -> None:
        if amount:
            self._held[address] = self._held.get(address, 0) + amount
            self.total += amount

    def remove(self, address: str, amount: int = 1) -> None:
        if not amount:
            return
        left = self._held.get(address, 0) - amount
        self.total -= amount
        if left > 0:
            self._held[address] = left
        else:
            self._held.pop(address, None)
