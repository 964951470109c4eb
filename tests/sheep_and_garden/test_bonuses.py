"""The rulebook's "Bonus of objective cards": "There are 2 kinds of bonuses: one gives
points per specified area or object; one gives fixed points if you achieve the
objective." A fixed bonus is paid once however far past its threshold a card goes
(twice the threshold does not pay it twice); a per-object bonus pays for every
object. The roads card's bonus is also reached on a real landscape, where the tile
set's 9 city road ends allow 4 complete roads at most.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

import pytest

from games.sheep_and_garden.data import OBJECTIVE_BY_ID, TILES
from games.sheep_and_garden.scoring import Analysis, AreaInfo, score_cards

from .helpers import analysed, landscape, mismatches


@pytest.mark.parametrize(
    ("card", "count", "expected"),
    [
        ("roads", "complete_roads", (8, 2 * 8 + 3)),
        ("cows", "cows_in_complete_areas", (10, 2 * 10 + 3)),
        ("trees", "trees_in_complete_areas", (16, 16 + 3)),
        ("people", "humans_in_complete_areas", (12, 12 + 3)),
    ],
)
def test_a_fixed_bonus_is_paid_once_at_twice_its_threshold(
    card: str, count: str, expected: tuple[int, int]
) -> None:
    """ "One gives fixed points if you achieve the objective": the objective is
    achieved or not, so a card at twice its threshold (notes' table: roads 4, cows 5,
    trees 8, people 6) gets the bonus once, on top of its points each. (10 cows is
    every cow of the tile set; the other counts are beyond it, the card's rule is not.)"""
    assert OBJECTIVE_BY_ID[card].score({count: expected[0]}) == expected


def test_two_complete_areas_with_seven_sheep_pay_the_sheep_bonus_once() -> None:
    """ "You get 3 points if there are 7 or more Sheep on a completed area": two
    complete areas with 7 and 8 sheep are 2 areas with sheep (3 points each) and one
    bonus of 3, not two."""
    areas = tuple(
        AreaInfo("grass", True, frozenset({(x, 0), (x, 1)}), (sheep, 0, 0, 0, 0, 0))
        for x, sheep in ((0, 7), (5, 8))
    )
    stats = Analysis(areas=areas, roads=(), lands=2).stats()
    assert score_cards(stats)["sheep_areas"] == (2, 2 * 3 + 3)


def test_a_per_object_bonus_pays_for_every_object() -> None:
    """ "One gives points per specified area or object", e.g. "if there are 5 fish in
    completed Lakes, you get 5 points": two complete lakes holding 5 fish between them
    score 4 each and 1 per fish."""
    areas = (
        AreaInfo("lake", True, frozenset({(0, 0)}), (0, 0, 0, 0, 0, 2)),
        AreaInfo("lake", True, frozenset({(3, 0), (3, 1)}), (0, 0, 0, 0, 0, 3)),
        AreaInfo("lake", False, frozenset({(6, 0)}), (0, 0, 0, 0, 0, 4)),  # open: no fish
    )
    stats = Analysis(areas=areas, roads=(), lands=1).stats()
    assert score_cards(stats)["lakes"] == (2, 2 * 4 + 5)


# The market crossroads (a city with four road ends) with a road to each of its
# sides: north into the city cap with road, east into the hamlet, south into the
# village, and west round two bends into the village's west end. The village's east
# end stays open.
FOUR_ROADS = (
    ("market crossroads", 0, 0, 0),
    ("city cap with road", 0, -1, 0),
    ("hamlet", 1, 0, 2),
    ("village at a junction", 0, 1, 2),
    ("road bend", -1, 0, 3),
    ("garden road bend", -1, 1, 3),
)


@pytest.mark.parametrize(
    ("layout", "roads", "points"),
    [
        (FOUR_ROADS, 4, 2 * 4 + 3),
        (tuple(t for t in FOUR_ROADS if t[0] != "hamlet"), 3, 2 * 3),
    ],
    ids=["four roads", "three roads"],
)
def test_the_roads_bonus_on_a_landscape(
    layout: tuple[tuple[str, int, int, int], ...], roads: int, points: int
) -> None:
    """Notes' table: roads scores 2 per complete road, "+3 if 4 or more"; "A Road is
    completed when both sides of it connect to Cities." Four roads leave the market,
    each ending at a city: 4 complete roads and the bonus. Without the hamlet the
    market's east end is open: 3 complete roads, no bonus. The village's open east
    end is a road that never counts."""
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    assert sum(r.complete for r in analysis.roads) == roads
    assert sum(not r.complete for r in analysis.roads) == 5 - roads
    assert score_cards(analysis.stats())["roads"] == (roads, points)


def test_the_tile_set_allows_four_complete_roads_at_most() -> None:
    """The guide: roads end only at cities printed on the tile, "9 ends in all", so
    "at most 4 roads can be complete" and the roads bonus needs every one of them."""
    ends = {t.name: sum(len(p.segments) == 1 for p in t.roads) for t in TILES}
    assert {name: n for name, n in ends.items() if n} == {
        "city cap with road": 1,
        "village at a junction": 3,
        "market crossroads": 4,
        "hamlet": 1,
    }
    assert sum(ends.values()) // 2 == OBJECTIVE_BY_ID["roads"].threshold
