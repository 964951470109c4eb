"""Places for long-lived streams that hold nothing but a handler (health
watches, reflection streams), bounded per client address and on the server.

Each such stream waits on the event loop for as long as its client keeps it
open (about 6 KB each); bounded only by connections and streams per
connection, one client once held 10,000 health watches (60 MB) and could have
held a thousand times more. A probe, a load balancer or `grpcurl` needs one
or two.

An address at its bound is refused its newest stream: it crowds out only
itself. The bound in all is reached only by many addresses (cheap with IPv6,
or a botnet); refusing the newest there would let streams held on purpose
shut out a load balancer that reconnects. So the newcomer is let in and the
oldest stream of the address that holds the most is pushed out (of those
that hold equally many, the address that opened a stream last: a load
balancer's long-held stream is not the one taken for a flood of one stream
per address).

gRPC gives every Unix socket client the same address ("unix:"): together
they are one address here, as they are for fair turns and pending joins.

Refusals and push-outs are logged with the address, its first 20 of each in
full, then one in a thousand (server/logs.py): a flood shows in the log
without filling it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import grpc
import structlog

from server.logs import Counts
from server.peers import peer_address
from server.status import abort


class StreamPlaces:
    """At most `per_address` streams from one client address and `total` in all."""

    def __init__(self, what: str, per_address: int, total: int) -> None:
        if per_address < 1 or total < 1:
            raise ValueError("stream places need room for one stream at least")
        self.what = what  # "health watches": what the refusals name
        self.per_address = per_address
        self.total = total
        # address -> its streams (ticket -> how to push it out), oldest first;
        # addresses in the order they last opened one.
        self._held: OrderedDict[str, OrderedDict[int, Callable[[], None]]] = OrderedDict()
        self._count = 0
        self._pushed_out: dict[int, str] = {}  # ticket -> why
        self._tickets = itertools.count()
        self._log = structlog.get_logger("sheepfold.streams")
        self._logged = Counts()  # refusals and push-outs, per address
        self.closing: str | None = None  # why every stream was ended (shutdown)

    def __len__(self) -> int:
        return self._count

    def held_by(self, address: str) -> int:
        return len(self._held.get(address, ()))

    @asynccontextmanager
    async def place(self, context: grpc.aio.ServicerContext) -> AsyncIterator[None]:
        """Hold a place for the call while the block runs. Refused, the call ends
        RESOURCE_EXHAUSTED before the block; pushed out, the block is interrupted
        and the call ends RESOURCE_EXHAUSTED."""
        address = peer_address(context.peer())
        # Sent before the place is taken, where no push-out can interrupt it. A
        # write interrupted before it returns leaves gRPC's handler thinking
        # the initial metadata unsent, even when it was; the status would then
        # send it again, which gRPC refuses, and the call would stay open
        # without one until the shutdown's grace (or its deadline) ran out.
        await context.send_initial_metadata(())
        if self.closing is not None:
            await abort(context, grpc.StatusCode.UNAVAILABLE, self.closing)
        if self.held_by(address) >= self.per_address:
            reason = f"this address already has {self.per_address} {self.what} open"
            self._note("stream refused", address, reason)
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, reason)
        loop = asyncio.get_running_loop()
        why: str | None = None
        try:
            # A timeout scope, not a task of its own: pushing out reschedules it to now.
            async with asyncio.timeout(None) as scope:
                ticket = self._enter(address, lambda: scope.reschedule(loop.time()))
                try:
                    yield
                finally:
                    why = self._leave(address, ticket)
        except TimeoutError:
            if why is None:
                raise
            if self.closing is not None:
                await abort(context, grpc.StatusCode.UNAVAILABLE, self.closing)
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, f"pushed out: {why}")

    def close(self, reason: str) -> None:
        """End every stream (UNAVAILABLE `reason`) and refuse new ones: at
        shutdown, so that none holds the server's exit until its grace runs out."""
        self.closing = reason
        for address in list(self._held):
            for ticket in list(self._held.get(address, ())):
                self._pushed_out[ticket] = reason
                self._forget(address, ticket)()

    def _enter(self, address: str, push_out: Callable[[], None]) -> int:
        if self._count >= self.total:
            # max() keeps the first of equals: the address that opened one last.
            heaviest = max(reversed(self._held), key=lambda a: len(self._held[a]))
            oldest = next(iter(self._held[heaviest]))
            reason = f"this server holds {self.total} {self.what}, and this address the most"
            self._pushed_out[oldest] = reason
            self._note("stream pushed out", heaviest, reason)
            self._forget(heaviest, oldest)()
        held = self._held.setdefault(address, OrderedDict())
        self._held.move_to_end(address)
        ticket = next(self._tickets)
        held[ticket] = push_out
        self._count += 1
        return ticket

    def _forget(self, address: str, ticket: int) -> Callable[[], None]:
        held = self._held[address]
        push_out = held.pop(ticket)
        if not held:
            del self._held[address]
        self._count -= 1
        return push_out

    def _leave(self, address: str, ticket: int) -> str | None:
        """The stream ended; why it was pushed out, if it was."""
        why = self._pushed_out.pop(ticket, None)
        if why is None:
            self._forget(address, ticket)
        return why

    def _note(self, event: str, address: str, reason: str) -> None:
        total = self._logged.due(f"{event}:{address}")
        if total is not None:
            more = self._logged.left_out()
            self._log.info(
                event, streams=self.what, client=address, reason=reason, total=total, **more
            )
