"""The reconstructed tiles and objective cards, loaded from the TOML data files.

Geometry. A tile has 12 edge segments numbered clockwise: N 0 1 2 (west to
east), E 3 4 5 (north to south), S 6 7 8 (east to west), W 9 10 11 (south to
north). Edge `d` (0 N, 1 E, 2 S, 3 W) holds segments 3d, 3d+1, 3d+2. Turning a
tile `r` quarter turns clockwise moves segment `s` to `(s + 3r) % 12` and edge
`d` to `(d + r) % 4`. Segment `3d + k` of one tile meets segment
`3((d + 2) % 4) + (2 - k)` of its neighbour in direction `d`.

Cells are (x, y) with x growing east and y growing south (screen order).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

TERRAINS = ("lake", "city", "garden", "grass")
OBJECTS = ("sheep", "cow", "human", "tree", "house", "fish")
LETTERS = {"lake": "l", "city": "c", "garden": "f", "grass": "g", "road": "r"}
ALLOWED_TERRAIN = {
    "fish": ("lake",),
    "sheep": ("grass",),
    "cow": ("grass",),
    "house": ("grass", "city"),
    "human": ("city", "garden"),
    "tree": ("garden", "grass"),
}
DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N, E, S, W as (dx, dy)
DIRECTION_NAMES = ("N", "E", "S", "W")
NO_EDGE = -1

_HERE = Path(__file__).resolve().parent


def facing(segment: int) -> int:
    """The segment of the neighbouring tile that `segment` touches."""
    edge, k = divmod(segment, 3)
    return 3 * ((edge + 2) % 4) + (2 - k)


@dataclass(frozen=True, slots=True)
class Area:
    terrain: str
    segments: tuple[int, ...]
    objects: tuple[int, ...]  # counts in OBJECTS order

    def count(self, name: str) -> int:
        return self.objects[OBJECTS.index(name)]


@dataclass(frozen=True, slots=True)
class RoadPiece:
    segments: tuple[int, ...]
    city: int | None  # for a piece with one segment: the city area it stops at


@dataclass(frozen=True, slots=True)
class Tile:
    id: int
    name: str
    segments: str  # 12 letters, unrotated
    areas: tuple[Area, ...]
    roads: tuple[RoadPiece, ...]
    lands: tuple[tuple[int, ...], ...]
    # Derived, per rotation 0..3:
    edges: tuple[tuple[int, int, int, int], ...]  # edge codes facing N, E, S, W
    owners: tuple[tuple[int, ...], ...]  # segment position -> area k, or 100 + road piece k
    rotations: tuple[int, ...]  # the rotations that give distinct faces
    # Per rotation 0..3, the smallest rotation showing the same face (a tile
    # symmetric under a half turn lies the same way turned 0 or 2 times).
    same_face: tuple[int, ...]

    def letters(self, rotation: int) -> str:
        """The 12 segment letters after turning the tile `rotation` times."""
        shift = 3 * rotation
        return self.segments[-shift:] + self.segments[:-shift] if shift else self.segments

    def land_of(self, area: int) -> int:
        for index, group in enumerate(self.lands):
            if area in group:
                return index
        return -1


@dataclass(frozen=True, slots=True)
class Objective:
    id: str
    name: str
    text: str
    count: str
    points: int
    bonus: str  # "none", "per" or "fixed"
    bonus_of: str
    bonus_points: int
    threshold: int

    def score(self, stats: dict[str, int]) -> tuple[int, int]:
        """(count, points) of this card on a landscape summarised by `stats`."""
        count = stats[self.count]
        points = self.points * count
        if self.bonus == "per":
            points += self.bonus_points * stats[self.bonus_of]
        elif self.bonus == "fixed" and stats[self.bonus_of] >= self.threshold:
            points += self.bonus_points
        return count, points


def _edge_strings(letters: str) -> list[str]:
    return [letters[3 * d : 3 * d + 3] for d in range(4)]


def _load_edge_codes(raw_tiles: list[dict]) -> dict[str, int]:
    """One small int per edge pattern (and its mirror), in a deterministic order."""
    patterns: set[str] = set()
    for raw in raw_tiles:
        for edge in _edge_strings(raw["segments"].replace(" ", "")):
            patterns.add(edge)
            patterns.add(edge[::-1])
    return {pattern: code for code, pattern in enumerate(sorted(patterns))}


# A tile's face turned by a rotation: its edge letters, its areas and its roads.
Face = tuple[
    str, tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...], tuple[tuple[int, ...], ...]
]


def _canonical(letters: str, areas: tuple[Area, ...], roads: tuple[RoadPiece, ...], r: int) -> Face:
    def turn(segments: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted((s + 3 * r) % 12 for s in segments))

    shift = 3 * r
    turned = letters[-shift:] + letters[:-shift] if shift else letters
    return (
        turned,
        tuple(sorted((a.terrain, turn(a.segments), a.objects) for a in areas)),
        tuple(sorted(turn(p.segments) for p in roads)),
    )


def canonical_face(tile: Tile) -> Face:
    """A rotation-independent key: equal for two tiles that show the same face."""
    return min(_canonical(tile.segments, tile.areas, tile.roads, r) for r in range(4))


def _build_tile(raw: dict, codes: dict[str, int]) -> Tile:
    letters = raw["segments"].replace(" ", "")
    areas = tuple(
        Area(
            terrain=a["terrain"],
            segments=tuple(a["segments"]),
            objects=tuple(int(a.get("objects", {}).get(name, 0)) for name in OBJECTS),
        )
        for a in raw["areas"]
    )
    roads = tuple(
        RoadPiece(segments=tuple(p["segments"]), city=p.get("city")) for p in raw.get("roads", [])
    )
    edges_raw = _edge_strings(letters)
    edges = tuple(tuple(codes[edges_raw[(d - r) % 4]] for d in range(4)) for r in range(4))
    base_owner = [-1] * 12
    for k, area in enumerate(areas):
        for s in area.segments:
            base_owner[s] = k
    for k, piece in enumerate(roads):
        for s in piece.segments:
            base_owner[s] = 100 + k
    owners = []
    for r in range(4):
        turned = [-1] * 12
        for s, owner in enumerate(base_owner):
            turned[(s + 3 * r) % 12] = owner
        owners.append(tuple(turned))
    first_with: dict[Face, int] = {}
    for r in range(4):
        first_with.setdefault(_canonical(letters, areas, roads, r), r)
    same_face = tuple(first_with[_canonical(letters, areas, roads, r)] for r in range(4))
    rotations = sorted(first_with.values())
    return Tile(
        id=int(raw["id"]),
        name=str(raw["name"]),
        segments=letters,
        areas=areas,
        roads=roads,
        lands=tuple(tuple(group) for group in raw.get("lands", [])),
        edges=edges,  # type: ignore[arg-type]
        owners=tuple(owners),
        rotations=tuple(rotations),
        same_face=same_face,
    )


def load_tiles(path: Path = _HERE / "tiles.toml") -> tuple[tuple[Tile, ...], dict[str, int]]:
    with path.open("rb") as handle:
        raw_tiles = tomllib.load(handle)["tile"]
    codes = _load_edge_codes(raw_tiles)
    tiles = tuple(_build_tile(raw, codes) for raw in raw_tiles)
    return tiles, codes


def load_objectives(path: Path = _HERE / "objectives.toml") -> tuple[Objective, ...]:
    with path.open("rb") as handle:
        raw_cards = tomllib.load(handle)["objective"]
    return tuple(
        Objective(
            id=c["id"],
            name=c["name"],
            text=c["text"],
            count=c["count"],
            points=int(c["points"]),
            bonus=c["bonus"],
            bonus_of=c.get("bonus_of", ""),
            bonus_points=int(c.get("bonus_points", 0)),
            threshold=int(c.get("threshold", 0)),
        )
        for c in raw_cards
    )


TILES, EDGE_CODES = load_tiles()
MIRROR = tuple(EDGE_CODES[p[::-1]] for p in sorted(EDGE_CODES, key=EDGE_CODES.__getitem__))
OBJECTIVES = load_objectives()
OBJECTIVE_BY_ID = {card.id: card for card in OBJECTIVES}
TILE_COUNT = len(TILES)
