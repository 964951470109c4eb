"""Scoring scenarios on hand-built landscapes: areas, completion, roads, lands, hearts
and every objective card (rulebook "Area completion", "Details of objective cards",
"Bonus of objective cards"; rules notes "Areas and completion", "Objective cards")."""

from __future__ import annotations

import pytest

from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import OBJECTIVE_BY_ID
from games.sheep_and_garden.scoring import analyse, score_cards
from games.sheep_and_garden.state import praise

from .helpers import analysed, landscape, mismatches

# A complete city in an L: corner (house, human) + cap (house) + one cap of the twin
# caps (house): a heart and a settlement. The twin's other cap stays open.
HEART = (
    ("city corner", 0, 0, 0),
    ("city cap", 0, -1, 2),
    ("twin city caps", 1, 0, 3),
)
# A lake of two tiles (1 fish), a garden of two tiles (2 trees), a pond (2 fish) and a
# hedged garden (1 tree, 1 human) that are complete as soon as they are placed.
WATER = (
    ("garden by the lake", 0, 0, 0),
    ("lake cap", 0, 1, 0),
    ("garden cap", 0, -1, 2),
    ("pond", 1, 0, 0),
    ("hedged garden", -1, 0, 0),
)


@pytest.mark.parametrize("layout", [HEART, WATER])
def test_scenario_layouts_obey_the_matching_rule(layout) -> None:
    """ "On every shared edge each segment meets a segment of the same type.\""""
    assert mismatches(landscape(*layout)) == []


def test_area_incomplete_while_a_segment_faces_an_empty_cell() -> None:
    """ "Complete: none of its segments faces an empty cell." One city cap alone is open;
    a second cap closing it makes a complete city of two tiles."""
    alone = analysed(("city cap", 0, 0, 0))
    cities = [a for a in alone.areas if a.terrain == "city"]
    assert [c.complete for c in cities] == [False]
    closed = analysed(("city cap", 0, 0, 0), ("city cap with road", 0, -1, 2))
    cities = [a for a in closed.areas if a.terrain == "city"]
    assert len(cities) == 1 and cities[0].complete
    assert cities[0].cells == {(0, 0), (0, -1)}
    assert cities[0].objects[4] == 1 and cities[0].objects[2] == 1  # house + human joined
    assert closed.stats()["complete_cities"] == 1


def test_area_inside_a_tile_is_complete_at_once() -> None:
    """ "An area may own none [segments]: a pond in the middle is complete at once.\""""
    stats = analysed(("pond", 0, 0, 0)).stats()
    assert stats["complete_lakes"] == 1 and stats["fish_in_complete_lakes"] == 2


def test_grass_completed_by_fences_and_neighbours() -> None:
    """ "Roads and Fences complete Grasses": the paddock's fenced pen (2 cows) closed by
    the city corner's fenced strip is a complete grass area; the rest stays open."""
    layout = (("paddock", 0, 0, 0), ("city corner", 0, -1, 0))
    assert mismatches(landscape(*layout)) == []
    stats = analysed(*layout).stats()
    assert stats["complete_grass"] == 1
    assert stats["cows_in_complete_areas"] == 2
    assert score_cards(stats)["cows"] == (2, 4)


def test_road_between_two_cities_is_complete() -> None:
    """ "A Road is completed when both sides of it connect to Cities.\""""
    layout = (("city cap with road", 0, 0, 0), ("hamlet", 0, 1, 3))
    assert mismatches(landscape(*layout)) == []
    roads = analysed(*layout).roads
    assert len(roads) == 1 and roads[0].ends == 2 and roads[0].complete
    assert analysed(*layout).stats()["complete_roads"] == 1
    open_road = analysed(("city cap with road", 0, 0, 0)).roads
    assert [r.complete for r in open_road] == [False]


def test_road_loop_is_never_complete() -> None:
    """ "A loop is never complete": four bends closing a ring have no city ends."""
    layout = (
        ("road bend", 0, 0, 3),
        ("garden lane", 1, 0, 0),
        ("city corner with road bend", 0, 1, 2),
        ("garden road bend", 1, 1, 2),
    )
    assert mismatches(landscape(*layout)) == []
    roads = analysed(*layout).roads
    assert len(roads) == 1
    assert roads[0].closed and roads[0].ends == 0 and not roads[0].complete
    assert analysed(*layout).stats()["complete_roads"] == 0


def test_lands_split_by_lakes_and_joined_by_land() -> None:
    """ "Lands are completed only by Lakes. (Edges not connected to a tile are regarded
    as a Lake.)" Two meadows side by side are one land; a lake channel between them
    makes two; the channel's own two banks are two lands."""
    assert analysed(("meadow", 0, 0, 0)).lands == 1
    assert analysed(("meadow", 0, 0, 0), ("fenced meadow", 1, 0, 0)).lands == 1
    split = (("meadow", 0, 0, 0), ("lake channel", 1, 0, 0), ("fenced meadow", 2, 0, 0))
    assert mismatches(landscape(*split)) == []
    assert analysed(*split).lands == 2
    assert analysed(("lake channel", 0, 0, 0)).lands == 2
    assert analysed(("stream", 0, 0, 0)).lands == 2


def test_lands_need_no_completion_and_roads_are_land() -> None:
    """ "Only 'Number of Lands' does not require completion": an open landscape counts;
    a road joins the land on both of its sides (rules notes: road segments count as
    land)."""
    layout = (("road", 0, 0, 0), ("city gate", 1, 0, 0))
    assert mismatches(landscape(*layout)) == []
    stats = analysed(*layout).stats()
    assert stats["lands"] == 1
    assert score_cards(stats)["lands"] == (1, 2)


def test_heart_is_an_l_of_three_tiles() -> None:
    """ "Heart: a complete garden, city or lake area that covers exactly 3 tiles which
    form an L.\""""
    stats = analysed(*HEART).stats()
    assert stats["hearts"] == 1
    assert score_cards(stats)["hearts"] == (1, 5)


def test_straight_line_of_three_is_not_a_heart() -> None:
    """ "A straight line of 3 is not a heart.\""""
    layout = (("city street", 0, 0, 0), ("city cap", 0, -1, 2), ("city cap with road", 0, 1, 0))
    assert mismatches(landscape(*layout)) == []
    stats = analysed(*layout).stats()
    assert stats["complete_cities"] == 1
    assert stats["hearts"] == 0


def test_incomplete_l_is_not_a_heart() -> None:
    """A heart must be complete: the L without the third tile's closing edge is open."""
    layout = (("city corner", 0, 0, 0), ("city cap", 0, -1, 2), ("city street", 1, 0, 1))
    assert mismatches(landscape(*layout)) == []
    assert analysed(*layout).stats()["hearts"] == 0


def test_cities_settlements_people_on_the_heart_landscape() -> None:
    """ "Number of Settlements: a completed area that contains 3 or more Houses"; cities
    card: 3 per complete city + 1 per human in complete cities; people: 1 per human."""
    cards = score_cards(analysed(*HEART).stats())
    assert cards["cities"] == (1, 3 + 1)
    assert cards["settlements"] == (1, 4)
    assert cards["people"] == (1, 1)
    assert cards["lands"] == (1, 2)
    assert cards["lakes"] == (0, 0)


def test_two_houses_are_not_a_settlement() -> None:
    """ "Do not count an area with 2 or fewer Houses.\""""
    layout = (("city cap", 0, 0, 0), ("twin city caps", 0, -1, 2))
    assert mismatches(landscape(*layout)) == []
    stats = analysed(*layout).stats()
    complete = [a for a in analysed(*layout).areas if a.complete and a.terrain == "city"]
    assert [a.objects[4] for a in complete] == [2]  # two houses
    assert stats["settlements"] == 0


def test_lakes_gardens_trees_on_the_water_landscape() -> None:
    """ "This card presents 4 points per completed lake, and 1 point per fish in
    completed lakes"; gardens 3 + 1 per tree; trees 1 per tree in complete areas."""
    analysis = analysed(*WATER)
    cards = score_cards(analysis.stats())
    assert cards["lakes"] == (2, 2 * 4 + 3)
    assert cards["gardens"] == (2, 2 * 3 + 3)
    assert cards["trees"] == (3, 3)
    assert cards["people"] == (1, 1)
    assert cards["lands"] == (2, 4)  # the lake cap's bank is cut off by the lake


def test_sheep_areas_count_areas_not_sheep() -> None:
    """ "Although there are 3 Sheep, 'Number of Areas with Sheep' is 1": one complete
    area with sheep counts once, whatever its number of sheep."""
    layout = (("lake corner", 0, 0, 0), ("farmstead", 0, 1, 0), ("meadow", 5, 5, 0))
    stats = analyse(landscape(*layout)).stats()
    assert stats["complete_areas_with_sheep"] == 1  # the open meadow does not count
    assert score_cards(stats)["sheep_areas"] == (1, 3)
    assert score_cards(stats)["empty_areas"] == (0, 0)  # a sheep and a house: not empty


def test_empty_areas_are_complete_grass_without_objects() -> None:
    """ "An empty area means a Grasses area that contains no objects.\""""
    layout = (("garden corner", 0, 0, 0), ("city corner", 0, 1, 2))
    assert mismatches(landscape(*layout)) == []
    stats = analysed(*layout).stats()
    assert stats["empty_grass_areas"] == 1
    assert score_cards(stats)["empty_areas"] == (1, 3)


@pytest.mark.parametrize(
    ("card", "stats", "expected"),
    [
        ("roads", {"complete_roads": 3}, (3, 6)),
        ("roads", {"complete_roads": 4}, (4, 8 + 3)),
        ("cows", {"cows_in_complete_areas": 4}, (4, 8)),
        ("cows", {"cows_in_complete_areas": 5}, (5, 10 + 3)),
        ("trees", {"trees_in_complete_areas": 7}, (7, 7)),
        ("trees", {"trees_in_complete_areas": 8}, (8, 8 + 3)),
        ("people", {"humans_in_complete_areas": 5}, (5, 5)),
        ("people", {"humans_in_complete_areas": 6}, (6, 6 + 3)),
        (
            "sheep_areas",
            {"complete_areas_with_sheep": 2, "most_sheep_in_a_complete_area": 6},
            (2, 6),
        ),
        (
            "sheep_areas",
            {"complete_areas_with_sheep": 2, "most_sheep_in_a_complete_area": 7},
            (2, 6 + 3),
        ),
        ("lakes", {"complete_lakes": 2, "fish_in_complete_lakes": 5}, (2, 8 + 5)),
    ],
)
def test_fixed_and_per_object_bonuses(card, stats, expected) -> None:
    """ "There are 2 kinds of bonuses: one gives points per specified area or object; one
    gives fixed points if you achieve the objective" (e.g. "3 points if there are 7 or
    more Sheep on a completed area"); thresholds per the notes' table."""
    assert OBJECTIVE_BY_ID[card].score(stats) == expected


@pytest.mark.parametrize(
    ("difference", "title"),
    [
        (-5, "none"),
        (19, "none"),
        (20, "Beginner"),
        (29, "Beginner"),
        (30, "Good"),
        (40, "Excellent"),
        (50, "Awesome"),
        (60, "Extraordinary"),
        (70, "Unbelievable"),
        (99, "Unbelievable"),
    ],
)
def test_solo_praise_table(difference, title) -> None:
    """The solo praise table: Beginner 20, Good 30, Excellent 40, Awesome 50,
    Extraordinary 60, Unbelievable 70."""
    assert praise(difference) == title


def test_the_lowest_score_is_0_with_company_and_unset_solo() -> None:
    """A tournament's report keeps a mean score's interval above the lowest score
    a seat can end with: 0 with 2 to 4 players (objective points add up), none
    solo, where the enemy's total is taken off (the property tests check games
    stay above it)."""
    assert [GAME.lowest_score(players) for players in (1, 2, 3, 4)] == [None, 0.0, 0.0, 0.0]
