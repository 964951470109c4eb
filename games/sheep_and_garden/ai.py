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

from games.sheep_and_garden.data import DIRECTIONS, OBJECTIVE_BY_ID, OBJECTIVES, TERRAINS, TILES
from games.sheep_and_garden.model import Slot
from games.sheep_and_garden.state import SheepAndGardenState

Q = 0.55  # weight kept per open edge of an incomplete area or road
HORIZON = 12.0  # tiles left at which potential starts to fade

_LAKE, _CITY, _GARDEN, _GRASS = (TERRAINS.index(t) for t in ("lake", "city", "garden", "grass"))
_DX = tuple(dx for dx, _ in DIRECTIONS)
_DY = tuple(dy for _, dy in DIRECTIONS)

# Static tables per tile id (and rotation, direction).
_N_AREAS = tuple(len(t.areas) for t in TILES)
_N_ROADS = tuple(len(t.roads) for t in TILES)
_N_LANDS = tuple(len(t.lands) for t in TILES)
_TERRAIN = tuple(tuple(TERRAINS.index(a.terrain) for a in t.areas) for t in TILES)
_OBJECTS = tuple(tuple(a.objects if any(a.objects) else None for a in t.areas) for t in TILES)
_LAND_OF = tuple(tuple(t.land_of(k) for k in range(len(t.areas))) for t in TILES)
_ROAD_END = tuple(tuple(1 if len(p.segments) == 1 else 0 for p in t.roads) for t in TILES)
_EDGE = tuple(
    tuple(
        tuple(tuple(t.owners[r][3 * d + k] for k in range(3)) for d in range(4)) for r in range(4)
    )
    for t in TILES
)
_EDGE_SET = tuple(
    tuple(tuple(tuple(sorted(set(edge))) for edge in rotation) for rotation in tile)
    for tile in _EDGE
)


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
    stats = soft_stats(state.board, min(1.0, tiles_left / HORIZON))
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


def _find(parent: list[int], node: int) -> int:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def soft_stats(board: dict[tuple[int, int], tuple[int, int]], hope: float) -> dict[str, float]:
    """The engine's scoring stats with "complete" replaced by a completion weight:
    1 when complete, else `hope * Q ** open_edges` (0 when `hope` is 0)."""
    area_base: dict[tuple[int, int], int] = {}
    road_base: dict[tuple[int, int], int] = {}
    land_base: dict[tuple[int, int], int] = {}
    n_areas = n_roads = n_lands = 0
    for cell, (tile, _) in board.items():
        area_base[cell], road_base[cell], land_base[cell] = n_areas, n_roads, n_lands
        n_areas += _N_AREAS[tile]
        n_roads += _N_ROADS[tile]
        n_lands += _N_LANDS[tile]
    areas = list(range(n_areas))
    roads = list(range(n_roads))
    lands = list(range(n_lands))
    area_open = [0] * n_areas
    road_open = [0] * n_roads
    faced: dict[int, set[tuple[int, int]]] = {}
    land_merges = 0
    for cell, (tile, rotation) in board.items():
        x, y = cell
        a0, r0 = area_base[cell], road_base[cell]
        edges = _EDGE[tile][rotation]
        for d in range(4):
            other = (x + _DX[d], y + _DY[d])
            placed = board.get(other)
            if placed is None:
                for owner in _EDGE_SET[tile][rotation][d]:
                    if owner >= 100:
                        road_open[r0 + owner - 100] += 1
                    else:
                        area_open[a0 + owner] += 1
                        if _TERRAIN[tile][owner] != _GRASS:
                            faced.setdefault(a0 + owner, set()).add(other)
                continue
            if d != 1 and d != 2:  # each shared edge once: from its west / north tile
                continue
            theirs = _EDGE[placed[0]][placed[1]][(d + 2) % 4]
            mine = edges[d]
            b0 = area_base[other]
            for k in range(3):
                owner, their = mine[k], theirs[2 - k]
                if owner >= 100:
                    ra = _find(roads, r0 + owner - 100)
                    rb = _find(roads, road_base[other] + their - 100)
                    if ra != rb:
                        roads[max(ra, rb)] = min(ra, rb)
                    continue
                ra = _find(areas, a0 + owner)
                rb = _find(areas, b0 + their)
                if ra != rb:
                    areas[max(ra, rb)] = min(ra, rb)
                if _TERRAIN[tile][owner] != _LAKE:
                    la = _find(lands, land_base[cell] + _LAND_OF[tile][owner])
                    lb = _find(lands, land_base[other] + _LAND_OF[placed[0]][their])
                    if la != lb:
                        lands[max(la, lb)] = min(la, lb)
                        land_merges += 1
    # Join each area's tile parts: [terrain, open edges, cells, objects, faced cells].
    groups: dict[int, list[Any]] = {}
    for cell, (tile, _) in board.items():
        a0 = area_base[cell]
        for k in range(_N_AREAS[tile]):
            node = a0 + k
            root = _find(areas, node)
            group = groups.get(root)
            if group is None:
                group = groups[root] = [_TERRAIN[tile][k], 0, set(), [0] * 6, set()]
            group[1] += area_open[node]
            group[2].add(cell)
            objects = _OBJECTS[tile][k]
            if objects is not None:
                totals = group[3]
                for i in range(6):
                    totals[i] += objects[i]
            if node in faced:
                group[4] |= faced[node]
    road_groups: dict[int, list[int]] = {}
    for cell, (tile, _) in board.items():
        r0 = road_base[cell]
        for k in range(_N_ROADS[tile]):
            root = _find(roads, r0 + k)
            group = road_groups.setdefault(root, [0, 0])
            group[0] += _ROAD_END[tile][k]
            group[1] += road_open[r0 + k]
    number = [0.0] * 4
    fish = trees_in_gardens = humans_in_cities = 0.0
    cows = trees = humans = with_sheep = most_sheep = empty = settlements = hearts = 0.0
    for terrain, open_edges, cells, objects, faced_cells in groups.values():
        weight = 1.0 if open_edges == 0 else hope * Q**open_edges
        if weight == 0.0:
            continue
        number[terrain] += weight
        sheep, cow, human, tree, house, fish_here = objects
        if terrain == _LAKE:
            fish += weight * fish_here
        elif terrain == _GARDEN:
            trees_in_gardens += weight * tree
        elif terrain == _CITY:
            humans_in_cities += weight * human
        cows += weight * cow
        trees += weight * tree
        humans += weight * human
        if sheep:
            with_sheep += weight
            most_sheep = max(most_sheep, weight * sheep)
        if terrain == _GRASS and not any(objects):
            empty += weight
        if house >= 3:
            settlements += weight
        if terrain != _GRASS and len(cells) <= 3 and _is_l(cells | faced_cells):
            hearts += weight
    return {
        "complete_lakes": number[_LAKE],
        "fish_in_complete_lakes": fish,
        "complete_gardens": number[_GARDEN],
        "trees_in_complete_gardens": trees_in_gardens,
        "complete_cities": number[_CITY],
        "humans_in_complete_cities": humans_in_cities,
        "complete_grass": number[_GRASS],
        "complete_roads": sum(
            1.0 if opened == 0 and ends == 2 else hope * Q**opened if opened else 0.0
            for ends, opened in road_groups.values()
        ),
        "hearts": hearts,
        "lands": float(n_lands - land_merges),
        "cows_in_complete_areas": cows,
        "trees_in_complete_areas": trees,
        "humans_in_complete_areas": humans,
        "complete_areas_with_sheep": with_sheep,
        "most_sheep_in_a_complete_area": most_sheep,
        "empty_grass_areas": empty,
        "settlements": settlements,
    }


def _is_l(cells: set[tuple[int, int]]) -> bool:
    """Three cells of one 2x2 block."""
    if len(cells) != 3:
        return False
    xs = {x for x, _ in cells}
    ys = {y for _, y in cells}
    return len(xs) == 2 and len(ys) == 2 and max(xs) - min(xs) == 1 and max(ys) - min(ys) == 1


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
