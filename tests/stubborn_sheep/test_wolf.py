"""The wolf variant (option `wolf`)."""

from __future__ import annotations

from games.stubborn_sheep.actions import StopScoring
from games.stubborn_sheep.events import WolfMoved
from games.stubborn_sheep.state import StubbornSheepState

from .helpers import b, empty_areas, frame3, payloads, r, w, y


def _end_turn(areas: list[list[int]], wolf: int) -> tuple[StubbornSheepState, WolfMoved]:
    """Seat 0 stops scoring (3 reds wait in its pen), which ends its turn."""
    areas[0] = [r(10), r(11), r(12)]
    state = frame3(20, areas, start="score", wolf=wolf)
    events = payloads(state.apply(StopScoring()))
    (moved,) = [p for p in events if isinstance(p, WolfMoved)]
    return state, moved


def _meadow(*cards: int) -> list[int]:
    return list(cards)


def test_wolf_moves_to_the_meadow_with_most_sheep_and_discards_two_of_the_top_colour() -> None:
    """Rulebook: "At the end of each round, move the wolf to the meadow containing the most
    sheep ... discard two sheep of the most represented colour". Notes: the ones that have
    been in that meadow longest."""
    areas = empty_areas(6)
    areas[1] = _meadow(w(0), w(1), w(2), w(3))
    areas[3] = _meadow(b(0), r(0), r(1), y(0), r(2), w(4))
    areas[5] = _meadow(w(5), w(6), w(7), w(8), w(9))
    state, moved = _end_turn(areas, wolf=1)
    assert moved == WolfMoved(1, 3, (r(0), r(1)))
    assert state.wolf == 3
    assert r(0) in state.discard and r(1) in state.discard


def test_wolf_ties_go_to_the_first_meadow_clockwise() -> None:
    """Rulebook: "If there is a tie, move it clockwise to the first tied meadow it encounters"."""
    areas = empty_areas(6)
    areas[1] = _meadow(w(0), w(1), w(2), w(3), w(4))
    areas[3] = _meadow(w(5), w(6), w(7))
    areas[5] = _meadow(b(0), b(1), b(2), b(3), b(4))
    _, moved = _end_turn(areas, wolf=3)
    assert moved.to_area == 5
    _, moved = _end_turn([list(a) for a in areas], wolf=5)
    assert moved.to_area == 5  # its own meadow is among the most: it stays


def test_wolf_already_in_the_fullest_meadow_stays_and_still_discards() -> None:
    """Rulebook: "If the wolf is already in the meadow containing the most sheep, it does
    not move. In that meadow, discard ..."."""
    areas = empty_areas(6)
    areas[1] = _meadow(y(0), y(1), y(2), w(0), w(1))
    areas[3] = _meadow(w(2))
    _, moved = _end_turn(areas, wolf=1)
    assert moved == WolfMoved(1, 1, (y(0), y(1)))


def test_wolf_discards_one_of_each_tied_colour() -> None:
    """Rulebook: "If several colours are tied for being the most numerous, discard one sheep
    of each of those colours"."""
    areas = empty_areas(6)
    areas[3] = _meadow(r(0), b(0), r(1), b(1), w(0))
    _, moved = _end_turn(areas, wolf=1)
    assert moved == WolfMoved(1, 3, (r(0), b(0)))


def test_wolf_discards_one_of_each_of_four_tied_colours() -> None:
    """Rulebook: "If several colours are tied for being the most numerous, discard one sheep
    of each of those colours": a meadow of one sheep of each colour is four colours tied
    at one, so the wolf empties it (not two sheep, nor none for want of a majority)."""
    areas = empty_areas(6)
    areas[3] = _meadow(b(0), r(0), y(0), w(0))
    areas[5] = _meadow(w(1), w(2))
    state, moved = _end_turn(areas, wolf=1)
    assert moved == WolfMoved(1, 3, (b(0), r(0), y(0), w(0)))
    assert state.wolf == 3


def test_wolf_ignores_pens() -> None:
    areas = empty_areas(6)
    areas[2] = [w(i) for i in range(10)]
    areas[5] = _meadow(b(0))
    _, moved = _end_turn(areas, wolf=1)
    assert moved == WolfMoved(1, 5, (b(0),))


def test_no_restock_in_the_wolf_meadow() -> None:
    """Rulebook: "When you restock the sheep, add no sheep to the meadow where the wolf is
    located"."""
    state = StubbornSheepState.from_position(3, areas=empty_areas(6), wolf=3, start="turn")
    assert [len(a) for a in state.areas] == [0, 4, 0, 0, 0, 4]
