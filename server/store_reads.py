"""The store's reads, on a few reader threads.

No more reads are given to the threads than there are threads: the others
wait in a line that goes round the clients (server/fairness.py), so one
client's flood of reads queues behind itself, not ahead of another client's
read. A read's `timeout` counts its wait in that line, and the line itself is
bounded per connection, per client address and, as a fair share, in all
(READS_WAITING_PER_CONNECTION, READS_WAITING_PER_ADDRESS, READS_WAITING): a
read past it is refused with `StoreCrowded`, after a pause (REFUSAL_PAUSE).
A reader thread rests after each read, READ_REST times as long as the read's
CPU time, before it takes the next: the threads share the process's one
interpreter lock with the event loop, and two of them kept busy by clients
asking `ListMatches(limit=1000)` without pause held every match's decisions
up (a match played beside such a flood made a tenth of its moves, its
decisions up to 250 ms apart). So reads take at most about a quarter of the
CPU however many ask, and one read alone is answered as soon as it is made:
only the next one waits.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import sqlite3
import time
from collections.abc import Callable
from typing import TypeVar

from server.fair_share import FairShare, Over
from server.fairness import FairQueue, LineFull
from server.store_errors import (
    DAMAGED_CODES,
    TRANSIENT,
    StoreCrowded,
    StoreDamaged,
    StoreRefused,
    StoreUnavailable,
)

T = TypeVar("T")

# A reader thread rests this many times as long as its read took (of its own
# CPU time) before it takes the next: the two threads together then read at
# most a quarter of the time, 1/8 each (see the module doc).
READ_REST = 7.0
# Reads waiting for a reader thread, from one connection (a gRPC peer), from
# one client address and (as a fair share: server/fair_share.py) from all:
# more are refused, StoreCrowded. A client whose reads wait has its answers
# coming; the web viewer or a tournament runner has a few in
# line at most (a client that fires a few hundred GetMatch at once on one
# connection still gets every answer), and clients sharing an address with a
# flood (one host, a proxy) have connections of their own: only the
# address's bound, far above a connection's, is theirs too.
READS_WAITING_PER_CONNECTION = 256
READS_WAITING_PER_ADDRESS = 1_000
READS_WAITING = 2_000
# A read refused so is answered only after this pause (a timer, holding no
# thread), but for REFUSALS_HELD of them at once: refused at once, a client
# asking again as soon as it was told no made refusals its flood (some 500 a
# second from 200 calls kept in flight), and they took as much of the event
# loop as the reads had. Held, its calls in flight are its pace.
REFUSAL_PAUSE = 1.0
REFUSALS_HELD = 1_000


class StoreReads:
    """Reads made on `threads` reader threads, each started with `initializer`,
    in turns round the clients that ask; `timeout` seconds each, its wait in
    line included."""

    def __init__(
        self,
        threads: int,
        *,
        timeout: float,
        rest: float = READ_REST,
        initializer: Callable[[], object] | None = None,
    ) -> None:
        self.timeout = timeout
        self.rest = rest
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="sheepfold-store-read", initializer=initializer
        )
        # One read a thread; the rest wait their client's turn.
        self._line = FairQueue(
            threads,
            line=FairShare(READS_WAITING_PER_ADDRESS, READS_WAITING),
            per_connection=READS_WAITING_PER_CONNECTION,
        )
        self._refusals_held = 0  # refused reads in their pause (_pause_refusal)

    async def run(self, call: Callable[[], T]) -> T:
        """`call` on a reader thread, once a thread is free and it is the turn
        of the client the current call serves."""
        asked = time.monotonic()
        waited = self.timeout  # in line, until a thread takes it
        try:
            async with asyncio.timeout(self.timeout):
                await self._line.acquire()
                waited = time.monotonic() - asked
                return await self._on_reader(call)
        except LineFull as full:
            await self._pause_refusal()
            raise StoreCrowded(_crowded(full)) from None
        except TimeoutError:
            if waited > self.timeout / 2:
                # Not the database's fault: it was named so, and an operator
                # went looking for a lock that was not there.
                raise StoreUnavailable(
                    f"the read waited {waited:.1f} s of its {self.timeout:g} s in line for "
                    "the database, behind other reads (a client's own reads wait behind each "
                    "other: ask fewer at once); try again"
                ) from None
            raise StoreUnavailable(
                f"the database did not answer within {self.timeout:g} s; try again"
            ) from None
        except TRANSIENT as error:
            raise StoreUnavailable(
                f"the database cannot be read now ({error}); try again"
            ) from None
        except sqlite3.Error as error:
            if getattr(error, "sqlite_errorcode", 0) & 0xFF in DAMAGED_CODES:
                raise StoreDamaged(
                    f"the server's database file is damaged ({error}): its operator must restore it"
                ) from None
            raise StoreRefused(f"the database cannot be read: {error}") from None

    async def _pause_refusal(self) -> None:
        """REFUSAL_PAUSE before a refusal is answered, unless REFUSALS_HELD
        are already paused: a refusal is then answered at once."""
        if self._refusals_held >= REFUSALS_HELD:
            return
        self._refusals_held += 1
        try:
            await asyncio.sleep(REFUSAL_PAUSE)
        finally:
            self._refusals_held -= 1

    def _on_reader(self, call: Callable[[], T]) -> asyncio.Future[T]:
        """`call` given to a reader thread; its slot in `_line` is given back
        when the thread is done with it, not when its caller stops waiting (a
        read that timed out still holds its thread until it ends)."""
        loop = asyncio.get_running_loop()
        took = [0.0]  # the read's CPU seconds on its thread

        def timed() -> T:
            start = time.thread_time()
            try:
                return call()
            finally:
                took[0] = time.thread_time() - start

        try:
            done = self._threads.submit(timed)
        except BaseException:
            self._line.release()
            raise

        def rest() -> None:
            loop.call_later(took[0] * self.rest, self._line.release)

        def free(_: concurrent.futures.Future[T]) -> None:
            # A closed loop (RuntimeError) has nobody waiting for a read any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(rest)

        done.add_done_callback(free)
        return asyncio.wrap_future(done, loop=loop)

    @property
    def waiting(self) -> int:
        """Reads in line for a reader thread."""
        return self._line.waiting

    def shutdown(self) -> None:
        """Blocking: waits for the reads on the threads, drops those not begun."""
        self._threads.shutdown(wait=True, cancel_futures=True)


def _crowded(full: LineFull) -> str:
    if full.over is None:
        return (
            f"this connection already has {full.waiting} reads waiting their turn at the "
            "database (the most one connection may): wait for their answers before asking more"
        )
    if full.over is Over.ADDRESS:
        return (
            f"this address already has {full.waiting} reads waiting their turn at the "
            "database (the most one address may): wait for their answers before asking more"
        )
    if full.over is Over.CEILING:
        return (
            f"the server already has {full.total} reads waiting their turn at the "
            "database, as many as it takes: try again later"
        )
    return (
        f"the server has {full.total} reads waiting their turn at the database, from "
        f"{full.addresses} addresses, and this address its share of them ({full.waiting}): "
        "wait for their answers before asking more"
    )
