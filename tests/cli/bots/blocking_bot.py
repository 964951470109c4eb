"""An SDK bot whose `decide` blocks its thread past a 1 s deadline (a slow search
written without async), then plays the first action."""

from __future__ import annotations

import time

from clients.sdk import DecisionView


class SleepyBot:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        time.sleep(3)
        return 0
