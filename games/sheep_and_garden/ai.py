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
"""

from __future__ import annotations

import random
from typing import Any

from games.sheep_and_garden.analysis import LandscapeAnalysis
from games.sheep_and_garden.data import OBJECTIVE_BY_ID, OBJECTIVES, TILES
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
    return seat_values(state, soft_stats(state.board, hope(tiles_left)))


def evaluate_after(state: SheepAndGardenState) -> list[tuple[float, ...] | None]:
    """`evaluate` of the position after each legal action, in `legal_actions()`
    order, found from one analysis of the board (`LandscapeAnalysis.stats_after`)
    instead of placing each tile. None for an action that places the last tile:
    the game's result decides that one. A placement after which no tile fits
    anywhere also ends the game (rare); it is valued as a position."""
    actions = state.legal_actions()
    tiles_left = state.deck_size + len(state.display) - 1
    if tiles_left == 0:
        return [None] * len(actions)
    analysis = LandscapeAnalysis(state.board)
    weight = hope(tiles_left)
    return [
        seat_values(state, analysis.stats_after(a.tile, a.x, a.y, a.rotation, weight))
        for a in actions
    ]


def seat_values(state: SheepAndGardenState, stats: dict[str, float]) -> tuple[float, ...]:
    """Each seat's points from the cards it holds under `stats` (solo: own minus enemy)."""
    values = {slot.card: card_value(slot.card, stats) for slot in state.slots}
    if state.players == 1:
        own = sum(values[s.card] for s in state.slots if not s.enemy)
        enemy = sum(values[s.card] for s in state.slots if s.enemy)
        return (own - enemy,)
    totals = [0.0] * state.players
    for slot in state.slots:
        for holder in slot.holders:
            totals[holder] += values[slot.card]
    return tuple(totals)


def card_value(card_id: str, stats: dict[str, float]) -> float:
    """An objective card's points under (possibly weighted) `stats`."""
    card = OBJECTIVE_BY_ID[card_id]
    value = card.points * stats[card.count]
    if card.bonus == "per":
        value += card.bonus_points * stats[card.bonus_of]
    elif card.bonus == "fixed":
        reached = stats[card.bonus_of] / card.threshold
        value += card.bonus_points * (1.0 if reached >= 1.0 else reached * reached)
    return value


def soft_stats(board: dict[tuple[int, int], tuple[int, int]], hope: float) -> dict[str, float]:
    """The engine's scoring stats with "complete" replaced by a completion weight:
    1 when complete, else `hope * Q ** open_edges` (0 when `hope` is 0)."""
    return LandscapeAnalysis(board).stats(hope)


# Search settings: scores run to 20-30 points. In 20-60 game checks no setting
# tried made mcts clearly stronger than greedy here (see docs/games/
# sheep-and-garden.md, "Bots"); these are the cheapest of the best.
REWARD_SCALE = 5.0
MCTS_SETTINGS = {
    "milliseconds": 300.0,
    "rollout_depth": 2,
    "determinizations": 8,
    "prior_worlds": 8,
}
