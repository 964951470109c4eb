"""One Watch stream per live match, shared by every page showing it.

A hundred open pages of one match cost the game server one watcher, not a
hundred: the hub keeps what the stream said so far (a late page gets it all
first), turns each message into JSON once, and hands it to every page's queue.
A page is sent what has arrived at most every `flush_seconds`, in one batch,
so a fast match costs a page a few writes per second, not one per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc

from web.frames import watch_item

END = b""


@dataclass
class _Feed:
    history: list[bytes] = field(default_factory=list)
    queues: set[asyncio.Queue[bytes]] = field(default_factory=set)
    task: asyncio.Task[None] | None = None
    done: bool = False


class WatchHub:
    def __init__(self, open_stream: Callable[[str], Any], flush_seconds: float = 0.1) -> None:
        """`open_stream(match_id)` starts a Watch(from_start=True) call."""
        self._open_stream = open_stream
        self._feeds: dict[str, _Feed] = {}
        self.flush_seconds = flush_seconds

    def watchers(self, match_id: str) -> int:
        feed = self._feeds.get(match_id)
        return len(feed.queues) if feed else 0

    async def subscribe(self, match_id: str) -> AsyncIterator[bytes]:
        """Batches for one page, each a JSON array of Watch items: the history
        first, then what arrives; ends after the match's result or a stream
        error (then the last item is {"kind": "error", ...})."""
        feed = self._feeds.get(match_id)
        if feed is None or feed.done:
            feed = _Feed()
            self._feeds[match_id] = feed
            feed.task = asyncio.create_task(self._pump(match_id, feed))
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        backlog = list(feed.history)
        feed.queues.add(queue)
        try:
            if backlog:
                yield b"[" + b",".join(backlog) + b"]"
            if feed.done and queue.empty():
                return
            while True:
                batch = [await queue.get()]
                await asyncio.sleep(self.flush_seconds)
                while not queue.empty():
                    batch.append(queue.get_nowait())
                ended = END in batch
                items = [item for item in batch if item is not END]
                if items:
                    yield b"[" + b",".join(items) + b"]"
                if ended:
                    return
        finally:
            feed.queues.discard(queue)
            if not feed.queues and not feed.done and feed.task is not None:
                feed.task.cancel()
                self._feeds.pop(match_id, None)

    async def _pump(self, match_id: str, feed: _Feed) -> None:
        call = self._open_stream(match_id)
        try:
            async for message in call:
                self._publish(feed, watch_item(message))
        except grpc.aio.AioRpcError as error:
            self._publish(
                feed, {"kind": "error", "code": error.code().name, "message": error.details() or ""}
            )
        except asyncio.CancelledError:
            call.cancel()
            raise
        finally:
            feed.done = True
            for queue in feed.queues:
                queue.put_nowait(END)
            if self._feeds.get(match_id) is feed:
                del self._feeds[match_id]

    @staticmethod
    def _publish(feed: _Feed, item: dict[str, Any]) -> None:
        encoded = json.dumps(item, separators=(",", ":")).encode()
        feed.history.append(encoded)
        for queue in feed.queues:
            queue.put_nowait(encoded)

    async def close(self) -> None:
        for feed in list(self._feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await feed.task
        self._feeds.clear()
