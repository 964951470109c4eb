"""Rulebook sentences of complete areas that had no scenario of their own: grass
closed by roads alone, a road back to its own city, a city printed inside a tile
complete at once, an area facing a hole in the landscape staying open, a stream
closed in an L as a lake heart, grass closed by a road with nothing printed on
it as an empty area, an L heart beside a filled fourth cell, and a road running
past a city.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

import pytest

from games.sheep_and_garden.model import Place
from games.sheep_and_garden.scoring import analyse, score_cards

from ._rulebook_landscapes import HEART, ROAD_RING
from .helpers import analysed, landscape, mismatches, position, tid


def test_roads_alone_complete_grass() -> None:
    """ "Roads and Fences complete Grasses": the grass inside a ring of road is a
    complete area although the landscape around it is open, so its cow counts."""
    assert mismatches(landscape(*ROAD_RING)) == []
    analysis = analysed(*ROAD_RING)
    complete = [a for a in analysis.areas if a.complete]
    assert [(a.terrain, a.cells, a.objects) for a in complete] == [
        ("grass", {(0, 0), (1, 0), (0, 1), (1, 1)}, (0, 1, 0, 0, 0, 0))
    ]
    assert score_cards(analysis.stats())["cows"] == (1, 2)


def test_a_road_from_a_city_back_to_the_same_city_is_complete() -> None:
    """ "A Road is completed when both sides of it connect to Cities"; notes: "complete
    when it has two ends and both stop at cities". A road leaves the market's north
    side and comes back into its east side: both ends stop at a city (the same one),
    so it is one complete road; the market's west and south stubs stay open."""
    layout = (
        ("market crossroads", 0, 0, 0),
        ("garden road bend", 0, -1, 0),
        ("garden lane", 1, -1, 0),
        ("road bend", 1, 0, 1),
    )
    assert mismatches(landscape(*layout)) == []
    roads = analysed(*layout).roads
    assert sorted((len(r.cells), r.ends, r.complete) for r in roads) == [
        (1, 1, False),
        (1, 1, False),
        (4, 2, True),
    ]
    assert score_cards(analysed(*layout).stats())["roads"] == (1, 2)


@pytest.mark.parametrize(
    ("tile", "cities", "people"),
    [("hamlet", (1, 4), (1, 1)), ("village at a junction", (1, 3), (0, 0))],
)
def test_a_city_printed_inside_a_tile_is_complete_at_once(
    tile: str, cities: tuple[int, int], people: tuple[int, int]
) -> None:
    """Notes: an area may own no edge segment, and then it "is complete at once". The
    hamlet's city (1 human) and the village's (1 house) touch no edge: each is a
    complete city as soon as the tile lies, alone in the landscape, for the cities card
    (3 points, +1 per human in complete cities) and the people card."""
    cards = score_cards(analysed((tile, 0, 0, 0)).stats())
    assert cards["cities"] == cities
    assert cards["people"] == people


# Seven tiles around the empty cell (0, 0): the city cap with road (turned twice)
# above it shows its city to the cell, every other side of the cell is grass.
AROUND_A_CITY_HOLE = (
    ("city cap with road", 0, -1, 2),
    ("meadow", 1, -1, 0),
    ("fenced meadow", 1, 0, 0),
    ("paddock", 1, 1, 0),
    ("farmstead", 0, 1, 0),
    ("pond", -1, 1, 0),
    ("hedged garden", -1, 0, 0),
)


def test_an_area_facing_a_hole_stays_open_until_a_tile_fills_it() -> None:
    """ "A 'completed area' denotes the area which is closed"; notes: complete when
    "none of its segments faces an empty cell". Tiles on all four sides of the empty
    cell do not close the city that faces it: the city (1 human) is open and the
    cities card scores nothing. The city cap, turned so its city meets that city, is
    the one placement the hole takes; placed, it closes a city of 2 tiles holding 1
    human and 1 house: 3 + 1 points."""
    assert mismatches(landscape(*AROUND_A_CITY_HOLE)) == []
    [city] = [a for a in analysed(*AROUND_A_CITY_HOLE).areas if a.terrain == "city"]
    assert not city.complete and city.cells == {(0, -1)}
    assert score_cards(analysed(*AROUND_A_CITY_HOLE).stats())["cities"] == (0, 0)
    state = position(2, AROUND_A_CITY_HOLE, ["city cap", "garden cap", "lake cap"], ["bay"])
    assert [a for a in state.legal_actions() if (a.x, a.y) == (0, 0)] == [
        Place(tid("city cap"), 0, 0, 0)
    ]
    state.apply(Place(tid("city cap"), 0, 0, 0))
    [city] = [a for a in analyse(state.board).areas if a.terrain == "city"]
    assert city.complete and city.cells == {(0, -1), (0, 0)}
    assert city.objects == (0, 0, 1, 0, 1, 0)
    assert score_cards(analyse(state.board).stats())["cities"] == (1, 4)


def test_a_stream_closed_in_an_l_is_a_lake_heart() -> None:
    """ "A heart-shaped area can be made on Gardens, Cities and Lakes"; notes: a heart is
    "a complete garden, city or lake area that covers exactly 3 tiles which form an L".
    A stream bend closed at both ends by a spring is a complete lake on 3 tiles in an
    L: a heart (5 points) and a complete lake (4 points, no fish). The closed lake
    parts no land: the springs' grass runs round its ends, so the three tiles are one
    land."""
    layout = (("stream bend", 0, 0, 0), ("spring", 0, -1, 2), ("spring", 1, 0, 3))
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    [lake] = [a for a in analysis.areas if a.terrain == "lake"]
    assert lake.complete and lake.cells == {(0, 0), (0, -1), (1, 0)}
    cards = score_cards(analysis.stats())
    assert cards["hearts"] == (1, 5)
    assert cards["lakes"] == (1, 4)
    assert cards["lands"] == (1, 2)


# A ring of road round one cell corner: the market's road leaves its north side,
# bends through three tiles and comes back into its west side; the four grass
# corners inside the ring, nothing printed on them, meet only each other and road.
EMPTY_RING = (
    ("garden lane", 0, 0, 3),
    ("road bend", 1, 0, 0),
    ("city corner with road bend", 0, 1, 2),
    ("market crossroads", 1, 1, 0),
)


def test_grass_closed_by_a_road_with_nothing_printed_is_an_empty_area() -> None:
    """ "An empty area means a Grasses area that contains no objects"; "Roads and
    Fences complete Grasses"; objects are "Sheep, Cow, Human, Tree, House and Fish".
    The grass inside the ring is complete although every tile around it is open, and
    it is empty: the road round it is no object, nor is the market's city beside it
    (1 human, 1 house), which is an area of its own. The ring's road, both ends in
    the market's city, is complete."""
    assert mismatches(landscape(*EMPTY_RING)) == []
    analysis = analysed(*EMPTY_RING)
    complete = sorted((a.terrain, sorted(a.cells), a.objects) for a in analysis.areas if a.complete)
    assert complete == [
        ("city", [(1, 1)], (0, 0, 1, 0, 1, 0)),
        ("grass", [(0, 0), (0, 1), (1, 0), (1, 1)], (0, 0, 0, 0, 0, 0)),
    ]
    cards = score_cards(analysis.stats())
    assert cards["empty_areas"] == (1, 3)
    assert cards["roads"] == (1, 2)
    assert cards["sheep_areas"] == (0, 0)


def test_an_l_city_is_a_heart_when_a_tile_fills_the_rest_of_its_block() -> None:
    """Notes: a heart is a complete area "that covers exactly 3 tiles which form an L
    (three cells of a 2x2 block)". What lies on the block's fourth cell does not
    matter while the area does not cover it: a meadow there (it fits against the city
    cap's and twin caps' grass) leaves the city's heart as it was, 5 points."""
    layout = (*HEART, ("meadow", 1, -1, 0))
    assert mismatches(landscape(*layout)) == []
    [city] = [a for a in analysed(*layout).areas if a.terrain == "city" and a.complete]
    assert city.cells == {(0, 0), (0, -1), (1, 0)}
    assert score_cards(analysed(*layout).stats())["hearts"] == (1, 5)


def test_a_road_running_past_a_city_does_not_end_there() -> None:
    """ "A Road is completed when both sides of it connect to Cities"; notes: a road
    piece stops at a city only where the tile says so. The city gate's road runs past
    its city, a strip of grass between them: a road from the city cap with road
    through the gate is still open (roads 0), and ends only at a second city cap with
    road beyond it: 1 complete road, 2 points."""
    passing = (("city cap with road", 0, 0, 0), ("city gate", 0, 1, 3))
    closed = (*passing, ("city cap with road", 0, 2, 2))
    assert mismatches(landscape(*closed)) == []
    assert [(r.ends, r.closed) for r in analysed(*passing).roads] == [(1, False)]
    assert score_cards(analysed(*passing).stats())["roads"] == (0, 0)
    assert [(r.ends, r.closed) for r in analysed(*closed).roads] == [(2, True)]
    assert score_cards(analysed(*closed).stats())["roads"] == (1, 2)
