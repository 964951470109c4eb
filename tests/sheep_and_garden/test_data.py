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
    """The 12 objective cards of the notes' table: id, points each and bonus."""
    table = {
        "lakes": (4, "per", "fish_in_complete_lakes", 1, 0),
        "gardens": (3, "per", "trees_in_complete_gardens", 1, 0),
        "cities": (3, "per", "humans_in_complete_cities", 1, 0),
        "roads": (2, "fixed", "complete_roads", 3, 4),
        "hearts": (5, "none", "", 0, 0),
        "lands": (2, "none", "", 0, 0),
        "cows": (2, "fixed", "cows_in_complete_areas", 3, 5),
        "trees": (1, "fixed", "trees_in_complete_areas", 3, 8),
        "sheep_areas": (3, "fixed", "most_sheep_in_a_complete_area", 3, 7),
        "empty_areas": (3, "none", "", 0, 0),
        "settlements": (4, "none", "", 0, 0),
        "people": (1, "fixed", "humans_in_complete_areas", 3, 6),
    }
    assert {
        c.id: (c.points, c.bonus, c.bonus_of, c.bonus_points, c.threshold) for c in OBJECTIVES
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
