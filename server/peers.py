"""Per-address and server-wide accounting of Play streams that have not joined yet.

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

import asyncio
import functools
import ipaddress
import itertools
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any, NoReturn
from urllib.parse import unquote

import grpc

from server.status import abort


# Kept per peer string (each connection's): an IPv6 one costs about 11 us to read,
# and every call reads its peer once or twice.
@functools.lru_cache(maxsize=4096)
def peer_address(peer: str) -> str:
    """The client a gRPC peer string stands for, as every bound per client
    address counts it: its address without the port, an IPv6 one as its /64
    network (`client_network`). "ipv4:1.2.3.4:5678" -> "ipv4:1.2.3.4",
    "ipv6:%5B2001:db8::1%5D:5678" -> "ipv6:2001:db8::/64"; anything else (every
    Unix socket client's "unix:") as it is. gRPC writes an IPv6 peer's brackets,
    and a link-local zone's `%`, percent-encoded. Counted by its whole address,
    a client holding a /64 (one host usually does) changed address at every
    call and got round every bound per address: one took all of a match's
    watcher places from seven of its addresses."""
    if peer.startswith("ipv4:"):
        return peer.rsplit(":", 1)[0]
    if peer.startswith("ipv6:"):
        host = unquote(peer[5:].rsplit(":", 1)[0]).strip("[]")
        network = client_network(host)
        # An IPv4 client of an IPv6 socket counts as its IPv4 address.
        mapped = "/" not in network and network != host
        return f"ipv4:{network}" if mapped else f"ipv6:{network}"
    return peer


def client_network(host: str) -> str:
    """What a bound per client counts `host` (an IP address, no port) as: an
    IPv4 address (an IPv6 socket's IPv4-mapped one too) as itself, an IPv6
    address by its /64 network (a link-local one's with its interface), which
    one host is usually given whole: counted one by one, a client could change
    address at every turn. Anything else as it is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        scope = f"%{address.scope_id}" if address.scope_id else ""
        return f"{ipaddress.IPv6Address(int(address) >> 64 << 64)}{scope}/64"
    return str(address)


class PendingJoins:
    """Play streams waiting for their join, bounded per address and in all.

    At either bound the stream that has waited longest (from that address, or
    from anywhere) is pushed out for the newcomer: its `push_out` is called, and
    `leave` then says why. The bound in all holds when the streams come from
    many addresses, each within its own bound: 20,000 from 200 addresses once
    held 640 MB, and gRPC began cancelling other clients' calls.
    """

    def __init__(
        self,
        per_address: int,
        total: int = 2_000,
        streams: str = "Play streams",
        waiting_for: str = "to join",
    ) -> None:
        self.per_address = per_address
        self.total = total
        self.streams = streams  # what waits, and for what, as a push-out names them
        self.waiting_for = waiting_for
        self._waiting: dict[str, OrderedDict[int, Callable[[], None]]] = {}
        self._oldest_first: OrderedDict[int, str] = OrderedDict()  # ticket -> address
        self._pushed_out: dict[int, str] = {}  # ticket -> why
        self._tickets = itertools.count()

    def enter(self, address: str, push_out: Callable[[], None]) -> int:
        """One more stream from `address` waits for its join; its ticket."""
        if self.waiting(address) >= self.per_address:
            self._push_out(
                next(iter(self._waiting[address])),
                address,
                f"{self.per_address} newer {self.streams} from this address are waiting "
                f"{self.waiting_for}",
            )
        elif len(self._oldest_first) >= self.total:
            ticket, elsewhere = next(iter(self._oldest_first.items()))
            self._push_out(
                ticket,
                elsewhere,
                f"{self.total} newer {self.streams} are waiting {self.waiting_for} on this server",
            )
        # Looked up after the push-out: one that took the address's last
        # stream took its entry too, and the newcomer must not go to that.
        ticket = next(self._tickets)
        self._waiting.setdefault(address, OrderedDict())[ticket] = push_out
        self._oldest_first[ticket] = address
        return ticket

    def push_out_all(self, why: str) -> None:
        """Push out every waiting stream (the server is shutting down)."""
        for ticket, address in list(self._oldest_first.items()):
            self._push_out(ticket, address, why)

    def _push_out(self, ticket: int, address: str, why: str) -> None:
        push_out = self._forget(ticket, address)
        self._pushed_out[ticket] = why
        push_out()

    def _forget(self, ticket: int, address: str) -> Callable[[], None]:
        waiting = self._waiting[address]
        push_out = waiting.pop(ticket)
        if not waiting:
            del self._waiting[address]
        del self._oldest_first[ticket]
        return push_out

    def leave(self, address: str, ticket: int) -> str | None:
        """The stream joined, timed out or ended; why it was pushed out, if it was."""
        why = self._pushed_out.pop(ticket, None)
        if why is None and ticket in self._oldest_first:
            self._forget(ticket, address)
        return why

    def waiting(self, address: str) -> int:
        return len(self._waiting.get(address, ()))


class WaitEnded(Exception):
    """No first message came in time; `pushed_out` says why, when a newer
    stream pushed this one out, else it is None (its time ran out)."""

    def __init__(self, pushed_out: str | None) -> None:
        super().__init__(pushed_out or "timed out")
        self.pushed_out = pushed_out

    async def end(self, context: grpc.aio.ServicerContext, pushed: str, late: str) -> NoReturn:
        """The call ended: RESOURCE_EXHAUSTED "`pushed`: why" when pushed out,
        else DEADLINE_EXCEEDED `late`."""
        if self.pushed_out is not None:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, f"{pushed}: {self.pushed_out}")
        await abort(context, grpc.StatusCode.DEADLINE_EXCEEDED, late)


async def first_message(
    requests: AsyncIterator[Any], waiting: PendingJoins, address: str, seconds: float
) -> Any:
    """The first message of `requests` (None when the client half-closed
    first), waited for `seconds` at most while counted in `waiting` under
    `address`; WaitEnded when it does not come. A timeout scope, not wait_for:
    no task of its own for every stream."""
    loop = asyncio.get_running_loop()
    pushed_out: str | None = None
    try:
        async with asyncio.timeout(seconds) as scope:
            ticket = waiting.enter(address, lambda: scope.reschedule(loop.time()))
            try:
                return await anext(requests, None)
            finally:
                pushed_out = waiting.leave(address, ticket)
    except TimeoutError:
        raise WaitEnded(pushed_out) from None
