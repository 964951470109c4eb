"""The reconstructed tile and objective data satisfy every constraint of the rules notes.

Rules notes (`rules/sheep-and-garden.md`, "Tiles (reconstruction)").
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

from games.sheep_and_garden.data import (
    ALLOWED_TERRAIN,
    LETTERS,
    OBJECTIVES,
    OBJECTS,
    TILES,
    Tile,
    canonical_face,
    facing,
)

from .helpers import play_random

DATA = Path(__file__).resolve().parents[2] / "games" / "sheep_and_garden"


def test_data_files_say_they_are_a_reconstruction() -> None:
    """ "Every reconstructed component list lives in the project as a data file ... with
    a header comment that says it is a reconstruction"."""
    for name in ("tiles.toml", "objectives.toml"):
        header = (DATA / name).read_text().splitlines()[0]
        assert "RECONSTRUCTION" in header, name


def test_37_distinct_tiles() -> None:
    """ "37 distinct tiles" ("all 37 tile faces differ"), even when turned."""
    assert len(TILES) == 37
    assert [t.id for t in TILES] == list(range(37))
    faces = Counter(canonical_face(t) for t in TILES)
    assert [TILES[i].name for i, t in enumerate(TILES) if faces[canonical_face(t)] > 1] == []
    assert len({t.name for t in TILES}) == 37


def test_every_segment_belongs_to_exactly_one_area_or_road() -> None:
    """ "Each edge (N, E, S, W) has 3 segments" and each tile lists the segments its areas
    and road pieces own."""
    for tile in TILES:
        owners = Counter()
        for area in tile.areas:
            owners.update(area.segments)
            for s in area.segments:
                assert tile.segments[s] == LETTERS[area.terrain], (tile.name, s)
        for piece in tile.roads:
            owners.update(piece.segments)
            for s in piece.segments:
                assert tile.segments[s] == "r", (tile.name, s)
        assert owners == Counter(range(12)), tile.name
        assert len(tile.segments) == 12
        assert set(tile.segments) <= set("lcfgr")


def test_roads_are_middle_segments_with_grass_both_sides() -> None:
    """ "A `road` segment is always the middle one and has `grass` on both sides.\""""
    for tile in TILES:
        for s, letter in enumerate(tile.segments):
            if letter == "r":
                assert s % 3 == 1, (tile.name, s)
                assert tile.segments[s - 1] == "g" and tile.segments[s + 1] == "g", tile.name


def test_road_pieces_join_one_or_two_segments_and_stubs_stop_at_a_city() -> None:
    """ "Each tile lists its road pieces: the road segments each piece joins (1 or 2) and,
    for a piece with 1 segment, that its other end stops at a city on the tile.\""""
    for tile in TILES:
        for piece in tile.roads:
            assert len(piece.segments) in (1, 2), tile.name
            if len(piece.segments) == 1:
                assert piece.city is not None, tile.name
                assert tile.areas[piece.city].terrain == "city", tile.name
            else:
                assert piece.city is None, tile.name


def test_objects_sit_on_allowed_terrain() -> None:
    """ "Fish only in lakes; sheep and cows only on grass; houses on grass or city; humans
    in city or garden; trees in garden or grass.\""""
    for tile in TILES:
        for area in tile.areas:
            for name, count in zip(OBJECTS, area.objects, strict=True):
                if count:
                    assert area.terrain in ALLOWED_TERRAIN[name], (tile.name, name)


def test_land_groups_partition_non_lake_areas_and_span_roads() -> None:
    """ "Each tile lists its land groups: the sets of its non-lake areas that touch on the
    tile without a lake between them" (road segments count as land, so the grass on
    both sides of a road is one land)."""
    for tile in TILES:
        listed = [a for group in tile.lands for a in group]
        land_areas = [k for k, a in enumerate(tile.areas) if a.terrain != "lake"]
        assert sorted(listed) == land_areas, tile.name
        owner = {s: k for k, a in enumerate(tile.areas) for s in a.segments}
        for piece in tile.roads:
            for s in piece.segments:
                assert tile.land_of(owner[s - 1]) == tile.land_of(owner[s + 1]), tile.name


def _lands_from_the_edges(tile: Tile) -> list[list[int]]:
    """A tile's land groups worked out from its edge alone: going round the 12
    segments, two neighbouring segments that are both land (not lake; a road is
    land) lie in one land, and a road piece joins its segments and the city it stops
    at. Areas printed inside the tile (no segments) are left out."""
    owner = {s: ("area", k) for k, a in enumerate(tile.areas) for s in a.segments}
    owner |= {s: ("road", k) for k, p in enumerate(tile.roads) for s in p.segments}
    parent = {node: node for node in owner.values()}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        while parent[node] != node:
            node = parent[node]
        return node

    def is_land(s: int) -> bool:
        kind, k = owner[s]
        return kind == "road" or tile.areas[k].terrain != "lake"

    for s in range(12):
        if is_land(s) and is_land((s + 1) % 12):
            parent[root(owner[s])] = root(owner[(s + 1) % 12])
    for k, piece in enumerate(tile.roads):
        if piece.city is not None and ("area", piece.city) in parent:
            parent[root(("road", k))] = root(("area", piece.city))
    groups: dict[tuple[str, int], list[int]] = {}
    for k, area in enumerate(tile.areas):
        if area.terrain != "lake" and area.segments:
            groups.setdefault(root(("area", k)), []).append(k)
    return sorted(groups.values())


def test_land_groups_are_the_land_between_the_lakes_of_each_edge() -> None:
    """ "Each tile lists its land groups: the sets of its non-lake areas that touch on
    the tile without a lake between them." Round the tile's edge, a lake reaching the
    edge in two places cuts the land in two (a channel, a stream); one reaching it in
    one place (a cap, a corner, a bay) cuts nothing; a tile without a lake is one land."""
    for tile in TILES:
        listed = sorted(
            [k for k in group if tile.areas[k].segments]
            for group in tile.lands
            if any(tile.areas[k].segments for k in group)
        )
        assert listed == _lands_from_the_edges(tile), tile.name
        if all(area.terrain != "lake" for area in tile.areas):
            assert len(tile.lands) == 1, tile.name


def test_lakes_split_lands_on_some_tiles() -> None:
    """ "Lands are completed only by Lakes": some tiles carry a lake that cuts their land."""
    split = [t.name for t in TILES if len(t.lands) > 1]
    assert {"lake channel", "stream", "stream bend", "stream mouth"} <= set(split)


def test_object_totals_near_the_notes() -> None:
    """ "Object totals near: sheep 16, cows 10, humans 10, trees 14, houses 12, fish 10."
    The reconstruction meets them exactly."""
    totals = Counter()
    for tile in TILES:
        for area in tile.areas:
            totals.update(dict(zip(OBJECTS, area.objects, strict=True)))
    assert dict(totals) == {
        "sheep": 16,
        "cow": 10,
        "human": 10,
        "tree": 14,
        "house": 12,
        "fish": 10,
    }


def test_edges_use_few_symmetric_patterns() -> None:
    """Every edge is one of six patterns, each its own mirror, so two tiles meet when
    their facing edges show the same pattern (the matching rule)."""
    patterns = Counter(t.segments[3 * d : 3 * d + 3] for t in TILES for d in range(4))
    assert set(patterns) == {"ggg", "grg", "lll", "ccc", "fff", "glg"}
    assert all(p == p[::-1] for p in patterns)
    assert all(facing(facing(s)) == s for s in range(12))
    assert [facing(s) for s in (0, 1, 2, 3, 4, 5)] == [8, 7, 6, 11, 10, 9]


def test_objective_cards_follow_the_table() -> None:
    """The 12 objective cards of the notes' table: id, what it counts, points each and
    bonus."""
    table = {
        "lakes": ("complete_lakes", 4, "per", "fish_in_complete_lakes", 1, 0),
        "gardens": ("complete_gardens", 3, "per", "trees_in_complete_gardens", 1, 0),
        "cities": ("complete_cities", 3, "per", "humans_in_complete_cities", 1, 0),
        "roads": ("complete_roads", 2, "fixed", "complete_roads", 3, 4),
        "hearts": ("hearts", 5, "none", "", 0, 0),
        "lands": ("lands", 2, "none", "", 0, 0),
        "cows": ("cows_in_complete_areas", 2, "fixed", "cows_in_complete_areas", 3, 5),
        "trees": ("trees_in_complete_areas", 1, "fixed", "trees_in_complete_areas", 3, 8),
        "sheep_areas": (
            "complete_areas_with_sheep",
            3,
            "fixed",
            "most_sheep_in_a_complete_area",
            3,
            7,
        ),
        "empty_areas": ("empty_grass_areas", 3, "none", "", 0, 0),
        "settlements": ("settlements", 4, "none", "", 0, 0),
        "people": ("humans_in_complete_areas", 1, "fixed", "humans_in_complete_areas", 3, 6),
    }
    assert {
        c.id: (c.count, c.points, c.bonus, c.bonus_of, c.bonus_points, c.threshold)
        for c in OBJECTIVES
    } == table
    raw = tomllib.loads((DATA / "objectives.toml").read_text())["objective"]
    assert len(raw) == 12


def test_nearly_every_random_game_places_all_37_tiles() -> None:
    """ "In a test of 1,000 seeded games with random legal play, at least 95% place all
    37 tiles" (1 to 4 players, 250 games each)."""
    full = 0
    for seed in range(1000):
        state, _, _ = play_random(seed % 4 + 1, seed)
        full += len(state.board) == 37
    assert full >= 950, f"only {full} of 1000 games placed all 37 tiles"


def test_the_cards_the_rulebook_names_carry_its_names() -> None:
    """ "Details of objective cards" names seven cards: Number of Hearts, Lands, Cows,
    Areas with Sheep, Empty Areas and Settlements, and "Number of Trees" beside cows."""
    names = {c.id: c.name for c in OBJECTIVES}
    assert {
        "hearts": "Number of Hearts",
        "lands": "Number of Lands",
        "cows": "Number of Cows",
        "trees": "Number of Trees",
        "sheep_areas": "Number of Areas with Sheep",
        "empty_areas": "Number of Empty Areas",
        "settlements": "Number of Settlements",
    }.items() <= names.items()
    assert len(set(names.values())) == 12
