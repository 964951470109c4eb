"""Objective cards that count only completed areas, checked with an open area that
would change the count if it were counted (rulebook "Area completion": every card but
"Number of Lands" needs completed areas)."""

from __future__ import annotations

from games.sheep_and_garden.scoring import score_cards

from .helpers import analysed, landscape, mismatches

# A city of two tiles holding 4 houses (fortress 2, street 2), open on three sides.
OPEN_CITY = (("city fortress", 0, 0, 0), ("city street", 0, -1, 0))
# The same city closed by three caps (1 house each).
CLOSED_CITY = (*OPEN_CITY, ("city cap", 0, 1, 0), ("city cap", 0, -2, 2), ("city cap", 1, 0, 3))


def test_an_open_area_with_four_houses_is_not_a_settlement() -> None:
    """A settlement is a completed area with 3 or more houses: 4 houses in a city that
    is still open count for nothing; closing the same city makes it a settlement."""
    assert mismatches(landscape(*OPEN_CITY)) == []
    open_city = analysed(*OPEN_CITY)
    [city] = [a for a in open_city.areas if a.terrain == "city"]
    assert not city.complete and city.objects[4] == 4
    assert open_city.stats()["settlements"] == 0
    assert score_cards(open_city.stats())["settlements"] == (0, 0)

    assert mismatches(landscape(*CLOSED_CITY)) == []
    closed = analysed(*CLOSED_CITY).stats()
    assert closed["settlements"] == 1
    assert score_cards(closed)["settlements"] == (1, 4)


def test_seven_sheep_in_an_open_area_give_no_bonus() -> None:
    """The sheep card's fixed bonus needs 7 or more sheep on one completed area. Here
    one completed grass ring holds 6 sheep and an open row of three meadows holds 9:
    the card scores 3 for the one complete area with sheep and no bonus."""
    ring = (
        ("meadow", 0, 0, 0),
        ("city cap", 0, -1, 3),
        ("city street", 1, 0, 2),
        ("garden cap", 0, 1, 3),
        ("lake corner", -1, 0, 3),
    )
    row = (("meadow", 5, 5, 0), ("meadow", 6, 5, 0), ("meadow", 7, 5, 0))
    layout = ring + row
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    flocks = sorted((a.complete, a.objects[0]) for a in analysis.areas if a.objects[0])
    assert (True, 6) in flocks and (False, 9) in flocks
    stats = analysis.stats()
    assert stats["complete_areas_with_sheep"] == 1
    assert stats["most_sheep_in_a_complete_area"] == 6
    assert score_cards(stats)["sheep_areas"] == (1, 3)


def test_cows_in_an_open_pen_do_not_count() -> None:
    """Cows count only on completed areas: the paddock's fenced pen with 2 cows scores
    nothing while its north edge is open (once closed it scores; see test_scoring)."""
    analysis = analysed(("paddock", 0, 0, 0))
    [pen] = [a for a in analysis.areas if a.objects[1]]
    assert not pen.complete and pen.objects[1] == 2
    stats = analysis.stats()
    assert stats["cows_in_complete_areas"] == 0
    assert score_cards(stats)["cows"] == (0, 0)
