"""`greedy` and `mcts`: bots that use a game's forward model (`games.ai`).

Both run as ordinary SDK clients: they receive the decision over gRPC, sample
full states consistent with their observation (`from_observation`) and play
on those locally.

- greedy: for every legal action, apply it to a sampled state and evaluate the
  result with the game's heuristic; the action with the best margin over the
  best opponent wins (no search beyond the one action).
- mcts: single-observer information-set MCTS (Cowling, Powley & Whitehouse
  2012). Each iteration takes a determinization, descends a tree keyed by
  actions with UCB1 weighted by availability, expands one action, plays a short
  random rollout and scores the end position. Two things make it at least as
  good as greedy from the first iteration: positions cut off before the end are
  scored by margin (a logistic of own value minus the best opponent's, on the
  game's own scale) rather than as win or loss, and the root's actions start
  with greedy's evaluation as a prior, the search spending its budget on the
  most promising few.

Two settings suit games whose random moves say little about a position
(Sheep & Garden, where a random tile placement spoils more than it builds):
`rollout_policy = "greedy"` plays rollouts with every seat choosing greedy's
action instead of a random one, and `tree_depth` stops the tree that many
actions below the root, leaving the rest to those rollouts. With a tree of
depth 1 and greedy rollouts to the end, the search is the classic rollout
algorithm over greedy (Bertsekas): each candidate is judged by how the game
ends when everyone then plays greedy, averaged over sampled hidden
information, which improves on greedy wherever greedy's one-step view misleads.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from clients.bots.seeding import decision_rng
from clients.sdk import DecisionView
from games.ai import GameAI, get_ai
from games.contract import State

EXPLORATION = 0.35
PRIOR_VISITS = 3  # how many visits the greedy evaluation of a root action is worth
ROOT_WIDTH = 8  # root actions searched, the best by prior; the rest keep their prior


def _logistic(x: float) -> float:
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def margin(values: Sequence[float], seat: int) -> float:
    """Own value minus the best opponent's (solo: own value)."""
    if len(values) == 1:
        return values[0]
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


def cutoff_rewards(values: Sequence[float], scale: float, baseline: float) -> list[float]:
    """Rewards in [0, 1] for a position that is not over, from heuristic values.
    Solo has no opponent: the value is measured against `baseline`."""
    if len(values) == 1:
        return [_logistic((values[0] - baseline) / scale)]
    return [_logistic(margin(values, seat) / scale) for seat in range(len(values))]


def terminal_rewards(state: State, scale: float, baseline: float) -> list[float]:
    """Rewards for a finished game: mostly standing by rank (the real goal, with
    each game's tie-breaks), partly the score margin (to prefer bigger wins)."""
    result = state.result()
    scores = [float(s) for s in result.scores]
    if len(scores) == 1:
        return [_logistic((scores[0] - baseline) / scale)]
    ranks = result.ranks
    rewards = []
    for seat, rank in enumerate(ranks):
        ahead = sum(
            1.0 if rank < other else 0.5 if rank == other else 0.0
            for j, other in enumerate(ranks)
            if j != seat
        ) / (len(ranks) - 1)
        rewards.append(0.7 * ahead + 0.3 * _logistic(margin(scores, seat) / scale))
    return rewards


def position_rewards(state: State, ai: GameAI, baseline: float) -> list[float]:
    if state.terminal:
        return terminal_rewards(state, ai.reward_scale, baseline)
    return cutoff_rewards(ai.evaluate(state), ai.reward_scale, baseline)


class _SearchBot:
    """Each decision draws from a generator seeded by (seed, decision), so a
    decision the server sends again gets the same answer (an MCTS search cut
    short by its time budget is the exception: how far it got depends on time)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def _reseed(self, decision: DecisionView) -> None:
        self.rng = decision_rng(self.seed, decision)

    def _sample(self, ai: GameAI, decision: DecisionView) -> State | None:
        """A determinization whose legal actions are the decision's, as far as
        the game's `action_key` tells them apart."""
        state = ai.from_observation(decision.observation, decision.seat, self.rng)
        labels = [action.label for action in state.legal_actions()]
        wanted = decision.labels
        if ai.action_key is not None:
            labels = [ai.action_key(label) for label in labels]
            wanted = [ai.action_key(label) for label in wanted]
        return state if labels == wanted else None


class GreedyBot(_SearchBot):
    def decide(self, decision: DecisionView) -> int:
        if len(decision.actions) == 1:
            return 0
        self._reseed(decision)
        ai = get_ai(decision.game)
        state = self._sample(ai, decision)
        if state is None:
            return self.rng.randrange(len(decision.actions))
        return greedy_index(state, ai, decision.seat, 0.0, self.rng)


def action_values(state: State, ai: GameAI, seat: int, baseline: float) -> list[float]:
    """Each legal action's reward for `seat` one action ahead, on one sample."""
    actions = state.legal_actions()
    known = ai.evaluate_after(state) if ai.evaluate_after is not None else [None] * len(actions)
    values = []
    for action, after_values in zip(actions, known, strict=True):
        if after_values is not None:
            values.append(cutoff_rewards(after_values, ai.reward_scale, baseline)[seat])
            continue
        after = state.clone()
        after.apply(action)
        values.append(position_rewards(after, ai, baseline)[seat])
    return values


def greedy_index(state: State, ai: GameAI, seat: int, baseline: float, rng: random.Random) -> int:
    """Greedy's choice for `seat` (the index of a best-valued legal action; ties
    broken by `rng`): the greedy bot's decision, and each step of a greedy rollout."""
    values = action_values(state, ai, seat, baseline)
    best = max(values)
    return rng.choice([i for i, v in enumerate(values) if v == best])


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int, visits: int = 0, total: float = 0.0) -> None:
        self.mover = mover
        self.children: dict[object, _Node] = {}
        self.visits = visits
        self.available = visits
        self.total = total


class MCTSBot(_SearchBot):
    """ISMCTS. Budget: `iterations` and `milliseconds` per decision, whichever
    ends first (and never more than 40% of the decision's deadline). Settings
    left as None take the game's own defaults (`MCTS_SETTINGS` in its ai.py)."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        milliseconds: float | None = None,
        rollout_depth: int | None = None,
        determinizations: int | None = None,
        prior_worlds: int | None = None,
        rollout_policy: str | None = None,
        tree_depth: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.overrides = {
            "iterations": iterations,
            "milliseconds": milliseconds,
            "rollout_depth": rollout_depth,
            "determinizations": determinizations,
            "prior_worlds": prior_worlds,
            "rollout_policy": rollout_policy,
            "tree_depth": tree_depth,
        }

    def settings(self, ai: GameAI) -> dict[str, float | str]:
        chosen = dict(ai.mcts_settings)
        chosen.update({k: v for k, v in self.overrides.items() if v is not None})
        return chosen

    def decide(self, decision: DecisionView) -> int:
        if len(decision.actions) == 1:
            return 0
        self._reseed(decision)
        started = time.monotonic()
        ai = get_ai(decision.game)
        settings = self.settings(ai)
        budget = float(settings["milliseconds"]) / 1000.0
        if decision.clock.decision_seconds > 0:
            budget = min(budget, 0.4 * decision.clock.decision_seconds)
        deadline = started + budget
        worlds = [
            s
            for s in (self._sample(ai, decision) for _ in range(int(settings["determinizations"])))
            if s is not None
        ]
        if not worlds:
            return self.rng.randrange(len(decision.actions))
        seat = decision.seat
        baseline = margin(ai.evaluate(worlds[0]), seat) if worlds[0].players == 1 else 0.0
        root_actions = worlds[0].legal_actions()
        # Greedy's evaluation, averaged over `prior_worlds` samples of the hidden
        # information, is where every root action starts.
        prior_worlds = worlds[: max(1, int(settings["prior_worlds"]))]
        per_world = [action_values(world, ai, seat, baseline) for world in prior_worlds]
        priors = [sum(values) / len(per_world) for values in zip(*per_world, strict=True)]
        root = _Node(mover=-1)
        for action, prior in zip(root_actions, priors, strict=True):
            root.children[action] = _Node(seat, PRIOR_VISITS, PRIOR_VISITS * prior)
        ranked = sorted(range(len(root_actions)), key=lambda i: priors[i], reverse=True)
        searched = [root_actions[i] for i in ranked[:ROOT_WIDTH]]
        rollout = _Rollout(
            int(settings["rollout_depth"]), settings["rollout_policy"] == "greedy", baseline
        )
        tree_depth = int(settings["tree_depth"])
        for _ in range(int(settings["iterations"])):
            if time.monotonic() > deadline:
                break
            # The root's actions are the same in every world, so the action is
            # chosen first, and its k-th search runs in world k: every candidate
            # is tried on the same samples, and their differences are the
            # actions', not the samples' luck (common random numbers).
            for action in searched:
                root.children[action].available += 1
            action = max(searched, key=lambda a: _ucb(root.children[a]))
            child = root.children[action]
            world = worlds[(child.visits - PRIOR_VISITS) % len(worlds)].clone()
            world.apply(action)
            self._iterate([root, child], world, ai, tree_depth, rollout)
        scores = [
            (root.children[a].visits, root.children[a].total / root.children[a].visits)
            for a in root_actions
        ]
        best = max(scores)
        return self.rng.choice([i for i, s in enumerate(scores) if s == best])

    def _iterate(
        self,
        path: list[_Node],
        state: State,
        ai: GameAI,
        tree_depth: int,
        rollout: _Rollout,
    ) -> None:
        """One iteration below the root action already taken (`path` is the
        root and its child, `state` the world after that action)."""
        node = path[-1]
        rng = self.rng
        while not state.terminal and len(path) <= tree_depth:
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
        for _ in range(rollout.depth):
            if state.terminal:
                break
            if rollout.greedy:
                mover = state.to_move
                assert mover is not None
                choice = greedy_index(state, ai, mover, rollout.baseline, rng)
                state.apply(state.legal_actions()[choice])
            else:
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
        _backup(path, position_rewards(state, ai, rollout.baseline))


@dataclass(frozen=True, slots=True)
class _Rollout:
    depth: int  # actions played past the tree before the position is scored
    greedy: bool  # every seat plays greedy's action, else a random one
    baseline: float  # solo: the value a reward is measured against


def _backup(path: list[_Node], rewards: Sequence[float]) -> None:
    for visited in path:
        visited.visits += 1
        if visited.mover >= 0:
            visited.total += rewards[visited.mover]


def _ucb(node: _Node) -> float:
    return node.total / node.visits + EXPLORATION * math.sqrt(
        math.log(max(node.available, 1)) / node.visits
    )
