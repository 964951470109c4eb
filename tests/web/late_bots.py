"""A bot that answers after its deadline, and the finished match it plays, for
the pages that show disqualified seats."""

from __future__ import annotations

import asyncio
import random

from sheepfold.v1 import arena_pb2

from clients.matchplay import play_match
from clients.sdk import Bot, DecisionView
from web.showcase import Showcase

DECISION_SECONDS = 0.5


class LateBot:
    """Answers each decision `seconds` after it came, past a DECISION_SECONDS
    clock: the server strikes it each time, and disqualifies it at its last strike."""

    def __init__(self, seed: int = 3, seconds: float = 0.8) -> None:
        self.rng = random.Random(seed)
        self.seconds = seconds

    async def decide(self, decision: DecisionView) -> int:
        await asyncio.sleep(self.seconds)
        return self.rng.randrange(len(decision.actions))


def play_late_match(show: Showcase, bots: list[Bot], max_strikes: int) -> str:
    """One finished one-round Sheep Showdown of `bots` on the server of `show`,
    on a DECISION_SECONDS clock with `max_strikes`: its match id."""
    clock = arena_pb2.ClockSettings(decision_seconds=DECISION_SECONDS, max_strikes=max_strikes)
    outcome = show.server.run(
        play_match(
            show.server.address,
            "sheep-showdown",
            bots,
            seed=17,
            options={"rounds": "1"},
            clock=clock,
        ),
        120,
    )
    return outcome.match_id
