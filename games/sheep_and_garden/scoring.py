"""Areas, roads and lands of a landscape, and the objective scores they give.

A landscape is a mapping cell -> (tile id, rotation). Tile areas join through
matching segments into areas; road pieces into roads; land groups (through
non-lake segments) into lands. Open edges count as lake for lands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.sheep_and_garden import geometry
from games.sheep_and_garden.data import OBJECTIVES, OBJECTS, TERRAINS, Objective

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
        return self.complete and self.terrain != "grass" and is_l_shape(self.cells)


def is_l_shape(cells: set[Cell] | frozenset[Cell]) -> bool:
    """Three cells of one 2x2 block."""
    if len(cells) != 3:
        return False
    xs = {x for x, _ in cells}
    ys = {y for _, y in cells}
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


class AreaGroup:
    """A joined area while and after joining: terrain (index into TERRAINS),
    open edges (one per tile part and side facing an empty cell), the cells it
    covers, its object totals (OBJECTS order), and the empty cells its lake,
    city or garden parts face."""

    __slots__ = ("cells", "faced", "objects", "open", "terrain")

    def __init__(self, terrain: int) -> None:
        self.terrain = terrain
        self.open = 0
        self.cells: set[Cell] = set()
        self.objects = [0] * len(OBJECTS)
        self.faced: set[Cell] = set()


class RoadGroup:
    """A joined road: its ends that stop at a city, open ends, and cells."""

    __slots__ = ("cells", "ends", "open")

    def __init__(self) -> None:
        self.ends = 0
        self.open = 0
        self.cells: set[Cell] = set()


@dataclass(frozen=True, slots=True)
class JoinedLandscape:
    """Every group of a landscape, keyed by root id, and for each cell the root
    of each of its tile's areas, road pieces and land groups."""

    areas: dict[int, AreaGroup]
    roads: dict[int, RoadGroup]
    lands: int
    area_roots: dict[Cell, tuple[int, ...]]
    road_roots: dict[Cell, tuple[int, ...]]
    land_roots: dict[Cell, tuple[int, ...]]


def find_root(parent: list[int], node: int) -> int:
    """Union-find over a parent list: the root of `node` (halving the path)."""
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def union(parent: list[int], a: int, b: int) -> bool:
    """Join the sets of `a` and `b` (the smaller root stays); False if already one."""
    # find_root twice, written out: a final scoring makes some 200 unions.
    while parent[a] != a:
        parent[a] = a = parent[parent[a]]
    while parent[b] != b:
        parent[b] = b = parent[parent[b]]
    if a == b:
        return False
    if a < b:
        parent[b] = a
    else:
        parent[a] = b
    return True


def join(landscape: Landscape) -> JoinedLandscape:
    """Join the tiles of `landscape` into areas, roads and lands (union-find
    over tile parts through matching segments)."""
    cells = sorted(landscape)
    area_base: dict[Cell, int] = {}
    road_base: dict[Cell, int] = {}
    land_base: dict[Cell, int] = {}
    n_areas = n_roads = n_lands = 0
    for cell in cells:
        tile = landscape[cell][0]
        area_base[cell], road_base[cell], land_base[cell] = n_areas, n_roads, n_lands
        n_areas += geometry.N_AREAS[tile]
        n_roads += geometry.N_ROADS[tile]
        n_lands += geometry.N_LANDS[tile]
    areas = list(range(n_areas))
    roads = list(range(n_roads))
    lands = list(range(n_lands))
    area_open = [0] * n_areas
    road_open = [0] * n_roads
    faced: dict[int, set[Cell]] = {}
    land_joins = 0
    for cell in cells:
        tile, rotation = landscape[cell]
        x, y = cell
        a0, r0 = area_base[cell], road_base[cell]
        for d in range(4):
            other = (x + geometry.DX[d], y + geometry.DY[d])
            placed = landscape.get(other)
            if placed is None:
                for owner in geometry.SIDE_OWNER_SET[tile][rotation][d]:
                    if owner >= 100:
                        road_open[r0 + owner - 100] += 1
                    else:
                        area_open[a0 + owner] += 1
                        if geometry.AREA_TERRAIN[tile][owner] != geometry.GRASS:
                            faced.setdefault(a0 + owner, set()).add(other)
                continue
            if d != 1 and d != 2:  # each shared side once: from its west / north tile
                continue
            theirs = geometry.SIDE_OWNERS[placed[0]][placed[1]][(d + 2) % 4]
            mine = geometry.SIDE_OWNERS[tile][rotation][d]
            for owner, their in {(mine[0], theirs[2]), (mine[1], theirs[1]), (mine[2], theirs[0])}:
                if owner >= 100:
                    union(roads, r0 + owner - 100, road_base[other] + their - 100)
                    continue
                union(areas, a0 + owner, area_base[other] + their)
                if geometry.AREA_TERRAIN[tile][owner] != geometry.LAKE and union(
                    lands,
                    land_base[cell] + geometry.LAND_OF_AREA[tile][owner],
                    land_base[other] + geometry.LAND_OF_AREA[placed[0]][their],
                ):
                    land_joins += 1
    area_groups: dict[int, AreaGroup] = {}
    road_groups: dict[int, RoadGroup] = {}
    area_roots: dict[Cell, tuple[int, ...]] = {}
    road_roots: dict[Cell, tuple[int, ...]] = {}
    land_roots: dict[Cell, tuple[int, ...]] = {}
    for cell in cells:
        tile = landscape[cell][0]
        a0, r0, l0 = area_base[cell], road_base[cell], land_base[cell]
        roots = []
        for k in range(geometry.N_AREAS[tile]):
            node = a0 + k
            root = find_root(areas, node)
            roots.append(root)
            group = area_groups.get(root)
            if group is None:
                group = area_groups[root] = AreaGroup(geometry.AREA_TERRAIN[tile][k])
            group.open += area_open[node]
            group.cells.add(cell)
            totals = group.objects
            for i, count in geometry.AREA_OBJECT_COUNTS[tile][k]:
                totals[i] += count
            if node in faced:
                group.faced |= faced[node]
        area_roots[cell] = tuple(roots)
        roots = []
        for k in range(geometry.N_ROADS[tile]):
            root = find_root(roads, r0 + k)
            roots.append(root)
            road = road_groups.get(root)
            if road is None:
                road = road_groups[root] = RoadGroup()
            road.ends += geometry.ROAD_END[tile][k]
            road.open += road_open[r0 + k]
            road.cells.add(cell)
        road_roots[cell] = tuple(roots)
        land_roots[cell] = tuple([find_root(lands, l0 + k) for k in range(geometry.N_LANDS[tile])])
    return JoinedLandscape(
        area_groups, road_groups, n_lands - land_joins, area_roots, road_roots, land_roots
    )


def analyse(landscape: Landscape) -> Analysis:
    """The areas, roads and lands of `landscape`, as the final scoring counts them."""
    joined = join(landscape)
    return Analysis(
        areas=tuple(
            AreaInfo(
                terrain=TERRAINS[group.terrain],
                complete=group.open == 0,
                cells=frozenset(group.cells),
                objects=tuple(group.objects),
            )
            for _, group in sorted(joined.areas.items())
        ),
        roads=tuple(
            RoadInfo(cells=frozenset(road.cells), ends=road.ends, closed=road.open == 0)
            for _, road in sorted(joined.roads.items())
        ),
        lands=joined.lands,
    )


def score_cards(stats: dict[str, int], cards: tuple[Objective, ...] = OBJECTIVES) -> dict:
    """{card id: (count, points)} for every card."""
    return {card.id: card.score(stats) for card in cards}
