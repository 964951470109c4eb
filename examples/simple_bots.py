"""Two tiny SDK bots for the example tournament (`class = "simple_bots:..."`).

The runner imports them because examples/round-robin.toml lists its own folder
in `python_path`.
"""

from __future__ import annotations

from clients.sdk import DecisionView


class FirstChoiceBot:
    """Always the first legal action: deterministic, and a useful baseline."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        return 0


class LastChoiceBot:
    """Always the last legal action."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, decision: DecisionView) -> int:
        return len(decision.actions) - 1
