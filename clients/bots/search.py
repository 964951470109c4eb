"""`greedy` and `mcts`: bots that use a game's forward model (`games.ai`).

Both run as ordinary SDK clients: they receive the decision over gRPC, sample
full states consistent with their observation (`from_observation`) and play
on those locally.

- greedy: for every legal action, apply it to a sampled state and evaluate the
  result with the game's heuristic; the action with the best margin over the
  best opponent wins (no search beyond the one action).
- mcts: single-observer information-set MCTS (Cowling, Powley & Whitehouse
  2012). Each iteration takes a fresh determinization, descends a tree keyed by
  actions with UCB1 weighted by availability, expands one action, plays a short
  random rollout, and scores the end position by standing among the seats.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from clients.sdk import DecisionView
from games.ai import GameAI, get_ai
from games.contract import State

EXPLORATION = 0.7


def standing(values: Sequence[float], solo_scale: float = 20.0) -> list[float]:
    """Per-seat reward in [0, 1]: the share of opponents a seat is ahead of
    (ties count half). Solo: a logistic squash of the score itself."""
    count = len(values)
    if count == 1:
        return [1.0 / (1.0 + math.exp(-values[0] / solo_scale))]
    rewards = []
    for i, mine in enumerate(values):
        ahead = sum(
            1.0 if mine > other else 0.5 if mine == other else 0.0
            for j, other in enumerate(values)
            if j != i
        )
        rewards.append(ahead / (count - 1))
    return rewards


def terminal_values(state: State) -> list[float]:
    result = state.result()
    if state.players == 1:
        return [float(result.scores[0])]
    # Ranks decide standing (they include each game's tie-breaks).
    return [-float(rank) for rank in result.ranks]


def margin(values: Sequence[float], seat: int) -> float:
    if len(values) == 1:
        return values[0]
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


class _SearchBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def _sample(self, ai: GameAI, decision: DecisionView) -> State | None:
        """A determinization whose legal actions are exactly the decision's."""
        state = ai.from_observation(decision.observation, decision.seat, self.rng)
        labels = [action.label for action in state.legal_actions()]
        return state if labels == decision.labels else None


class GreedyBot(_SearchBot):
    def decide(self, decision: DecisionView) -> int:
        if len(decision.actions) == 1:
            return 0
        ai = get_ai(decision.game)
        state = self._sample(ai, decision)
        if state is None:
            return self.rng.randrange(len(decision.actions))
        best: list[int] = []
        best_value = -math.inf
        for index, action in enumerate(state.legal_actions()):
            after = state.clone()
            after.apply(action)
            value = margin(
                terminal_values(after) if after.terminal else ai.evaluate(after), decision.seat
            )
            if value > best_value:
                best, best_value = [index], value
            elif value == best_value:
                best.append(index)
        return self.rng.choice(best)


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[object, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class MCTSBot(_SearchBot):
    def __init__(
        self,
        seed: int = 0,
        iterations: int = 300,
        milliseconds: float = 1000.0,
        rollout_depth: int = 12,
        determinizations: int = 12,
    ) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.milliseconds = milliseconds
        self.rollout_depth = rollout_depth
        self.determinizations = determinizations

    def decide(self, decision: DecisionView) -> int:
        if len(decision.actions) == 1:
            return 0
        ai = get_ai(decision.game)
        samples = [self._sample(ai, decision) for _ in range(self.determinizations)]
        worlds = [s for s in samples if s is not None]
        if not worlds:
            return self.rng.randrange(len(decision.actions))
        # Stay well inside the match's deadline whatever budget was asked for.
        budget = self.milliseconds / 1000.0
        if decision.clock.decision_seconds > 0:
            budget = min(budget, 0.4 * decision.clock.decision_seconds)
        deadline = time.monotonic() + budget
        root = _Node(mover=-1)
        for iteration in range(self.iterations):
            self._iterate(root, worlds[iteration % len(worlds)].clone(), ai)
            if time.monotonic() > deadline:
                break
        root_actions = worlds[0].legal_actions()
        visits = [root.children[a].visits if a in root.children else 0 for a in root_actions]
        most = max(visits)
        return self.rng.choice([i for i, v in enumerate(visits) if v == most])

    def _iterate(self, root: _Node, state: State, ai: GameAI) -> None:
        node = root
        path = [node]
        rng = self.rng
        while not state.terminal:
            actions = state.legal_actions()
            mover = state.to_move
            assert mover is not None
            untried = [a for a in actions if a not in node.children]
            for action in actions:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = rng.choice(untried)
                child = _Node(mover)
                child.available = 1
                node.children[action] = child
                state.apply(action)
                path.append(child)
                break
            action = max(actions, key=lambda a: _ucb(node.children[a]))
            node = node.children[action]
            state.apply(action)
            path.append(node)
        for _ in range(self.rollout_depth):
            if state.terminal:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        values = terminal_values(state) if state.terminal else list(ai.evaluate(state))
        rewards = standing(values)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += rewards[visited.mover]


def _ucb(node: _Node) -> float:
    return node.total / node.visits + EXPLORATION * math.sqrt(
        math.log(max(node.available, 1)) / node.visits
    )
