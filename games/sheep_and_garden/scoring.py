"""Areas, roads and lands of a landscape, and the objective scores they give.

A landscape is a mapping cell -> (tile id, rotation). Tile areas join through
matching segments into areas; road pieces into roads; land groups (through
non-lake segments) into lands. Open edges count as lake for lands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.sheep_and_garden.data import DIRECTIONS, OBJECTIVES, OBJECTS, TILES, Objective, facing

Cell = tuple[int, int]
Landscape = Mapping[Cell, tuple[int, int]]

_SHEEP, _COW, _HUMAN, _TREE, _HOUSE, _FISH = range(len(OBJECTS))


@dataclass(frozen=True, slots=True)
class AreaInfo:
    """One joined area of the landscape."""

    terrain: str
    complete: bool
    cells: frozenset[Cell]
    objects: tuple[int, ...]  # totals in OBJECTS order

    @property
    def is_heart(self) -> bool:
        """A complete garden, city or lake on exactly 3 tiles forming an L."""
        if not self.complete or self.terrain == "grass" or len(self.cells) != 3:
            return False
        xs = {x for x, _ in self.cells}
        ys = {y for _, y in self.cells}
        return len(xs) == 2 and len(ys) == 2 and max(xs) - min(xs) == 1 and max(ys) - min(ys) == 1


@dataclass(frozen=True, slots=True)
class RoadInfo:
    """One joined road: complete when closed and both ends stop at cities."""

    cells: frozenset[Cell]
    ends: int
    closed: bool

    @property
    def complete(self) -> bool:
        return self.closed and self.ends == 2


@dataclass(frozen=True, slots=True)
class Analysis:
    areas: tuple[AreaInfo, ...]
    roads: tuple[RoadInfo, ...]
    lands: int

    def stats(self) -> dict[str, int]:
        done = [a for a in self.areas if a.complete]

        def total(index: int, terrain: str | None = None) -> int:
            return sum(a.objects[index] for a in done if terrain is None or a.terrain == terrain)

        def number(terrain: str) -> int:
            return sum(1 for a in done if a.terrain == terrain)

        return {
            "complete_lakes": number("lake"),
            "fish_in_complete_lakes": total(_FISH, "lake"),
            "complete_gardens": number("garden"),
            "trees_in_complete_gardens": total(_TREE, "garden"),
            "complete_cities": number("city"),
            "humans_in_complete_cities": total(_HUMAN, "city"),
            "complete_grass": number("grass"),
            "complete_roads": sum(1 for r in self.roads if r.complete),
            "hearts": sum(1 for a in done if a.is_heart),
            "lands": self.lands,
            "cows_in_complete_areas": total(_COW),
            "trees_in_complete_areas": total(_TREE),
            "humans_in_complete_areas": total(_HUMAN),
            "complete_areas_with_sheep": sum(1 for a in done if a.objects[_SHEEP] > 0),
            "most_sheep_in_a_complete_area": max((a.objects[_SHEEP] for a in done), default=0),
            "empty_grass_areas": sum(
                1 for a in done if a.terrain == "grass" and not any(a.objects)
            ),
            "settlements": sum(1 for a in done if a.objects[_HOUSE] >= 3),
        }


class _UnionFind:
    __slots__ = ("parent",)

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def analyse(landscape: Landscape) -> Analysis:
    """Join the tiles of `landscape` into areas, roads and lands."""
    cells = sorted(landscape)
    area_base: dict[Cell, int] = {}
    road_base: dict[Cell, int] = {}
    land_base: dict[Cell, int] = {}
    n_areas = n_roads = n_lands = 0
    for cell in cells:
        tile = TILES[landscape[cell][0]]
        area_base[cell], road_base[cell], land_base[cell] = n_areas, n_roads, n_lands
        n_areas += len(tile.areas)
        n_roads += len(tile.roads)
        n_lands += len(tile.lands)
    areas = _UnionFind(n_areas)
    roads = _UnionFind(n_roads)
    lands = _UnionFind(n_lands)
    area_open = [False] * n_areas
    road_open = [False] * n_roads
    for cell in cells:
        tile_id, rotation = landscape[cell]
        tile = TILES[tile_id]
        owners = tile.owners[rotation]
        x, y = cell
        for d, (dx, dy) in enumerate(DIRECTIONS):
            other = (x + dx, y + dy)
            placed = landscape.get(other)
            for k in range(3):
                segment = 3 * d + k
                owner = owners[segment]
                if placed is None:
                    if owner >= 100:
                        road_open[road_base[cell] + owner - 100] = True
                    else:
                        area_open[area_base[cell] + owner] = True
                    continue
                if d not in (1, 2):  # each shared edge once: from its west / north tile
                    continue
                other_owner = TILES[placed[0]].owners[placed[1]][facing(segment)]
                if owner >= 100:
                    roads.union(road_base[cell] + owner - 100, road_base[other] + other_owner - 100)
                    continue
                areas.union(area_base[cell] + owner, area_base[other] + other_owner)
                if tile.areas[owner].terrain != "lake":
                    lands.union(
                        land_base[cell] + tile.land_of(owner),
                        land_base[other] + TILES[placed[0]].land_of(other_owner),
                    )
    return Analysis(
        areas=_collect_areas(landscape, cells, area_base, areas, area_open),
        roads=_collect_roads(landscape, cells, road_base, roads, road_open),
        lands=len({lands.find(node) for node in range(n_lands)}),
    )


def _collect_areas(landscape, cells, base, union, open_flags) -> tuple[AreaInfo, ...]:
    groups: dict[int, list] = {}
    for cell in cells:
        tile = TILES[landscape[cell][0]]
        for k, area in enumerate(tile.areas):
            node = base[cell] + k
            root = union.find(node)
            group = groups.setdefault(root, [area.terrain, False, set(), [0] * len(OBJECTS)])
            group[1] = group[1] or open_flags[node]
            group[2].add(cell)
            for index, count in enumerate(area.objects):
                group[3][index] += count
    return tuple(
        AreaInfo(terrain=g[0], complete=not g[1], cells=frozenset(g[2]), objects=tuple(g[3]))
        for _, g in sorted(groups.items())
    )


def _collect_roads(landscape, cells, base, union, open_flags) -> tuple[RoadInfo, ...]:
    groups: dict[int, list] = {}
    for cell in cells:
        tile = TILES[landscape[cell][0]]
        for k, piece in enumerate(tile.roads):
            node = base[cell] + k
            root = union.find(node)
            group = groups.setdefault(root, [set(), 0, False])
            group[0].add(cell)
            group[1] += 1 if len(piece.segments) == 1 else 0
            group[2] = group[2] or open_flags[node]
    return tuple(
        RoadInfo(cells=frozenset(g[0]), ends=g[1], closed=not g[2])
        for _, g in sorted(groups.items())
    )


def score_cards(stats: dict[str, int], cards: tuple[Objective, ...] = OBJECTIVES) -> dict:
    """{card id: (count, points)} for every card."""
    return {card.id: card.score(stats) for card in cards}
