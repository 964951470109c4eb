"""Rule scenarios that a round of hand-made rule faults (mutants) found no test for.

Each test names the fault it stops. Expected values are worked out from the
rulebook and the project's rules notes, not read off the engine.
"""

from __future__ import annotations

from .helpers import analysed, landscape, mismatches


def test_an_open_city_in_an_l_is_not_a_heart_even_read_area_by_area() -> None:
    """Notes: "Heart: a complete garden, city or lake area that covers exactly 3
    tiles which form an L". A city corner at (0,0), a city cap closing its north
    side and a city street turned a quarter (city west and east) at (1,0) make one
    city on three cells in an L, but the street's east side faces the empty cell
    (2,0): the city is open, so it is no heart. The analysis bots read (each
    area's `is_heart`, documented as "a complete garden, city or lake") must say
    so too, not only the hearts count, which looks at complete areas alone.
    Fault stopped: the heart test dropping its completeness condition."""
    layout = (("city corner", 0, 0, 0), ("city cap", 0, -1, 2), ("city street", 1, 0, 1))
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    cities = [area for area in analysis.areas if area.terrain == "city"]
    assert len(cities) == 1
    city = cities[0]
    assert city.cells == frozenset({(0, 0), (0, -1), (1, 0)})
    assert not city.complete
    assert not city.is_heart
    assert analysis.stats()["hearts"] == 0
