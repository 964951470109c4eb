"""The outbound side of the server's Play streams: bounded queues that the
match fills and the gRPC handler drains, with an explicit end."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import grpc
from google.protobuf.message import Message

from games.words import counted
from server.client_limits import DEFAULT_QUEUED_BYTES, DEFAULT_QUEUED_BYTES_PER_ADDRESS
from server.fair_share import FairShare, Tally

M = TypeVar("M")


class QueuedBytes:
    """The bytes waiting in the Play stream queues of each client address, on
    one gRPC server, and their bound.

    A client that reads nothing leaves everything sent to it queued until the
    write stall timeout cuts its stream off. Decision ids are predictable, so
    it can answer without reading and play whole matches blind: a thousand
    one-seat matches so played from one address held about 160 MB until then.
    So a stream sent to while its address holds `per_address` bytes queued,
    or, past `total` from every address together, its fair share of them
    (server/fair_share.py), is cut off at once, as a stalled one is. A client
    that reads what it is sent holds next to nothing here: its stream's writer
    takes each message as it comes, so only a turn's messages wait, and only
    until it runs."""

    def __init__(
        self,
        per_address: int = DEFAULT_QUEUED_BYTES_PER_ADDRESS,
        total: int = DEFAULT_QUEUED_BYTES,
    ) -> None:
        self.bound = FairShare(per_address, total)
        self._held = Tally()

    def held_by(self, address: str) -> int:
        return self._held[address]

    def full(self, address: str) -> bool:
        """Whether `address` may have nothing more queued."""
        held = self._held
        return self.bound.over(held[address], held.total, held.sharing(address)) is not None

    def reason(self, address: str) -> str:
        """Why a stream of `address` was cut off, for its client."""
        return (
            "cut off: this stream's client left too much unread: its address had "
            f"{counted(self._held[address], 'byte')} of Play messages waiting for it"
        )

    def add(self, address: str, size: int) -> None:
        self._held.add(address, size)

    def remove(self, address: str, size: int) -> None:
        self._held.remove(address, size)


def _size(message: object) -> int:
    """The bytes a queued message holds: pre-encoded, or a message's encoding."""
    if isinstance(message, bytes):
        return len(message)
    if isinstance(message, Message):
        return message.ByteSize()
    return 0


@dataclass(frozen=True, slots=True)
class StreamClosed:
    """Tells a stream to end, with the status its client receives (None: OK)."""

    code: grpc.StatusCode | None
    message: str


class Outbound(Generic[M]):
    """Messages waiting for one client. Bounded, so a client that does not read
    is dropped instead of slowing the match or growing without end; a backlog
    given at the start does not count as lag.

    A deque and one waiting future rather than an `asyncio.Queue`: a stream has
    one reader, and every message of every decision passes through here.
    """

    def __init__(
        self,
        limit: int = 10_000,
        backlog: Sequence[M] = (),
        queued: QueuedBytes | None = None,
        address: str = "",
    ) -> None:
        self._items: deque[M | StreamClosed] = deque(backlog)
        # The bytes of `_items`, counted against `address` in `queued`.
        self._queued = queued
        self._address = address
        self._bytes = 0
        self.ended = False  # closed with an error: what is sent now is dropped
        # Set once its address held too many bytes queued when it was sent to:
        # `cut_off` then ends it (the handler's, or by default closing it).
        self.overflowed = False
        self.cut_off: Callable[[], None] = self._close_overflowed
        self._waiter: asyncio.Future[None] | None = None
        self.capacity = len(backlog) + limit
        self.rejected = 0  # refused messages the client sent (Play streams)
        self.join_number = 0  # which of its seat's joins it is (Play streams)
        self._taken = 0  # messages its writer has taken, over the stream's life
        # Run as the writer takes the message at this position (`when_taken`).
        self._when_taken: tuple[int, Callable[[], None]] | None = None

    def position(self) -> int:
        """Where the next message sent takes its place in the stream's whole
        sequence, for `waiting` to ask about."""
        return self._taken + len(self._items)

    def waiting(self, position: int) -> bool:
        """Whether the message sent at `position` is still queued: its writer
        has not taken it (a client that reads nothing leaves it there)."""
        return self._taken <= position

    def idle(self) -> bool:
        """Whether its writer waits for a message, none queued: what is sent
        now is the next thing written, once the writer's turn comes."""
        return self._waiter is not None and not self._items

    def when_taken(self, position: int, taken: Callable[[], None]) -> None:
        """Run `taken` as the writer takes the message sent at `position`
        (one such call at a time; a later one replaces it)."""
        self._when_taken = (position, taken)

    def __len__(self) -> int:
        return len(self._items)

    def queued_bytes(self) -> int:
        """The bytes of the messages waiting here (counted only with `queued`)."""
        return self._bytes

    def send(self, message: M) -> bool:
        """Queue `message`; False when the client is too far behind. Dropped,
        the stream cut off (`cut_off`), when its address holds too many bytes
        queued; dropped too once the stream has ended with an error."""
        if self.ended:
            return True
        if len(self._items) >= self.capacity:
            return False
        queued = self._queued
        if queued is not None:
            if queued.full(self._address):
                self.overflowed = True
                self.cut_off()
                return True
            size = _size(message)
            queued.add(self._address, size)
            self._bytes += size
        self._items.append(message)
        self._wake()
        return True

    def close(self, code: grpc.StatusCode | None, message: str) -> None:
        """End the stream: after what is queued (`code` None), or at once with
        the error `code`, dropping what is queued (a replaced, flooding or
        lagging client would only read it to reach the error). Once ended with
        an error it keeps that one: a stream replaced by a newer join, then cut
        off as its write still waited on a client that read nothing, was told
        it was cut off and might rejoin, not that the seat had been taken."""
        if self.ended:
            return
        if code is not None:
            self._items.clear()
            # What it was to run for is dropped: the end would take its place.
            self._when_taken = None
            self._give_back(self._bytes)
            self.ended = True
        self._items.append(StreamClosed(code, message))
        self._wake()

    def _close_overflowed(self) -> None:
        assert self._queued is not None
        self.close(grpc.StatusCode.RESOURCE_EXHAUSTED, self._queued.reason(self._address))

    def _give_back(self, size: int) -> None:
        if self._queued is not None and size:
            self._queued.remove(self._address, size)
            self._bytes -= size

    async def get(self) -> M | StreamClosed:
        """The next message, waiting for one if none is queued."""
        items = self._items
        while not items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        self._taken += 1
        item = items.popleft()
        if self._bytes:
            self._give_back(_size(item))
        if self._when_taken is not None and self._when_taken[0] < self._taken:
            position, taken = self._when_taken
            self._when_taken = None
            if position == self._taken - 1:
                taken()
        return item

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
