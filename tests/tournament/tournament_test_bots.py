"""Misbehaving SDK bots for the runner tests (loaded as `class = "tournament_test_bots:..."`)."""

from __future__ import annotations

import random
import time

from clients.bots.search import MCTSBot
from clients.sdk import DecisionView


class CrashingBot:
    """Raises on its first decision, like a bot with a bug."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        raise RuntimeError("this bot has a bug")


class CrashCountingBot:
    """Raises on its first decision an error naming which of the bots of its
    class it is (the first made, the second...): a bot whose crash differs
    from game to game."""

    made = 0

    def __init__(self, seed: int = 0) -> None:
        CrashCountingBot.made += 1
        self.number = CrashCountingBot.made

    def decide(self, decision: DecisionView) -> int:
        raise RuntimeError(f"this bot has a bug (its copy {self.number})")


class HangingBot:
    """Never answers in time: its first decision blocks for 20 s, far past any deadline
    the tests set, yet short enough that a leaked wait cannot stall the suite."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        time.sleep(20)
        return 0


class EventHangingBot:
    """Blocks in `on_event` (the first event it is shown) for 20 s, far past any
    deadline the tests set; its `decide` would answer at once."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        return 0

    def on_event(self, event: object) -> None:
        time.sleep(20)


class SlowBot:
    """A random bot that thinks for 30 ms per decision, so a run takes a few seconds."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: DecisionView) -> int:
        time.sleep(0.03)
        return self.rng.randrange(len(decision.actions))


class QuickMCTSBot(MCTSBot):
    """The built-in mcts with a 10 ms budget per decision, so a real SPRT is short."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, milliseconds=10.0)


class StallingBot:
    """A random bot that takes 0.2 s per decision, well inside its deadline: a
    game against it outlasts a short match timeout (a bot voiding games it is
    losing would play like this)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: DecisionView) -> int:
        time.sleep(0.2)
        return self.rng.randrange(len(decision.actions))


class LateBot:
    """A random bot that takes 3 s to start (loading a model, say) before it joins."""

    build_seconds = 3.0

    def __init__(self, seed: int = 0) -> None:
        time.sleep(self.build_seconds)
        self.rng = random.Random(seed)

    def decide(self, decision: DecisionView) -> int:
        return self.rng.randrange(len(decision.actions))


class LaterBot(LateBot):
    """Takes 6 s to start."""

    build_seconds = 6.0


class SlowToBuildBot(LateBot):
    """Takes 30 s to build (a model that will not load): it never joins in time."""

    build_seconds = 30.0
