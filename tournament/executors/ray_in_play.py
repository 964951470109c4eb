"""Which games Ray's workers have in play, told to the driver for the web
viewer's "Now playing".

A worker plays its game's match on a server the driver never hears from: as
soon as the match is created, the worker tells an `InPlayInbox`, a small Ray
actor the driver made, the game's key, the match id and its node. The driver
takes what the inbox holds at each turn of its loop and writes the rows as a
local run does (the runner's `in_play`).

The actor is not detached: Ray ends it with the job of the driver that made
it, the driver ended or killed. Should its process or its node die meanwhile,
Ray makes it again (empty: the messages it held are lost) and sends it again
the calls that were under way or sent meanwhile. Nobody ever waits on it: a
worker sends its message without waiting for an answer, and the driver only
reads an answer that has arrived, so an actor gone or a message lost is a row
missing, never a game or a run held up. It keeps at most INBOX_LIMIT messages, the oldest
dropped first, should the driver stop asking.
"""

from __future__ import annotations

import contextlib
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

__all__ = ["INBOX_LIMIT", "InPlayInbox", "InPlayMessages", "MatchCreated", "tell_driver"]

INBOX_LIMIT = 10_000


@dataclass(frozen=True, slots=True)
class MatchCreated:
    """A worker's game has its match: `ticket` is the driver's number for the
    task (a task Ray runs again after its worker died keeps it)."""

    ticket: int
    key: str
    match_id: str
    node: str


class InPlayInbox:
    """The Ray actor that holds the workers' messages until the driver takes them."""

    def __init__(self) -> None:
        self._told: deque[MatchCreated] = deque(maxlen=INBOX_LIMIT)

    def tell(self, created: MatchCreated) -> None:
        self._told.append(created)

    def take(self) -> list[MatchCreated]:
        """Every message since the last call, oldest first."""
        told = list(self._told)
        self._told.clear()
        return told


def tell_driver(inbox: Any, created: MatchCreated) -> None:
    """On a worker: `created` sent to the driver's inbox (an actor handle),
    without waiting; a message that cannot be sent is dropped."""
    with contextlib.suppress(Exception):  # only a row of "Now playing" is lost
        inbox.tell.remote(created)


class InPlayMessages:
    """The driver's side: the inbox it made, and its question in flight."""

    def __init__(self) -> None:
        import ray

        # Made again should its process or node die, and the calls to it then
        # sent again (Ray's max_restarts, max_task_retries): without, the
        # listing stopped there for the rest of the run, quietly.
        made = ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)(InPlayInbox)
        self.inbox: Any = made.remote()
        self._asked: Future[list[MatchCreated]] | None = None
        self.gone = False  # the actor died: no more is asked of it

    def taken(self) -> list[MatchCreated]:
        """What the workers told since the last answer, without waiting: the
        answer to the question asked before, when it has arrived (then the
        next question is asked)."""
        if self.gone:
            return []
        asked = self._asked
        if asked is not None and not asked.done():
            return []
        try:
            self._asked = self.inbox.take.remote().future()
        except Exception:
            self.gone = True
        if asked is None:
            return []
        try:
            return list(asked.result())
        except Exception:  # the actor died: its messages went with it
            self.gone = True
            return []
