"""Where one objective card stops and the next begins: rulebook sentences whose
wording limits a card to some terrains, each checked on a landscape that has the
thing on another terrain.

- "A heart-shaped area can be made on Gardens, Cities and Lakes": grass in an L
  is no heart.
- "An empty area means a Grasses area that contains no objects": an empty lake,
  city or garden is not one.
- The cities card's bonus counts humans in complete cities (rules notes' table),
  while "Number of People" counts humans in any complete area.
- "3 points if there are 7 or more Sheep on a completed area": on one area, not
  summed over several.
"""

from __future__ import annotations

import pytest

from games.sheep_and_garden.scoring import Analysis, AreaInfo, score_cards

from .helpers import analysed, landscape, mismatches

# A complete grass area with nothing on it, on exactly three tiles in an L: the
# garden walk's east strip, the garden cap's south-west grass and the city
# street's north strip (turned three times) close one another.
GRASS_L = (
    ("garden walk", 0, 0, 0),
    ("garden cap", 1, 0, 0),
    ("city street", 1, 1, 3),
)


def test_a_complete_grass_area_in_an_l_is_not_a_heart() -> None:
    """ "A heart-shaped area can be made on Gardens, Cities and Lakes": a complete
    grass area over three tiles in an L scores as an empty area, not as a heart."""
    assert mismatches(landscape(*GRASS_L)) == []
    analysis = analysed(*GRASS_L)
    complete = [a for a in analysis.areas if a.complete]
    assert [(a.terrain, a.cells) for a in complete] == [("grass", {(0, 0), (1, 0), (1, 1)})]
    cards = score_cards(analysis.stats())
    assert cards["hearts"] == (0, 0)
    assert cards["empty_areas"] == (1, 3)


@pytest.mark.parametrize("terrain", ["lake", "city", "garden"])
def test_an_empty_complete_area_of_another_terrain_is_not_an_empty_area(terrain: str) -> None:
    """ "An empty area means a Grasses area that contains no objects." The tile set
    has no complete lake, city or garden without objects, so the areas are given
    directly: only the empty grass counts."""
    nothing = (0, 0, 0, 0, 0, 0)
    analysis = Analysis(
        areas=(
            AreaInfo(terrain, True, frozenset({(0, 0)}), nothing),
            AreaInfo("grass", True, frozenset({(1, 0)}), nothing),
        ),
        roads=(),
        lands=1,
    )
    assert score_cards(analysis.stats())["empty_areas"] == (1, 3)


def test_humans_in_a_complete_garden_count_for_people_not_for_cities() -> None:
    """Cities card: 3 per complete city, +1 per human in complete cities; people: 1
    per human in any complete area. A complete city in an L (1 human) beside a
    hedged garden (1 human, complete at once): cities scores one human, people two."""
    layout = (
        ("city corner", 0, 0, 0),
        ("city cap", 0, -1, 2),
        ("twin city caps", 1, 0, 3),
        ("hedged garden", -1, 0, 0),
    )
    assert mismatches(landscape(*layout)) == []
    cards = score_cards(analysed(*layout).stats())
    assert cards["cities"] == (1, 3 + 1)
    assert cards["gardens"] == (1, 3 + 1)
    assert cards["people"] == (2, 2)


def test_seven_sheep_spread_over_two_complete_areas_give_no_bonus() -> None:
    """Fixed bonus: "3 points if there are 7 or more Sheep on a completed area" means
    on one area. A ring of grass holding 6 sheep, and beside it the city street's
    other strip (1 sheep) closed by the lake cap's fenced strip: 7 sheep in complete
    areas, two areas with sheep, but no single area holds 7."""
    layout = (
        ("meadow", 0, 0, 0),
        ("city cap", 0, -1, 3),
        ("city street", 1, 0, 2),
        ("garden cap", 0, 1, 3),
        ("lake corner", -1, 0, 3),
        ("lake cap", 2, 0, 0),
    )
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    sheep = sorted(a.objects[0] for a in analysis.areas if a.complete)
    assert sheep == [1, 6]
    stats = analysis.stats()
    assert stats["most_sheep_in_a_complete_area"] == 6
    assert score_cards(stats)["sheep_areas"] == (2, 2 * 3)
