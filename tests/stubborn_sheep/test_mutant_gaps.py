"""Rule scenarios that a round of hand-made rule faults (mutants) found no test for.

Each test names the fault it stops. Expected values are worked out from the
rulebook and the project's rules notes, not read off the engine.
"""

from __future__ import annotations

from games.stubborn_sheep.actions import Decline, UseBonus
from games.stubborn_sheep.data import PEN_PLUS_ONE, SHEEP_BONUS
from games.stubborn_sheep.state import PH_BLUE, PH_PLACE, StubbornSheepState

from .helpers import b, r, y


def test_solo_pen_plus_one_is_offered_when_every_meadow_already_holds_five() -> None:
    """Rulebook, solo: "When you restock the sheep, add no sheep to your pen, or 1
    sheep if you use the bonus action of the blue sheep"; the blue bonus: "Increase
    by 1 the number of sheep restocked in your pen". The solo player's blue pile has
    pen_plus_one on top; the three meadows hold 5 sheep each, so the meadow restock
    adds nothing and the pen gets none of its own. The bonus still adds a sheep (to
    the pen, not to a meadow), so it must be offered, and using it puts exactly one
    sheep in the empty pen. Fault stopped: pen_plus_one offered in solo only while
    some meadow is short (the check of the meadow bonuses standing in for it)."""
    assert SHEEP_BONUS[b(0)] == PEN_PLUS_ONE
    meadows = [[r(i) for i in range(5)], [r(i) for i in range(5, 10)], [y(i) for i in range(5)]]
    state = StubbornSheepState.from_position(
        1,
        areas=[[], *meadows],
        scored=[[[b(0)], [], [], []]],
        bonus=True,
        start="turn",
    )
    assert [len(area) for area in state.areas] == [0, 5, 5, 5]
    assert state.phase == PH_BLUE
    assert state.legal_actions() == (Decline(), UseBonus(PEN_PLUS_ONE))
    state.apply(UseBonus(PEN_PLUS_ONE))
    assert [len(area) for area in state.areas] == [1, 5, 5, 5]
    assert state.phase == PH_PLACE
