"""Whether a runner is at work on a tournament: its heartbeat in the database.

While `tournament run` or `sprt` plays, it writes the time into its
tournament's row of the `runners` table every BEAT_SECONDS; when it ends, by
itself, by an error or by Ctrl-C (SIGTERM too), it writes when, and for an
SPRT whether its test is over (decided before its game limit, or at it). A
runner killed outright (SIGKILL, a machine gone) writes nothing more: its last
heartbeat grows old, and FRESH_SECONDS after it the runner counts as stopped.

`run_state` is the one rule the web viewer's list and a tournament's page
both show: "running", "stopped" (since when) or "finished". Before, the
database said nothing of its runner, and a tournament whose runner was killed
hours ago was listed as "unfinished" and its page said "running".
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from tournament.store import Store, StoreError
from tournament.store_apart import written_apart
from tournament.store_lock import LockWait
from tournament.store_records import Heartbeat

__all__ = [
    "BEAT_SECONDS",
    "FINISHED",
    "FRESH_SECONDS",
    "RUNNING",
    "STOPPED",
    "RunEnd",
    "RunState",
    "beating",
    "run_state",
]

BEAT_SECONDS = 5.0  # between two heartbeats of a runner at work
# A heartbeat older than this is a runner gone: a few beats missed, so that a
# runner waiting for the database's lock (or a loaded machine) is not called
# stopped for it.
FRESH_SECONDS = 30.0

RUNNING, STOPPED, FINISHED = "running", "stopped", "finished"


@dataclass(frozen=True, slots=True)
class RunState:
    """What a tournament is doing: `word` is "running", "stopped" or
    "finished"; a stopped one's `since` is when its runner was last at work
    (None: the database does not say)."""

    word: str
    since: float | None = None

    def text(self) -> str:
        """The word, and for a stopped tournament since when (UTC)."""
        if self.word != STOPPED or self.since is None:
            return self.word
        try:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.since))
        except (OverflowError, ValueError, OSError):  # a time edited by hand past any calendar
            return self.word
        return f"stopped since {when}"


def run_state(
    scheduled: int,
    played: int,
    heartbeat: Heartbeat | None,
    newest_game: float | None,
    now: float | None = None,
) -> RunState:
    """Running while its runner's heartbeat is fresh; else finished when every
    scheduled game is played (`played`: tournament.stored_schedule's count) or
    its last runner ended with its SPRT decided; else stopped, since its
    runner's end or last heartbeat, or without one (a database written before
    runners were recorded) since its `newest_game` was stored."""
    now = time.time() if now is None else now
    if (
        heartbeat is not None
        and heartbeat.ended_at is None
        and now - heartbeat.beat_at <= FRESH_SECONDS
    ):
        return RunState(RUNNING)
    if played >= scheduled or (heartbeat is not None and heartbeat.decided):
        return RunState(FINISHED)
    if heartbeat is None:
        return RunState(STOPPED, newest_game)
    ended = heartbeat.ended_at
    return RunState(STOPPED, heartbeat.beat_at if ended is None else ended)


@dataclass
class RunEnd:
    """Set by an SPRT before it ends: whether its test is over (a round robin
    is finished by its count of games played)."""

    decided: bool = False


@contextlib.asynccontextmanager
async def beating(
    store: Store,
    tournament_id: int,
    command: str,
) -> AsyncIterator[RunEnd]:
    """The runner's heartbeat for the block: started, written every
    BEAT_SECONDS, and its end written however the block ends (bar a kill).
    A heartbeat the database refuses (its lock held too long, a full disk) is
    skipped: the games matter more, and the next one tries again."""
    store.start_run(tournament_id, command, time.time())
    end = RunEnd()
    stop = asyncio.Event()
    task = asyncio.create_task(_beat(store, tournament_id, stop))
    try:
        yield end
    finally:
        stop.set()
        # A beat under way ends first: written after the end, it would mark
        # the run as at work again.
        await asyncio.wait([task])
        with contextlib.suppress(StoreError, sqlite3.Error):
            store.beat(tournament_id, time.time(), ended=True, decided=end.decided)


async def _beat(store: Store, tournament_id: int, stop: asyncio.Event) -> None:
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), BEAT_SECONDS)
            return
        # Off the loop (store_apart), waiting one beat at most: the next tries again.
        with contextlib.suppress(StoreError, sqlite3.Error):
            await written_apart(store, _beat_at(tournament_id, time.time()), LockWait(BEAT_SECONDS))


def _beat_at(tournament_id: int, now: float) -> Callable[[Store], None]:
    return lambda store: store.beat(tournament_id, now)
