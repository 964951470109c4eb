"""SDK bots with faults of their own: a `decide` that blocks its thread past a
1 s deadline (a slow search written without async), an `on_event` that raises,
a `decide` that answers out of range every time."""

from __future__ import annotations

import time

from clients.sdk import DecisionView


class SleepyBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        time.sleep(3)
        return 0


class AsyncSleepyBot:
    """As SleepyBot, in an `async` decide that never yields (a search written in
    one): awaited on the loop every seat shares, it blocked them all."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    async def decide(self, decision: DecisionView) -> int:
        time.sleep(3)
        return 0


class EventRaisingBot:
    """Plays the first action; its `on_event` raises."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def on_event(self, event: object) -> None:
        raise ValueError("cannot read this event")

    def decide(self, decision: DecisionView) -> int:
        return 0


class OutOfRangeBot:
    """Answers an index past the last action, every time."""

    def decide(self, decision: DecisionView) -> int:
        return 999
