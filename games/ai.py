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
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from games.contract import State

_MODULES = {
    "sheep-showdown": "games.sheep_showdown.ai",
    "sheep-n-sheep": "games.sheep_n_sheep.ai",
    "stubborn-sheep": "games.stubborn_sheep.ai",
    "sheep-and-garden": "games.sheep_and_garden.ai",
}


@dataclass(frozen=True, slots=True)
class GameAI:
    from_observation: Callable[[Any, int, random.Random], State]
    evaluate: Callable[[State], Sequence[float]]


def get_ai(game: str) -> GameAI:
    """The search support of `game` (raises KeyError for an unknown game)."""
    module: ModuleType = importlib.import_module(_MODULES[game])
    return GameAI(module.from_observation, module.evaluate)
