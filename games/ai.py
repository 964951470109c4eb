"""What search bots need from a game beyond the rules: a way to sample a full
state consistent with what one seat sees, and a cheap evaluation.

Each game provides them in `games/<package>/ai.py` as two functions:

- `from_observation(observation, seat, rng) -> State`: a full state whose
  `observation(seat)`, converted by the game's codec, equals `observation` (the
  game's protobuf observation message, as a bot receives it). Everything the
  seat cannot see (other hands, deck order, face-down objectives) is drawn at
  random with `rng` from what is not visible, so that every consistent hidden
  assignment can be drawn.
- `evaluate(state) -> tuple[float, ...]`: a heuristic value per seat (larger is
  better), documented in that module; used by `greedy` and to cut MCTS rollouts.

and optionally `evaluate_after(state) -> list[tuple[float, ...] | None]`: what
`evaluate` would give after each legal action, in `legal_actions()` order, found
faster than by applying each action to a copy (None where the bots should apply
the action and look, for example because it ends the game). Without it, the bots
apply every action to a copy.

Also optional: `action_key(label) -> str`, what of an action's label a sample
must repeat (default: all of it; a game whose equal cards carry their own ids,
but whose observation cannot say which copy a hand showed, leaves the id out),
`REWARD_SCALE` (how many points of margin make a clear lead, for
the logistic that turns values into search rewards; default 10) and
`MCTS_SETTINGS` (the `mcts` bot's default budget for the game).
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from games.contract import State

_MODULES = {
    "sheep-showdown": "games.sheep_showdown.ai",
    "sheep-n-sheep": "games.sheep_n_sheep.ai",
    "stubborn-sheep": "games.stubborn_sheep.ai",
    "sheep-and-garden": "games.sheep_and_garden.ai",
}


DEFAULT_REWARD_SCALE = 10.0
DEFAULT_MCTS_SETTINGS: Mapping[str, float | str] = {
    "iterations": 100_000,
    "milliseconds": 50.0,
    "rollout_depth": 4,
    "rollout_policy": "random",
    "tree_depth": 1_000,
    "determinizations": 8,
    "prior_worlds": 1,
}


@dataclass(frozen=True, slots=True)
class GameAI:
    from_observation: Callable[[Any, int, random.Random], State]
    evaluate: Callable[[State], Sequence[float]]
    reward_scale: float = DEFAULT_REWARD_SCALE
    mcts_settings: Mapping[str, float | str] = field(default_factory=lambda: DEFAULT_MCTS_SETTINGS)
    evaluate_after: Callable[[State], Sequence[Sequence[float] | None]] | None = None
    action_key: Callable[[str], str] | None = None


@functools.cache
def get_ai(game: str) -> GameAI:
    """The search support of `game` (raises KeyError for an unknown game)."""
    module: ModuleType = importlib.import_module(_MODULES[game])
    return GameAI(
        module.from_observation,
        module.evaluate,
        getattr(module, "REWARD_SCALE", DEFAULT_REWARD_SCALE),
        {**DEFAULT_MCTS_SETTINGS, **getattr(module, "MCTS_SETTINGS", {})},
        getattr(module, "evaluate_after", None),
        getattr(module, "action_key", None),
    )
