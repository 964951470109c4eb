"""The outbound side of the server's Play streams: bounded queues that the
match fills and the gRPC handler drains, with an explicit end."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import grpc

M = TypeVar("M")


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

    def __init__(self, limit: int = 10_000, backlog: Sequence[M] = ()) -> None:
        self._items: deque[M | StreamClosed] = deque(backlog)
        self._waiter: asyncio.Future[None] | None = None
        self.capacity = len(backlog) + limit
        self.rejected = 0  # refused messages the client sent (Play streams)
        self.join_number = 0  # which of its seat's joins it is (Play streams)
        self._taken = 0  # messages its writer has taken, over the stream's life

    def position(self) -> int:
        """Where the next message sent takes its place in the stream's whole
        sequence, for `waiting` to ask about."""
        return self._taken + len(self._items)

    def waiting(self, position: int) -> bool:
        """Whether the message sent at `position` is still queued: its writer
        has not taken it (a client that reads nothing leaves it there)."""
        return self._taken <= position

    def __len__(self) -> int:
        return len(self._items)

    def send(self, message: M) -> bool:
        """Queue `message`; False when the client is too far behind."""
        if len(self._items) >= self.capacity:
            return False
        self._items.append(message)
        self._wake()
        return True

    def close(self, code: grpc.StatusCode | None, message: str) -> None:
        """End the stream: after what is queued (`code` None), or at once with
        the error `code`, dropping what is queued (a replaced, flooding or
        lagging client would only read it to reach the error)."""
        if code is not None:
            self._items.clear()
        self._items.append(StreamClosed(code, message))
        self._wake()

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
        return items.popleft()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
