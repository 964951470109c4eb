"""The outbound side of the server's streams (Play and Watch): bounded queues
that the match fills and the gRPC handler drains, with an explicit end."""

from __future__ import annotations

import asyncio
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
    given at the start (history a watcher asked for) does not count as lag."""

    def __init__(self, limit: int = 10_000, backlog: Sequence[M] = ()) -> None:
        self.queue: asyncio.Queue[M | StreamClosed] = asyncio.Queue()
        for message in backlog:
            self.queue.put_nowait(message)
        self.capacity = len(backlog) + limit
        self.rejected = 0  # refused messages the client sent (Play streams)

    def send(self, message: M) -> bool:
        """Queue `message`; False when the client is too far behind."""
        if self.queue.qsize() >= self.capacity:
            return False
        self.queue.put_nowait(message)
        return True

    def close(self, code: grpc.StatusCode | None, message: str) -> None:
        self.queue.put_nowait(StreamClosed(code, message))
