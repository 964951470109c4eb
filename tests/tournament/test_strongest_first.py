"""strongest_first: Elos within TIE_ELO of the first of their run are equal
(ordered by name); a run does not chain on past that, one near neighbour at a
time, into bots clearly apart from its first."""

from __future__ import annotations

from tournament.ratings import TIE_ELO, strongest_first


def test_a_tie_is_measured_from_the_first_of_its_run_not_chained() -> None:
    # a is within TIE_ELO of y and y of x, but a is 1.6 TIE_ELO below x: x and
    # y tie (by name: x, y), a comes after them, though its name sorts first.
    bots = ["a", "y", "x"]
    elo = [10.0 - 1.6 * TIE_ELO, 10.0 - 0.8 * TIE_ELO, 10.0]
    assert [bots[i] for i in strongest_first(bots, elo)] == ["x", "y", "a"]


def test_equal_elos_are_ordered_by_name_and_the_stronger_first() -> None:
    bots = ["c", "b", "a", "d"]
    elo = [5.0, 5.0 + 0.5 * TIE_ELO, 1.0, 7.0]
    assert [bots[i] for i in strongest_first(bots, elo)] == ["d", "b", "c", "a"]
