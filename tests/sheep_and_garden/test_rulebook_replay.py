"""Random games checked against the rulebook by a second, independent reading.

Each landscape a random game builds is flooded segment by segment straight from
the tile data (not through the engine's joining), and the rulebook's counts
must agree with the engine's: completed areas ("closed"), what lies in them,
complete roads ("both sides of it connect to Cities"), hearts and lands ("Edges
not connected to a tile are regarded as a Lake"), and the humans in complete
cities and trees in complete gardens that the cities and gardens cards add. The
play itself is checked too: every placement "connected", turns to the left, 3
tiles on the side (solo: one drawn and placed at once), the end once all 37 are
placed, and each seat's score as the sum of the objective cards in front of it
and beside it. And each turn's legal actions are exactly the placements that
connect, found by trying every shown tile on every empty cell next to the
landscape in all four turns.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import DIRECTIONS, OBJECTIVE_BY_ID, OBJECTS, TILES
from games.sheep_and_garden.scoring import analyse
from games.sheep_and_garden.state import SheepAndGardenState

Cell = tuple[int, int]
Node = tuple[str, Cell, int]


def _segment_owners(tile: int, rotation: int, cell: Cell) -> dict[int, Node]:
    """Segment position on the board (after turning) -> the area or road piece there."""
    owners: dict[int, Node] = {}
    for k, area in enumerate(TILES[tile].areas):
        for s in area.segments:
            owners[(s + 3 * rotation) % 12] = ("area", cell, k)
    for k, piece in enumerate(TILES[tile].roads):
        for s in piece.segments:
            owners[(s + 3 * rotation) % 12] = ("road", cell, k)
    return owners


class Flood:
    """Connected parts of a landscape by plain breadth-first search."""

    def __init__(self) -> None:
        self.links: dict[Node, set[Node]] = defaultdict(set)
        self.open: set[Node] = set()

    def link(self, a: Node, b: Node) -> None:
        self.links[a].add(b)
        self.links[b].add(a)

    def parts(self, nodes: list[Node]) -> list[set[Node]]:
        seen: set[Node] = set()
        found = []
        for start in nodes:
            if start in seen:
                continue
            part, todo = set(), [start]
            while todo:
                node = todo.pop()
                if node in part:
                    continue
                part.add(node)
                todo.extend(self.links[node] - part)
            seen |= part
            found.append(part)
        return found


COUNTS = (
    "complete_roads",
    "complete_lake",
    "complete_city",
    "complete_garden",
    "complete_grass",
    "cows",
    "trees",
    "humans",
    "fish_in_lakes",
    "humans_in_cities",
    "trees_in_gardens",
    "areas_with_sheep",
    "most_sheep",
    "empty_grass",
    "settlements",
    "hearts",
    "lands",
)


def rulebook_counts(board: dict[Cell, tuple[int, int]]) -> dict[str, int]:
    flood, lands = Flood(), Flood()
    nodes: list[Node] = []
    land_nodes: list[Node] = []
    owners = {cell: _segment_owners(t, r, cell) for cell, (t, r) in board.items()}
    for cell, (tile, _) in board.items():
        nodes += [("area", cell, k) for k in range(len(TILES[tile].areas))]
        nodes += [("road", cell, k) for k in range(len(TILES[tile].roads))]
        land_nodes += [("land", cell, g) for g in range(len(TILES[tile].lands))]
    for cell, mine in owners.items():
        tile = board[cell][0]
        for position, node in mine.items():
            d, k = divmod(position, 3)
            other = (cell[0] + DIRECTIONS[d][0], cell[1] + DIRECTIONS[d][1])
            if other not in board:
                flood.open.add(node)
                continue
            theirs = owners[other][3 * ((d + 2) % 4) + (2 - k)]
            assert theirs[0] == node[0]  # a road meets a road, an area an area
            flood.link(node, theirs)
            if node[0] == "area" and TILES[tile].areas[node[2]].terrain != "lake":
                their_tile = TILES[board[other][0]]
                lands.link(
                    ("land", cell, TILES[tile].land_of(node[2])),
                    ("land", other, their_tile.land_of(theirs[2])),
                )
    counts = dict.fromkeys(COUNTS, 0)
    most_sheep = 0
    for part in flood.parts(nodes):
        kind = next(iter(part))[0]
        complete = not (part & flood.open)
        if kind == "road":
            ends = [
                TILES[board[cell][0]].roads[k]
                for _, cell, k in part
                if len(TILES[board[cell][0]].roads[k].segments) == 1
            ]
            cities = sum(1 for piece in ends if piece.city is not None)
            counts["complete_roads"] += complete and len(ends) == 2 and cities == 2
            continue
        if not complete:
            continue
        areas = [TILES[board[cell][0]].areas[k] for _, cell, k in part]
        terrain = areas[0].terrain
        assert all(a.terrain == terrain for a in areas)
        objects = {name: sum(a.count(name) for a in areas) for name in OBJECTS}
        counts[f"complete_{terrain}"] += 1
        counts["cows"] += objects["cow"]
        counts["trees"] += objects["tree"]
        counts["humans"] += objects["human"]
        counts["fish_in_lakes"] += objects["fish"] if terrain == "lake" else 0
        counts["humans_in_cities"] += objects["human"] if terrain == "city" else 0
        counts["trees_in_gardens"] += objects["tree"] if terrain == "garden" else 0
        counts["areas_with_sheep"] += objects["sheep"] > 0
        most_sheep = max(most_sheep, objects["sheep"])
        counts["empty_grass"] += terrain == "grass" and not any(objects.values())
        counts["settlements"] += objects["house"] >= 3
        cells = {cell for _, cell, _ in part}
        xs, ys = {x for x, _ in cells}, {y for _, y in cells}
        l_shape = len(cells) == 3 and len(xs) == len(ys) == 2
        l_shape = l_shape and max(xs) - min(xs) == max(ys) - min(ys) == 1
        counts["hearts"] += terrain != "grass" and l_shape
    counts["most_sheep"] = most_sheep
    counts["lands"] = len(lands.parts(land_nodes))
    return counts


def engine_counts(board: dict[Cell, tuple[int, int]]) -> dict[str, int]:
    stats = analyse(board).stats()
    return {
        "complete_roads": stats["complete_roads"],
        "complete_lake": stats["complete_lakes"],
        "complete_city": stats["complete_cities"],
        "complete_garden": stats["complete_gardens"],
        "complete_grass": stats["complete_grass"],
        "cows": stats["cows_in_complete_areas"],
        "trees": stats["trees_in_complete_areas"],
        "humans": stats["humans_in_complete_areas"],
        "fish_in_lakes": stats["fish_in_complete_lakes"],
        "humans_in_cities": stats["humans_in_complete_cities"],
        "trees_in_gardens": stats["trees_in_complete_gardens"],
        "areas_with_sheep": stats["complete_areas_with_sheep"],
        "most_sheep": stats["most_sheep_in_a_complete_area"],
        "empty_grass": stats["empty_grass_areas"],
        "settlements": stats["settlements"],
        "hearts": stats["hearts"],
        "lands": stats["lands"],
    }


def _connected(board: dict[Cell, tuple[int, int]], tile: int, x: int, y: int, r: int) -> bool:
    """ "the areas and roads MUST be connected": it touches the landscape, and every
    segment along a shared edge meets one of the same kind."""
    mine = TILES[tile].letters(r)
    touching = False
    for d, (dx, dy) in enumerate(DIRECTIONS):
        other = board.get((x + dx, y + dy))
        if other is None:
            continue
        touching = True
        theirs = TILES[other[0]].letters(other[1])
        back = (d + 2) % 4
        if mine[3 * d : 3 * d + 3] != theirs[3 * back : 3 * back + 3][::-1]:
            return False
    return touching


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_replay_by_the_rulebook(players: int, seed: int) -> None:
    state = GAME.new_state(players, seed, {})
    assert isinstance(state, SheepAndGardenState)
    rng = random.Random(seed)
    seat = state.to_move
    checked = 0
    while not state.terminal:
        assert state.to_move == seat  # "the left player takes a turn"
        side = 1 if players == 1 else 3
        assert len(state.display) == min(side, state.deck_size + len(state.display))
        legal = state.legal_actions()
        assert any(a.tile == t for a in legal for t in state.display)
        action = legal[rng.randrange(len(legal))]
        assert _connected(state.board, action.tile, action.x, action.y, action.rotation)
        state.apply(action)
        seat = (seat + 1) % players
        if len(state.board) % 6 == 0:
            assert rulebook_counts(state.board) == engine_counts(state.board)
            checked += 1
    assert checked >= 5
    assert state.end_reason == "all tiles placed" and len(state.board) == 37
    counts = rulebook_counts(state.board)
    assert counts == engine_counts(state.board)
    # Each seat scores the cards in front of it (and, with 3-4 players, the two
    # between it and its neighbours); solo: own minus the enemy's.
    stats = analyse(state.board).stats()
    points = {slot.card: OBJECTIVE_BY_ID[slot.card].score(stats)[1] for slot in state.slots}
    totals = [
        sum(points[s.card] for s in state.slots if seat in s.holders) for seat in range(players)
    ]
    for seat in range(players):
        held = [s for s in state.slots if seat in s.holders]
        assert len(held) == 3
        if players >= 3:
            shared = sorted(h for s in held for h in s.holders if h != seat)
            assert shared == sorted({(seat - 1) % players, (seat + 1) % players})
    if players == 1:
        enemy = sum(points[s.card] for s in state.slots if s.enemy)
        totals = [totals[0] - enemy]
    assert state.result().scores == tuple(float(t) for t in totals)


def _faces(tile: int) -> dict[int, tuple]:
    """Rotation -> what the tile shows turned so (equal for rotations that look the same)."""
    t = TILES[tile]
    return {
        r: (
            t.letters(r),
            tuple(
                sorted(
                    (a.terrain, tuple(sorted((s + 3 * r) % 12 for s in a.segments)), a.objects)
                    for a in t.areas
                )
            ),
            tuple(sorted(tuple(sorted((s + 3 * r) % 12 for s in p.segments)) for p in t.roads)),
        )
        for r in range(4)
    }


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_turn_offers_exactly_the_placements_the_rulebook_allows(players: int) -> None:
    """ "The player chooses 1 tile from the 3 tiles on the side and places it connected
    to tiles already placed"; "the areas and roads MUST be connected." Every turn of
    random games, every shown tile is tried on every empty cell next to the landscape in
    all four turns: the legal actions are exactly the placements that connect (each way
    the tile can lie once), so the engine neither allows a placement the rulebook
    forbids nor refuses one it allows."""
    for seed in range(4):
        state = GAME.new_state(players, 100 + seed, {})
        assert isinstance(state, SheepAndGardenState)
        rng = random.Random(seed)
        while not state.terminal:
            board = state.board
            empty = {(x + dx, y + dy) for x, y in board for dx, dy in DIRECTIONS} - set(board)
            allowed = set()
            for tile in state.display:
                faces = _faces(tile)
                for x, y in empty:
                    for r in range(4):
                        if _connected(board, tile, x, y, r):
                            allowed.add((tile, x, y, faces[r]))
            legal = state.legal_actions()
            offered = [(a.tile, a.x, a.y, _faces(a.tile)[a.rotation]) for a in legal]
            assert len(offered) == len(set(offered))
            assert set(offered) == allowed
            state.apply(legal[rng.randrange(len(legal))])
