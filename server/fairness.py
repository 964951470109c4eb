"""Shared work handed out fairly between clients, not first come first served.

Two things every client shares are taken in turns: the replay turn (finished
matches replayed for their watchers a step at a time, server/spectators.py)
and the reader threads (server/storage.py). First come first served, one
client with many requests in flight held them all: 200 `Watch(from_start)`
streams from one client made another spectator's 157-move replay take 56 s,
and 64 `ListMatches(limit=1000)` loops made other clients' reads time out.
Here a client's requests queue behind each other, and the turns go round the
clients: each waiting client gets one before any gets a second.

A client is its address (`peer_address`: an IPv4 address, an IPv6 /64, or a
Unix socket), and within an address, its connection (the full peer string,
"ipv4:1.2.3.4:5678"). Turns go round the addresses, and within an address
round its connections. So many connections from one machine count as that
machine once among the others, and clients that share an address (everything
on 127.0.0.1 behind a proxy on the server's host, every test) still take
turns with each other by connection. Every connection over a Unix socket has
the same peer string: those are one client.

Nothing is kept for a client that has nothing waiting: memory grows with the
requests waiting (each bounded elsewhere: Watch streams by
`--max-watch-streams`, calls by connections and streams per connection),
never with the clients seen.

The service says whose request it is serving by setting `CLIENT` at the start
of each call (each gRPC call runs in a task of its own, with its own copy of
the context), so the store and the replays learn it without being passed it.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from server.fair_share import FairShare, Over, Tally
from server.peers import peer_address

# (address, connection): see the module doc.
Client = tuple[str, str]

# Work done for no client in particular (the server's own) shares one place in turn.
NO_CLIENT: Client = ("", "")
CLIENT: contextvars.ContextVar[Client] = contextvars.ContextVar(
    "sheepfold_client", default=NO_CLIENT
)


def client_of(peer: str) -> Client:
    """The client behind a gRPC peer string ("ipv4:1.2.3.4:5678")."""
    return peer_address(peer), peer


def serving(peer: str) -> None:
    """The current call serves the client at `peer` (its task's context only)."""
    CLIENT.set(client_of(peer))


def current_client() -> Client:
    return CLIENT.get()


class LineFull(Exception):
    """A waiter refused: its connection, or its address, already has as many
    in line as it may (FairQueue's `per_connection` and `line`): `over` says
    which bound, None for the connection's."""

    def __init__(self, over: Over | None, waiting: int, total: int, addresses: int) -> None:
        super().__init__(over.name if over else "CONNECTION")
        self.over = over
        self.waiting = waiting  # the connection's waiters (over None), else the address's
        self.total = total  # every address's
        self.addresses = addresses  # the addresses with any waiting


class FairQueue:
    """At most `slots` holders at once; waiters are let in round the clients
    (round the addresses, and within an address round its connections), each
    client's own waiters in the order they came. With `per_connection` and
    `line`, the waiters themselves are bounded per connection, per address
    and, as a fair share, in all: a newcomer past either is refused
    (LineFull) instead of waiting."""

    def __init__(
        self, slots: int = 1, line: FairShare | None = None, per_connection: int | None = None
    ) -> None:
        if slots < 1:
            raise ValueError("a fair queue needs at least one slot")
        self.slots = slots
        self.holders = 0
        self.line = line
        self.per_connection = per_connection
        self._in_line = Tally()  # waiters by address
        # address -> connection -> its waiters; both levels in the order their turn comes.
        self._waiting: OrderedDict[str, OrderedDict[str, deque[asyncio.Future[None]]]] = (
            OrderedDict()
        )

    @property
    def waiting(self) -> int:
        return sum(len(w) for conns in self._waiting.values() for w in conns.values())

    def clients_waiting(self) -> int:
        return sum(len(conns) for conns in self._waiting.values())

    @asynccontextmanager
    async def turn(self, client: Client | None = None) -> AsyncIterator[None]:
        """Hold a slot for the block, once it is `client`'s turn (by default the
        client the current call serves)."""
        await self.acquire(client)
        try:
            yield
        finally:
            self.release()

    async def acquire(self, client: Client | None = None) -> None:
        if self.holders < self.slots and not self._waiting:
            self.holders += 1
            return
        address, connection = current_client() if client is None else client
        self._check_line(address, connection)
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        connections = self._waiting.setdefault(address, OrderedDict())
        connections.setdefault(connection, deque()).append(waiter)
        self._in_line.add(address)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.cancelled():
                self._withdraw(address, connection, waiter)
            else:
                self.release()  # let in just as it was cancelled: the slot goes on
            raise

    def _check_line(self, address: str, connection: str) -> None:
        """LineFull when a waiter of `connection` at `address` would pass a bound."""
        line = self._in_line
        if self.per_connection is not None:
            connections = self._waiting.get(address)
            queued = len(connections.get(connection, ())) if connections else 0
            if queued >= self.per_connection:
                raise LineFull(None, queued, line.total, line.sharing(address))
        if self.line is not None:
            over = self.line.over(line[address], line.total, line.sharing(address))
            if over is not None:
                raise LineFull(over, line[address], line.total, line.sharing(address))

    def release(self) -> None:
        self.holders -= 1
        self._let_in()

    def _let_in(self) -> None:
        while self.holders < self.slots and self._waiting:
            address, connections = next(iter(self._waiting.items()))
            connection, waiters = next(iter(connections.items()))
            waiter = waiters.popleft()
            # This connection goes to the back of its address's line, and the
            # address to the back of the line; either is forgotten once empty.
            if waiters:
                connections.move_to_end(connection)
            else:
                del connections[connection]
            if connections:
                self._waiting.move_to_end(address)
            else:
                del self._waiting[address]
            self._in_line.remove(address)
            if waiter.cancelled():
                continue  # its caller was cancelled and has not yet withdrawn it
            self.holders += 1
            waiter.set_result(None)

    def _withdraw(self, address: str, connection: str, waiter: asyncio.Future[None]) -> None:
        """A cancelled waiter leaves the line (unless `_let_in` has dropped it already)."""
        connections = self._waiting.get(address)
        if connections is None or waiter not in connections.get(connection, ()):
            return
        waiters = connections[connection]
        waiters.remove(waiter)
        self._in_line.remove(address)
        if not waiters:
            del connections[connection]
            if not connections:
                del self._waiting[address]
