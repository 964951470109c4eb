"""The landscape as the search heuristic sees it: areas, roads and lands with
their open edges, kept so that the heuristic's stats after placing one more
tile can be found from that tile and its four neighbours alone.

`LandscapeAnalysis(board)` joins the board once, with the engine's own join
(`scoring.join`), and sums what its groups are worth. `stats(hope)` gives the
soft stats of `games.sheep_and_garden.ai` (every count's "complete" replaced
by a completion weight: 1 when complete, else `hope * Q ** open_edges`), and
`stats_after(tile, x, y, rotation, hope)` the same stats for the board with
that tile added, without building that board: the groups the tile touches
are taken out, their union with the tile's own parts is put in. Every stat is
a sum over groups of `weight * amount`, so the untouched groups stay summed
in two parts, the complete ones and the incomplete ones per unit of `hope`.
The exceptions are the largest flock (a maximum, kept as a list) and the
lands (a count of land groups, changed by the tile's own groups minus the
joins it makes).

Open edges are counted as `scoring.join` counts them: one per tile part and
side of its tile that faces an empty cell.
"""

from __future__ import annotations

from games.sheep_and_garden.geometry import (
    AREA_OBJECTS,
    AREA_TERRAIN,
    CITY,
    DX,
    DY,
    GARDEN,
    GRASS,
    LAKE,
    LAND_OF_AREA,
    N_AREAS,
    N_LANDS,
    N_ROADS,
    ROAD_END,
    SIDE_OWNER_SET,
    SIDE_OWNERS,
)
from games.sheep_and_garden.scoring import AreaGroup, find_root, is_l_shape, join, union

Q = 0.55  # weight kept per open edge of an incomplete area or road

Cell = tuple[int, int]
Board = dict[Cell, tuple[int, int]]

STAT_NAMES = (
    "complete_lakes",
    "fish_in_complete_lakes",
    "complete_gardens",
    "trees_in_complete_gardens",
    "complete_cities",
    "humans_in_complete_cities",
    "complete_grass",
    "complete_roads",
    "hearts",
    "lands",
    "cows_in_complete_areas",
    "trees_in_complete_areas",
    "humans_in_complete_areas",
    "complete_areas_with_sheep",
    "most_sheep_in_a_complete_area",
    "empty_grass_areas",
    "settlements",
)
_S = {name: index for index, name in enumerate(STAT_NAMES)}
_ROADS, _LANDS, _MOST_SHEEP = _S["complete_roads"], _S["lands"], _S["most_sheep_in_a_complete_area"]
_HEARTS = _S["hearts"]
_COUNT_OF_TERRAIN = tuple(
    _S[name] for name in ("complete_lakes", "complete_cities", "complete_gardens", "complete_grass")
)


def _amounts(group: AreaGroup, may_be_heart: bool) -> list[tuple[int, float]]:
    """(stat index, amount) that an area adds at weight 1, the flock aside.
    `may_be_heart`: it covers at most 3 cells (and its cells are all known)."""
    terrain = group.terrain
    sheep, cow, human, tree, house, fish = group.objects
    out: list[tuple[int, float]] = [(_COUNT_OF_TERRAIN[terrain], 1.0)]
    if terrain == LAKE:
        if fish:
            out.append((1, fish))
    elif terrain == GARDEN:
        if tree:
            out.append((3, tree))
    elif terrain == CITY and human:
        out.append((5, human))
    if cow:
        out.append((10, cow))
    if tree:
        out.append((11, tree))
    if human:
        out.append((12, human))
    if sheep:
        out.append((13, 1.0))
    if terrain == GRASS and not any(group.objects):
        out.append((15, 1.0))
    if house >= 3:
        out.append((16, 1.0))
    if terrain != GRASS and may_be_heart and is_l_shape(group.cells | group.faced):
        out.append((_HEARTS, 1.0))
    return out


class LandscapeAnalysis:
    """The joined areas, roads and lands of one board (see the module docstring)."""

    __slots__ = ("_around", "_board", "_complete", "_flocks", "_incomplete", "_joined")

    def __init__(self, board: Board) -> None:
        self._board = board
        self._around: dict[Cell, _Surroundings] = {}
        self._joined = joined = join(board)
        # Sums over all groups: complete ones, and incomplete ones per unit of hope.
        complete = [0.0] * len(STAT_NAMES)
        incomplete = [0.0] * len(STAT_NAMES)
        flocks: list[tuple[int, int, float]] = []  # (area id, sheep, weight per hope or -1)
        for root, group in joined.areas.items():
            _add_area(group, len(group.cells) <= 3, complete, incomplete, 1.0)
            if group.objects[0]:
                flocks.append((root, group.objects[0], _weight_per_hope(group.open)))
        for road in joined.roads.values():
            _add_road(road.ends, road.open, complete, incomplete, 1.0)
        self._complete = complete
        self._incomplete = incomplete
        self._flocks = flocks

    def stats(self, hope: float) -> dict[str, float]:
        """The soft stats of this board, as `games.sheep_and_garden.ai.soft_stats`."""
        return dict(zip(STAT_NAMES, self.values(hope), strict=True))

    def values(self, hope: float) -> list[float]:
        """`stats` as a list in `STAT_NAMES` order."""
        values = [c + hope * i for c, i in zip(self._complete, self._incomplete, strict=True)]
        values[_LANDS] = float(self._joined.lands)
        values[_MOST_SHEEP] = max(
            (sheep * (1.0 if w < 0 else hope * w) for _, sheep, w in self._flocks), default=0.0
        )
        return values

    def stats_after(
        self, tile: int, x: int, y: int, rotation: int, hope: float
    ) -> dict[str, float]:
        """The soft stats of this board with `tile` placed at (x, y) turned
        `rotation` (the placement is not checked), at completion weight `hope`."""
        return dict(zip(STAT_NAMES, self.values_after(tile, x, y, rotation, hope), strict=True))

    def values_after(self, tile: int, x: int, y: int, rotation: int, hope: float) -> list[float]:
        """`stats_after` as a list in `STAT_NAMES` order (no dict to build)."""
        cell = (x, y)
        around = self._around.get(cell)
        if around is None:
            around = self._around[cell] = _Surroundings(self, cell)
        n = N_AREAS[tile]
        n_roads = N_ROADS[tile]
        # Local union-find: the tile's parts first, then each group it touches.
        parent = list(range(n))
        local: dict[int, int] = {}  # existing area id -> local node
        road_parent = list(range(n_roads))
        road_local: dict[int, int] = {}
        land_parent = list(range(N_LANDS[tile]))
        land_local: dict[int, int] = {}
        land_joins = 0
        part_open = [0] * n
        part_faced: list[set[Cell] | None] = [None] * n
        road_part_open = [0] * n_roads
        terrain = AREA_TERRAIN[tile]
        edges = SIDE_OWNERS[tile][rotation]
        land_of = LAND_OF_AREA[tile]
        for d in range(4):
            side = around.sides[d]
            if side is None:
                other = (x + DX[d], y + DY[d])
                for owner in SIDE_OWNER_SET[tile][rotation][d]:
                    if owner >= 100:
                        road_part_open[owner - 100] += 1
                    else:
                        part_open[owner] += 1
                        if terrain[owner] != GRASS:
                            seen = part_faced[owner]
                            if seen is None:
                                part_faced[owner] = {other}
                            else:
                                seen.add(other)
                continue
            mine = edges[d]
            for k in range(3):
                owner = mine[k]
                root, land = side[k]
                if owner >= 100:
                    node = road_local.get(root)
                    if node is None:
                        node = road_local[root] = len(road_parent)
                        road_parent.append(node)
                    union(road_parent, owner - 100, node)
                    continue
                node = local.get(root)
                if node is None:
                    node = local[root] = len(parent)
                    parent.append(node)
                union(parent, owner, node)
                if land >= 0:
                    node = land_local.get(land)
                    if node is None:
                        node = land_local[land] = len(land_parent)
                        land_parent.append(node)
                    if union(land_parent, land_of[owner], node):
                        land_joins += 1
        complete = list(around.complete)
        incomplete = list(around.incomplete)
        areas = self._joined.areas
        merged: dict[int, AreaGroup] = {}
        too_big: set[int] = set()  # merged areas over 3 cells: no heart, cells not kept
        objects = AREA_OBJECTS[tile]
        for k in range(n):
            top = find_root(parent, k)
            group = merged.get(top)
            if group is None:
                group = merged[top] = AreaGroup(terrain[k])
                group.cells.add(cell)
            group.open += part_open[k]
            totals = group.objects
            for i, count in enumerate(objects[k]):
                totals[i] += count
            faced_here = part_faced[k]
            if faced_here is not None:
                group.faced |= faced_here
        closed = around.closed
        for root, node in local.items():
            old = areas[root]
            top = find_root(parent, node)
            group = merged[top]
            group.open += old.open - closed[root]
            totals = group.objects
            for i, count in enumerate(old.objects):
                totals[i] += count
            if top in too_big or len(old.cells) > 3:
                too_big.add(top)
            else:
                group.cells |= old.cells
                group.faced |= old.faced
                if len(group.cells) > 3:
                    too_big.add(top)
        most = around.most_sheep(hope)
        for top, group in merged.items():
            group.faced.discard(cell)
            _add_area(group, top not in too_big, complete, incomplete, 1.0)
            sheep = group.objects[0]
            if sheep:
                w = _weight_per_hope(group.open)
                most = max(most, sheep * (1.0 if w < 0 else hope * w))
        roads = self._joined.roads
        road_merged: dict[int, list[int]] = {}  # [ends, open]
        road_end = ROAD_END[tile]
        for k in range(n_roads):
            ends_open = road_merged.setdefault(find_root(road_parent, k), [0, 0])
            ends_open[0] += road_end[k]
            ends_open[1] += road_part_open[k]
        road_closed = around.road_closed
        for root, node in road_local.items():
            road = roads[root]
            ends_open = road_merged[find_root(road_parent, node)]
            ends_open[0] += road.ends
            ends_open[1] += road.open - road_closed[root]
        for ends, opened in road_merged.values():
            _add_road(ends, opened, complete, incomplete, 1.0)
        values = [c + hope * i for c, i in zip(complete, incomplete, strict=True)]
        values[_LANDS] = float(self._joined.lands + N_LANDS[tile] - land_joins)
        values[_MOST_SHEEP] = most
        return values


class _Surroundings:
    """What every placement on one empty cell shares: per side, the groups its
    segments meet; the groups it closes edges of and how many; and the board's
    sums without those groups."""

    __slots__ = ("closed", "complete", "flocks", "incomplete", "road_closed", "sides")

    def __init__(self, analysis: LandscapeAnalysis, cell: Cell) -> None:
        x, y = cell
        board = analysis._board
        # Per side: None when the neighbour is empty, else for segment k of the
        # new tile's side (area or road root it meets, land root or -1 for lake).
        self.sides: list[tuple[tuple[int, int], ...] | None] = []
        self.closed: dict[int, int] = {}
        self.road_closed: dict[int, int] = {}
        for d in range(4):
            other = (x + DX[d], y + DY[d])
            placed = board.get(other)
            if placed is None:
                self.sides.append(None)
                continue
            their_tile, their_rotation = placed
            back = (d + 2) % 4
            joined = analysis._joined
            their_areas = joined.area_roots[other]
            their_roads = joined.road_roots[other]
            their_lands = joined.land_roots[other]
            for owner in SIDE_OWNER_SET[their_tile][their_rotation][back]:
                if owner >= 100:
                    root = their_roads[owner - 100]
                    self.road_closed[root] = self.road_closed.get(root, 0) + 1
                else:
                    root = their_areas[owner]
                    self.closed[root] = self.closed.get(root, 0) + 1
            theirs = SIDE_OWNERS[their_tile][their_rotation][back]
            side = []
            for k in range(3):
                their = theirs[2 - k]
                if their >= 100:
                    side.append((their_roads[their - 100], -1))
                elif AREA_TERRAIN[their_tile][their] == LAKE:
                    side.append((their_areas[their], -1))
                else:
                    side.append((their_areas[their], their_lands[LAND_OF_AREA[their_tile][their]]))
            self.sides.append(tuple(side))
        self.complete = list(analysis._complete)
        self.incomplete = list(analysis._incomplete)
        for root in self.closed:
            group = analysis._joined.areas[root]
            _add_area(group, len(group.cells) <= 3, self.complete, self.incomplete, -1.0)
        for root in self.road_closed:
            road = analysis._joined.roads[root]
            _add_road(road.ends, road.open, self.complete, self.incomplete, -1.0)
        self.flocks = [f for f in analysis._flocks if f[0] not in self.closed]

    def most_sheep(self, hope: float) -> float:
        """The largest weighted flock among the groups a placement here leaves alone."""
        return max(
            (sheep * (1.0 if w < 0 else hope * w) for _, sheep, w in self.flocks), default=0.0
        )


def _weight_per_hope(open_edges: int) -> float:
    """-1 for complete (weight 1 whatever the hope), else the weight per unit of hope."""
    return -1.0 if open_edges == 0 else Q**open_edges


def _add_area(
    group: AreaGroup,
    may_be_heart: bool,
    complete: list[float],
    incomplete: list[float],
    sign: float,
) -> None:
    if group.open == 0:
        target, weight = complete, sign
    else:
        target, weight = incomplete, sign * Q**group.open
    for index, amount in _amounts(group, may_be_heart):
        target[index] += weight * amount


def _add_road(
    ends: int, opened: int, complete: list[float], incomplete: list[float], sign: float
) -> None:
    if opened:
        incomplete[_ROADS] += sign * Q**opened
    elif ends == 2:
        complete[_ROADS] += sign
