"""The seeded random bot: a uniformly random legal action every time."""

from __future__ import annotations

import random

from clients.sdk import DecisionView


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: DecisionView) -> int:
        return self.rng.randrange(len(decision.actions))
