"""Per-tile lookup tables for joining a landscape fast, derived once from the
tile data: for each tile id (and rotation and side), its parts and what owns
each segment. `scoring.join` and the search heuristic's `analysis` read them.

Owners are as in `Tile.owners`: area k, or 100 + road piece k. Sides are
numbered as `DIRECTIONS` (0 N, 1 E, 2 S, 3 W); segment k of a side meets
segment 2 - k of the neighbour's opposite side.
"""

from __future__ import annotations

from games.sheep_and_garden.data import DIRECTIONS, TERRAINS, TILES

LAKE, CITY, GARDEN, GRASS = (TERRAINS.index(t) for t in ("lake", "city", "garden", "grass"))
DX = tuple(dx for dx, _ in DIRECTIONS)
DY = tuple(dy for _, dy in DIRECTIONS)

N_AREAS = tuple(len(t.areas) for t in TILES)
N_ROADS = tuple(len(t.roads) for t in TILES)
N_LANDS = tuple(len(t.lands) for t in TILES)
AREA_TERRAIN = tuple(tuple(TERRAINS.index(a.terrain) for a in t.areas) for t in TILES)
AREA_OBJECTS = tuple(tuple(tuple(a.objects) for a in t.areas) for t in TILES)
# The objects an area holds as (index into OBJECTS, count), the counts of 0 left out.
AREA_OBJECT_COUNTS = tuple(
    tuple(tuple((i, n) for i, n in enumerate(objects) if n) for objects in tile)
    for tile in AREA_OBJECTS
)
LAND_OF_AREA = tuple(tuple(t.land_of(k) for k in range(len(t.areas))) for t in TILES)
ROAD_END = tuple(tuple(1 if len(p.segments) == 1 else 0 for p in t.roads) for t in TILES)
# SIDE_OWNERS[tile][rotation][side] = the owners of that side's 3 segments.
SIDE_OWNERS = tuple(
    tuple(
        tuple(tuple(t.owners[r][3 * d + k] for k in range(3)) for d in range(4)) for r in range(4)
    )
    for t in TILES
)
# The distinct owners of each side: one open edge each when the side faces an empty cell.
SIDE_OWNER_SET = tuple(
    tuple(tuple(tuple(sorted(set(side))) for side in rotation) for rotation in tile)
    for tile in SIDE_OWNERS
)
