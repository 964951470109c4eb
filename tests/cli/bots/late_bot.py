"""A bot that answers each decision after its deadline (a clock of 0.5 s):
the server strikes it, and disqualifies it at its last strike."""

from __future__ import annotations

import asyncio
import random

from clients.sdk import DecisionView


class LateBot:
    def __init__(self) -> None:
        self.rng = random.Random(3)

    async def decide(self, decision: DecisionView) -> int:
        await asyncio.sleep(0.8)
        return self.rng.randrange(len(decision.actions))
