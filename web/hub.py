"""One Watch stream per live match, shared by every page showing it.

A hundred open pages of one match cost the game server one watcher, not a
hundred, and each message is turned into JSON once. A page starts at the
match as it is when it opens (the latest snapshot, then every move after it),
as the hub's stream does (`Watch` without `from_start`): the moves before
are in the replay once the match is over. So a page opening a long match
is not sent, and its browser does not hold, the whole history. What
arrives is gathered for `flush_seconds` and handed to every page as one
batch, built once, so a fast match costs a page a few writes a second, not
one per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc

from web.frames import watch_item

END = b""


@dataclass
class _Feed:
    # From the latest snapshot on: what a page opening now is sent first.
    recent: list[bytes] = field(default_factory=list)
    pending: list[bytes] = field(default_factory=list)
    queues: set[asyncio.Queue[bytes]] = field(default_factory=set)
    task: asyncio.Task[None] | None = None
    flush: asyncio.TimerHandle | None = None
    done: bool = False


class WatchHub:
    def __init__(
        self,
        open_stream: Callable[[str], Any],
        flush_seconds: float = 0.1,
        frame: Callable[[bytes], bytes] = bytes,
        explain: Callable[[grpc.aio.AioRpcError], str] = lambda error: error.details() or "",
        result_details: bool = True,
    ) -> None:
        """`open_stream(match_id)` starts a Watch call (from the latest snapshot);
        `frame` wraps each batch once for every page (as a Server-Sent Event, say);
        `explain` says why a stream failed (the page shows it). Without
        `result_details`, a match's result comes without its breakdown (its
        scores and ranks only): a viewer of tournament databases cannot tell
        here whether the match's deal is still in play, and the breakdown tells
        the deal (the page then asks for the frames, which give it when shown)."""
        self._open_stream = open_stream
        self.result_details = result_details
        self._explain = explain
        self._frame = frame
        self._feeds: dict[str, _Feed] = {}
        self.flush_seconds = flush_seconds

    def following(self, match_id: str) -> bool:
        """Whether a stream of this match is open (so the match exists)."""
        feed = self._feeds.get(match_id)
        return feed is not None and not feed.done

    def watchers(self, match_id: str) -> int:
        feed = self._feeds.get(match_id)
        return len(feed.queues) if feed else 0

    async def subscribe(self, match_id: str) -> AsyncGenerator[bytes, None]:
        """Batches for one page, each a JSON array of Watch items (framed once
        for every page by `frame`): the latest
        snapshot first, then what arrives; ends after the match's result or a
        stream error (then the last item is {"kind": "error", ...})."""
        feed = self._feeds.get(match_id)
        if feed is None or feed.done:
            feed = _Feed()
            self._feeds[match_id] = feed
            feed.task = asyncio.create_task(self._pump(match_id, feed))
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        # What is still pending reaches this page with the next flush.
        backlog = feed.recent[: max(0, len(feed.recent) - len(feed.pending))]
        feed.queues.add(queue)
        try:
            if backlog:
                yield self._frame(b"[" + b",".join(backlog) + b"]")
            if feed.done and queue.empty():
                return
            while True:
                batch = await queue.get()
                if batch is END:
                    return
                yield batch
        finally:
            feed.queues.discard(queue)
            if not feed.queues and not feed.done and feed.task is not None:
                feed.task.cancel()
                self._feeds.pop(match_id, None)

    async def _pump(self, match_id: str, feed: _Feed) -> None:
        call = self._open_stream(match_id)
        try:
            async for message in call:
                item = watch_item(message)
                if item["kind"] == "result" and not self.result_details:
                    item["result"]["details"] = {}
                self._publish(feed, item, item["kind"] == "snapshot")
        except grpc.aio.AioRpcError as error:
            message = self._explain(error)
            self._publish(feed, {"kind": "error", "code": error.code().name, "message": message})
        except asyncio.CancelledError:
            call.cancel()
            raise
        finally:
            feed.done = True
            if feed.flush is not None:
                feed.flush.cancel()
            self._flush(feed)
            for queue in feed.queues:
                queue.put_nowait(END)
            if self._feeds.get(match_id) is feed:
                del self._feeds[match_id]

    def _publish(self, feed: _Feed, item: dict[str, Any], snapshot: bool = False) -> None:
        encoded = json.dumps(item, separators=(",", ":")).encode()
        if snapshot:
            feed.recent.clear()
        feed.recent.append(encoded)
        feed.pending.append(encoded)
        if feed.flush is None:
            feed.flush = asyncio.get_running_loop().call_later(
                self.flush_seconds, self._flush, feed
            )

    def _flush(self, feed: _Feed) -> None:
        feed.flush = None
        if not feed.pending:
            return
        batch = self._frame(b"[" + b",".join(feed.pending) + b"]")
        feed.pending.clear()
        for queue in feed.queues:
            queue.put_nowait(batch)

    async def close(self) -> None:
        for feed in list(self._feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await feed.task
        self._feeds.clear()
