"""Search support for Sheep & Garden: sampling a state from an observation, and
the heuristic that `greedy` and `mcts` use (see `games.ai`).

Hidden from a seat are only the deck order and the face-down objective cards.
The deck's contents are public (every tile not on the table or in the display),
so `from_observation` shuffles them with `rng`; each face-down slot gets a
card drawn without replacement from the cards the seat sees nowhere.

The heuristic (`evaluate`): every seat's objective points on the landscape as
it is now, plus the points that incomplete things would add, each weighted by
how likely it looks to be completed before the end:

- A complete area or road counts 1. An incomplete area with `e` open edges
  (edges of its tiles that face an empty cell) counts `hope * Q ** e`, an
  incomplete road with `e` open ends `hope * Q ** e` (a closed loop never
  completes: 0). `hope = min(1, tiles_left / HORIZON)` fades the potential as
  the tiles run out: with none left, only complete things count, exactly as
  the final scoring does.
- These weights replace the 0/1 "complete" of every count the cards use:
  complete lakes, gardens, cities, roads; fish, trees, humans, cows in
  complete areas; areas with sheep; empty grass areas; settlements (areas with
  3+ houses). Lands need no completion and count exactly. A heart counts 1
  when complete; an incomplete lake, city or garden on at most 3 cells whose
  cells plus the empty cells it faces form an L of three counts its weight.
- A "per" bonus is linear in its weighted count. A "fixed" bonus (threshold T)
  counts in full once its weighted count reaches T, else
  `(count / T) ** 2` of it (near misses are worth working for).
- Seats score the cards they hold (a shared card counts for both holders); solo
  scores own cards minus the enemy's, as the final result does.

On a finished game it returns the final scores. `soft_stats(board, hope=0)`
equals the engine's `analyse(board).stats()`; the tests check this.

`evaluate_after` gives the same values for every legal action at once, from one
`LandscapeAnalysis` of the board (games/sheep_and_garden/analysis.py), about
ten times faster than placing each tile and evaluating; the bots use it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.sheep_and_garden.analysis import STAT_NAMES, LandscapeAnalysis
from games.sheep_and_garden.data import OBJECTIVES, TILES
from games.sheep_and_garden.model import Slot
from games.sheep_and_garden.state import SheepAndGardenState

HORIZON = 12.0  # tiles left at which potential starts to fade


def hope(tiles_left: int) -> float:
    """How much incomplete things still count with `tiles_left` tiles to place."""
    return min(1.0, tiles_left / HORIZON)


def from_observation(observation: Any, seat: int, rng: random.Random) -> SheepAndGardenState:
    """A full state consistent with `observation` (a SheepAndGardenObservation
    message) as `seat` sees it: deck order and face-down cards drawn with `rng`."""
    placed = [(p.tile, p.x, p.y, p.rotation) for p in observation.placed]
    display = list(observation.display)
    seen_tiles = {p[0] for p in placed} | set(display)
    deck = [t for t in range(len(TILES)) if t not in seen_tiles]
    if len(deck) != observation.deck_size:
        raise ValueError(f"deck of {observation.deck_size} but {len(deck)} tiles unseen")
    rng.shuffle(deck)
    seen_cards = {o.card for o in observation.objectives if o.card}
    unseen = [card.id for card in OBJECTIVES if card.id not in seen_cards]
    hidden = [o for o in observation.objectives if not o.card]
    drawn = iter(rng.sample(unseen, len(hidden)))
    slots = tuple(
        Slot(o.card or next(drawn), tuple(o.holders), o.face_up, o.enemy)
        for o in sorted(observation.objectives, key=lambda o: o.slot)
    )
    return SheepAndGardenState.from_position(
        observation.players,
        placed,
        display,
        deck,
        slots=slots,
        to_move=observation.to_move if observation.HasField("to_move") else None,
        seed=rng.getrandbits(64),
        end_reason=observation.end_reason,
    )


def evaluate(state: SheepAndGardenState) -> tuple[float, ...]:
    """Each seat's objective points now plus weighted potential (module docstring)."""
    if state.to_move is None:
        return tuple(state.result().scores)
    tiles_left = state.deck_size + len(state.display)
    return seat_values(state, LandscapeAnalysis(state.board).values(hope(tiles_left)))


def evaluate_after(state: SheepAndGardenState) -> list[tuple[float, ...] | None]:
    """`evaluate` of the position after each legal action, in `legal_actions()`
    order, found from one analysis of the board (`LandscapeAnalysis.values_after`)
    instead of placing each tile. None for an action that places the last tile:
    the game's result decides that one. A placement after which no tile fits
    anywhere also ends the game (rare); it is valued as a position."""
    actions = state.legal_actions()
    tiles_left = state.deck_size + len(state.display) - 1
    if tiles_left == 0:
        return [None] * len(actions)
    analysis = LandscapeAnalysis(state.board)
    weight = hope(tiles_left)
    # Rounded: the sums lose a few ulps taking groups out and putting them back,
    # and placements worth the same must stay exact ties for greedy's tie-break.
    return [
        tuple(
            round(v, 9)
            for v in seat_values(state, analysis.values_after(a.tile, a.x, a.y, a.rotation, weight))
        )
        for a in actions
    ]


def seat_values(state: SheepAndGardenState, values: Sequence[float]) -> tuple[float, ...]:
    """Each seat's points from the cards it holds, given stat `values` in
    `STAT_NAMES` order; solo: own cards minus the enemy's."""
    totals = [0.0] * state.players
    for slot in state.slots:
        points = card_points(slot.card, values)
        if slot.enemy:
            totals[0] -= points
        for holder in slot.holders:
            totals[holder] += points
    return tuple(totals)


# Each card as (points, count index, bonus kind, bonus points, bonus-count index,
# threshold), the indices into STAT_NAMES: the bots' innermost loop reads these.
_CARD_FORMULA = {
    card.id: (
        card.points,
        STAT_NAMES.index(card.count),
        card.bonus,
        card.bonus_points,
        STAT_NAMES.index(card.bonus_of) if card.bonus in ("per", "fixed") else 0,
        card.threshold,
    )
    for card in OBJECTIVES
}


def card_points(card_id: str, values: Sequence[float]) -> float:
    """An objective card's points under (possibly weighted) stat `values`."""
    points, count, bonus, bonus_points, bonus_of, threshold = _CARD_FORMULA[card_id]
    value = points * values[count]
    if bonus == "per":
        value += bonus_points * values[bonus_of]
    elif bonus == "fixed":
        reached = values[bonus_of] / threshold
        value += bonus_points * (1.0 if reached >= 1.0 else reached * reached)
    return value


def soft_stats(board: dict[tuple[int, int], tuple[int, int]], hope: float) -> dict[str, float]:
    """The engine's scoring stats with "complete" replaced by a completion weight:
    1 when complete, else `hope * Q ** open_edges` (0 when `hope` is 0)."""
    return LandscapeAnalysis(board).stats(hope)


# Search settings. A random placement spoils more than it builds, so random
# rollouts only blur the evaluation: mcts here is the rollout algorithm over
# greedy (tree depth 1; every seat plays greedy's action for 8 more placements,
# then the heuristic scores the position; see clients/bots/search.py). Measured
# in docs/games/sheep-and-garden.md, "Bots".
REWARD_SCALE = 5.0
MCTS_SETTINGS = {
    "milliseconds": 500.0,
    "tree_depth": 1,
    "rollout_policy": "greedy",
    "rollout_depth": 8,
    "determinizations": 8,
    "prior_worlds": 8,
}
