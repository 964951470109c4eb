"""The seeded random bot: a uniformly random legal action every time."""

from __future__ import annotations

from clients.bots.seeding import decision_rng
from clients.sdk import DecisionView


class RandomBot:
    """Random, but the same decision sent twice (a rejoin, a server restart)
    gets the same answer: the draw depends only on the seed and the decision."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        return decision_rng(self.seed, decision).randrange(len(decision.actions))
