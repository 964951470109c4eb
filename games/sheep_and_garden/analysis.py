"""The landscape as the search heuristic sees it: areas, roads and lands with
their open edges, kept so that the heuristic's stats after placing one more
tile can be found from that tile and its four neighbours alone.

`LandscapeAnalysis(board)` joins the board once (a union-find, as the engine's
scoring does). `stats(hope)` gives the soft stats of `games.sheep_and_garden.ai`
(every count's "complete" replaced by a completion weight: 1 when complete,
else `hope * Q ** open_edges`), and `stats_after(tile, x, y, rotation, hope)`
the same stats for the board with that tile added, without building that
board: the groups the tile touches are taken out, their union with the tile's
own parts is put in. Every stat is a sum over groups of `weight * amount`, so
the untouched groups stay summed in two parts, the complete ones and the
incomplete ones per unit of `hope`. The exceptions are the largest flock (a
maximum, kept as a list) and the lands (a count of land groups, changed by the
tile's own groups minus the joins it makes).

Open edges are counted as the engine's analysis counts them: one per tile part
and side of its tile that faces an empty cell.
"""

from __future__ import annotations

from games.sheep_and_garden.data import DIRECTIONS, TERRAINS, TILES

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

_LAKE, _CITY, _GARDEN, _GRASS = (TERRAINS.index(t) for t in ("lake", "city", "garden", "grass"))
_DX = tuple(dx for dx, _ in DIRECTIONS)
_DY = tuple(dy for _, dy in DIRECTIONS)

# Static tables per tile id (and rotation, direction).
_N_AREAS = tuple(len(t.areas) for t in TILES)
_N_ROADS = tuple(len(t.roads) for t in TILES)
_N_LANDS = tuple(len(t.lands) for t in TILES)
_TERRAIN = tuple(tuple(TERRAINS.index(a.terrain) for a in t.areas) for t in TILES)
_OBJECTS = tuple(tuple(tuple(a.objects) for a in t.areas) for t in TILES)
_LAND_OF = tuple(tuple(t.land_of(k) for k in range(len(t.areas))) for t in TILES)
_ROAD_END = tuple(tuple(1 if len(p.segments) == 1 else 0 for p in t.roads) for t in TILES)
_EDGE = tuple(
    tuple(
        tuple(tuple(t.owners[r][3 * d + k] for k in range(3)) for d in range(4)) for r in range(4)
    )
    for t in TILES
)
# The distinct owners (area k, or 100 + road piece k) of each side.
_EDGE_SET = tuple(
    tuple(tuple(tuple(sorted(set(edge))) for edge in rotation) for rotation in tile)
    for tile in _EDGE
)
_NO_OBJECTS = (0, 0, 0, 0, 0, 0)


def _find(parent: list[int], node: int) -> int:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def _is_l(cells: set[Cell] | frozenset[Cell]) -> bool:
    """Three cells of one 2x2 block."""
    if len(cells) != 3:
        return False
    xs = {x for x, _ in cells}
    ys = {y for _, y in cells}
    return len(xs) == 2 and len(ys) == 2 and max(xs) - min(xs) == 1 and max(ys) - min(ys) == 1


class _Area:
    """A joined area: its terrain, open edges, objects, and (while it covers at
    most 3 cells, all a heart can) its cells and the empty cells it faces."""

    __slots__ = ("cells", "faced", "objects", "open", "size", "terrain")

    def __init__(self, terrain: int) -> None:
        self.terrain = terrain
        self.open = 0
        self.size = 0
        self.objects = [0, 0, 0, 0, 0, 0]
        self.cells: set[Cell] = set()
        self.faced: set[Cell] = set()

    def amounts(self) -> list[tuple[int, float]]:
        """(stat index, amount) that this area adds at weight 1, the flock aside."""
        terrain = self.terrain
        sheep, cow, human, tree, house, fish = self.objects
        out: list[tuple[int, float]] = [(_COUNT_OF_TERRAIN[terrain], 1.0)]
        if terrain == _LAKE:
            if fish:
                out.append((1, fish))
        elif terrain == _GARDEN:
            if tree:
                out.append((3, tree))
        elif terrain == _CITY and human:
            out.append((5, human))
        if cow:
            out.append((10, cow))
        if tree:
            out.append((11, tree))
        if human:
            out.append((12, human))
        if sheep:
            out.append((13, 1.0))
        if terrain == _GRASS and not any(self.objects):
            out.append((15, 1.0))
        if house >= 3:
            out.append((16, 1.0))
        if terrain != _GRASS and self.size <= 3 and _is_l(self.cells | self.faced):
            out.append((_HEARTS, 1.0))
        return out


class LandscapeAnalysis:
    """The joined areas, roads and lands of one board (see the module docstring)."""

    __slots__ = (
        "_area_of",
        "_areas",
        "_around",
        "_board",
        "_complete",
        "_flocks",
        "_incomplete",
        "_land_of",
        "_road_of",
        "_roads",
        "lands",
    )

    def __init__(self, board: Board) -> None:
        self._board = board
        self._around: dict[Cell, _Surroundings] = {}
        area_base: dict[Cell, int] = {}
        road_base: dict[Cell, int] = {}
        land_base: dict[Cell, int] = {}
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
        faced: dict[int, set[Cell]] = {}
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
        self.lands = n_lands - land_merges
        groups: dict[int, _Area] = {}
        self._area_of: dict[Cell, tuple[int, ...]] = {}
        self._road_of: dict[Cell, tuple[int, ...]] = {}
        self._land_of: dict[Cell, tuple[int, ...]] = {}
        for cell, (tile, _) in board.items():
            a0 = area_base[cell]
            roots = []
            for k in range(_N_AREAS[tile]):
                node = a0 + k
                root = _find(areas, node)
                roots.append(root)
                group = groups.get(root)
                if group is None:
                    group = groups[root] = _Area(_TERRAIN[tile][k])
                group.open += area_open[node]
                if cell not in group.cells:
                    group.cells.add(cell)
                    group.size += 1
                totals = group.objects
                for i, count in enumerate(_OBJECTS[tile][k]):
                    totals[i] += count
                if node in faced:
                    group.faced |= faced[node]
            self._area_of[cell] = tuple(roots)
            r0 = road_base[cell]
            self._road_of[cell] = tuple(_find(roads, r0 + k) for k in range(_N_ROADS[tile]))
            l0 = land_base[cell]
            self._land_of[cell] = tuple(_find(lands, l0 + k) for k in range(_N_LANDS[tile]))
        self._areas = groups
        road_groups: dict[int, list[int]] = {}
        for cell, (tile, _) in board.items():
            r0 = road_base[cell]
            for k, root in enumerate(self._road_of[cell]):
                group = road_groups.setdefault(root, [0, 0])
                group[0] += _ROAD_END[tile][k]
                group[1] += road_open[r0 + k]
        self._roads = road_groups
        # Sums over all groups: complete ones, and incomplete ones per unit of hope.
        complete = [0.0] * len(STAT_NAMES)
        incomplete = [0.0] * len(STAT_NAMES)
        flocks: list[tuple[int, int, float]] = []  # (area id, sheep, weight per hope or -1)
        for root, group in groups.items():
            _add_area(group, complete, incomplete, 1.0)
            if group.objects[0]:
                flocks.append((root, group.objects[0], _weight_per_hope(group.open)))
        for ends, opened in road_groups.values():
            _add_road(ends, opened, complete, incomplete, 1.0)
        self._complete = complete
        self._incomplete = incomplete
        self._flocks = flocks

    def stats(self, hope: float) -> dict[str, float]:
        """The soft stats of this board, as `games.sheep_and_garden.ai.soft_stats`."""
        return dict(zip(STAT_NAMES, self.values(hope), strict=True))

    def values(self, hope: float) -> list[float]:
        """`stats` as a list in `STAT_NAMES` order."""
        values = [c + hope * i for c, i in zip(self._complete, self._incomplete, strict=True)]
        values[_LANDS] = float(self.lands)
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
        n = _N_AREAS[tile]
        n_roads = _N_ROADS[tile]
        # Local union-find: the tile's parts first, then each group it touches.
        parent = list(range(n))
        local: dict[int, int] = {}  # existing area id -> local node
        road_parent = list(range(n_roads))
        road_local: dict[int, int] = {}
        land_parent = list(range(_N_LANDS[tile]))
        land_local: dict[int, int] = {}
        land_joins = 0
        part_open = [0] * n
        part_faced: list[set[Cell] | None] = [None] * n
        road_part_open = [0] * n_roads
        terrain = _TERRAIN[tile]
        edges = _EDGE[tile][rotation]
        land_of = _LAND_OF[tile]
        for d in range(4):
            side = around.sides[d]
            if side is None:
                other = (x + _DX[d], y + _DY[d])
                for owner in _EDGE_SET[tile][rotation][d]:
                    if owner >= 100:
                        road_part_open[owner - 100] += 1
                    else:
                        part_open[owner] += 1
                        if terrain[owner] != _GRASS:
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
                    a, b = _find(road_parent, owner - 100), _find(road_parent, node)
                    if a != b:
                        road_parent[max(a, b)] = min(a, b)
                    continue
                node = local.get(root)
                if node is None:
                    node = local[root] = len(parent)
                    parent.append(node)
                a, b = _find(parent, owner), _find(parent, node)
                if a != b:
                    parent[max(a, b)] = min(a, b)
                if land >= 0:
                    node = land_local.get(land)
                    if node is None:
                        node = land_local[land] = len(land_parent)
                        land_parent.append(node)
                    a = _find(land_parent, land_of[owner])
                    b = _find(land_parent, node)
                    if a != b:
                        land_parent[max(a, b)] = min(a, b)
                        land_joins += 1
        complete = list(around.complete)
        incomplete = list(around.incomplete)
        areas = self._areas
        merged: dict[int, _Area] = {}
        objects = _OBJECTS[tile]
        for k in range(n):
            top = _find(parent, k)
            group = merged.get(top)
            if group is None:
                group = merged[top] = _Area(terrain[k])
                group.size = 1
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
            group = merged[_find(parent, node)]
            group.open += old.open - closed[root]
            totals = group.objects
            for i, count in enumerate(old.objects):
                totals[i] += count
            if old.size > 3 or group.size > 3:
                group.size = 4  # too big for a heart: its cells no longer matter
            else:
                group.cells |= old.cells
                group.faced |= old.faced
                group.size = len(group.cells)
        most = around.most_sheep(hope)
        for group in merged.values():
            group.faced.discard(cell)
            _add_area(group, complete, incomplete, 1.0)
            sheep = group.objects[0]
            if sheep:
                w = _weight_per_hope(group.open)
                most = max(most, sheep * (1.0 if w < 0 else hope * w))
        roads = self._roads
        road_merged: dict[int, list[int]] = {}
        road_end = _ROAD_END[tile]
        for k in range(n_roads):
            group = road_merged.setdefault(_find(road_parent, k), [0, 0])
            group[0] += road_end[k]
            group[1] += road_part_open[k]
        road_closed = around.road_closed
        for root, node in road_local.items():
            ends, opened = roads[root]
            group = road_merged[_find(road_parent, node)]
            group[0] += ends
            group[1] += opened - road_closed[root]
        for ends, opened in road_merged.values():
            _add_road(ends, opened, complete, incomplete, 1.0)
        values = [c + hope * i for c, i in zip(complete, incomplete, strict=True)]
        values[_LANDS] = float(self.lands + _N_LANDS[tile] - land_joins)
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
            other = (x + _DX[d], y + _DY[d])
            placed = board.get(other)
            if placed is None:
                self.sides.append(None)
                continue
            their_tile, their_rotation = placed
            back = (d + 2) % 4
            their_areas = analysis._area_of[other]
            their_roads = analysis._road_of[other]
            their_lands = analysis._land_of[other]
            for owner in _EDGE_SET[their_tile][their_rotation][back]:
                if owner >= 100:
                    root = their_roads[owner - 100]
                    self.road_closed[root] = self.road_closed.get(root, 0) + 1
                else:
                    root = their_areas[owner]
                    self.closed[root] = self.closed.get(root, 0) + 1
            theirs = _EDGE[their_tile][their_rotation][back]
            side = []
            for k in range(3):
                their = theirs[2 - k]
                if their >= 100:
                    side.append((their_roads[their - 100], -1))
                elif _TERRAIN[their_tile][their] == _LAKE:
                    side.append((their_areas[their], -1))
                else:
                    side.append((their_areas[their], their_lands[_LAND_OF[their_tile][their]]))
            self.sides.append(tuple(side))
        self.complete = list(analysis._complete)
        self.incomplete = list(analysis._incomplete)
        for root in self.closed:
            _add_area(analysis._areas[root], self.complete, self.incomplete, -1.0)
        for root in self.road_closed:
            ends, opened = analysis._roads[root]
            _add_road(ends, opened, self.complete, self.incomplete, -1.0)
        self.flocks = [f for f in analysis._flocks if f[0] not in self.closed]

    def most_sheep(self, hope: float) -> float:
        """The largest weighted flock among the groups a placement here leaves alone."""
        return max(
            (sheep * (1.0 if w < 0 else hope * w) for _, sheep, w in self.flocks), default=0.0
        )


def _weight_per_hope(open_edges: int) -> float:
    """-1 for complete (weight 1 whatever the hope), else the weight per unit of hope."""
    return -1.0 if open_edges == 0 else Q**open_edges


def _add_area(group: _Area, complete: list[float], incomplete: list[float], sign: float) -> None:
    if group.open == 0:
        target, weight = complete, sign
    else:
        target, weight = incomplete, sign * Q**group.open
    for index, amount in group.amounts():
        target[index] += weight * amount


def _add_road(
    ends: int, opened: int, complete: list[float], incomplete: list[float], sign: float
) -> None:
    if opened:
        incomplete[_ROADS] += sign * Q**opened
    elif ends == 2:
        complete[_ROADS] += sign
