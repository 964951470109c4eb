"""Rulebook sentences of the red bonus actions (rotate, extra activation, activate
twice) and the yellow bonus an audit found without a scenario that pins them.

Each test sets up the situation the sentence speaks of and checks its outcome
where a plausible misreading would give another one. Three players (see
`helpers.frame3`): seat 0 owns fences 0 (right) and 1 (left) and pen 0; fence 3
lies between pen 1 (area 2) and meadow 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.stubborn_sheep.actions import Continue, MoveSheep, PickSheep, PlaceFence, UseBonus
from games.stubborn_sheep.data import (
    ACTIVATE_EXTRA,
    ACTIVATE_TWICE,
    DOWN,
    EFFECTIVE,
    FENCES,
    LEFT,
    MOVE_BLUE,
    RIGHT,
    ROTATE_FENCE,
    SHEEP_BONUS,
    UP,
    WHITE,
    YELLOW,
    YELLOW_TAKES_TWO,
)
from games.stubborn_sheep.events import YELLOW_COMPANION, BonusUsed, IconJump, SheepMoved
from games.stubborn_sheep.state import (
    PH_BETWEEN,
    PH_COMPANION,
    PH_PLACE,
    PH_TAKES_TWO,
    StubbornSheepState,
)

from .helpers import b, empty_areas, frame3, payloads, pick, r, w, where, y

# ---------------------------------------------------------------- red bonus


def _red(top: int, sheep: dict[int, list[int]], **kwargs: Any) -> StubbornSheepState:
    """Seat 0 holds fence card 20 and the red bonus printed on `top`; `sheep` by area."""
    scored = [[[], [top], [], []], [[], [], [], []], [[], [], [], []]]
    areas = empty_areas(6)
    for area, cards in sheep.items():
        areas[area] = list(cards)
    return frame3(20, areas, scored=scored, bonus=True, **kwargs)


def test_rotate_is_offered_only_before_the_fence_is_activated() -> None:
    """Rulebook, red bonus: "Rotate a fence before activating it." Once a fence has been
    activated it is no longer offered for a rotation, only the next fence is. A white
    beside each fence when its turn comes (meadow 3 for the placed card 20, pen 0 for
    fence 1, meadow 5 for fence 0, each taken from the other side once turned) makes
    every rotation worth offering."""
    state = _red(r(0), {0: [w(10)], 3: [w(11)], 5: [w(12)]})
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    offered = []
    while state.phase == PH_BETWEEN:
        offered.append((list(state.activated), set(state.legal_actions())))
        state.apply(Continue())
    assert offered == [
        ([], {Continue(), UseBonus(ROTATE_FENCE, fence=3)}),
        ([3], {Continue(), UseBonus(ROTATE_FENCE, fence=1)}),
        ([3, 1], {Continue(), UseBonus(ROTATE_FENCE, fence=0)}),
    ]
    # After the last activation nothing is left to rotate: the turn went on by itself.
    assert state.current == 1


def test_an_extra_activation_never_goes_to_a_fence_already_activated() -> None:
    """Rulebook, red bonus: "Activate a fence which, otherwise, would not be activated
    during this round." After the placed fence 3 has been activated, with seat 0's own
    fences 1 and 0 still to come, only fences 2, 4 and 5 qualify, though every fence
    would move a white: fence 3 (card 20) the one of two left in meadow 3."""
    state = _red(r(2), {0: [w(10)], 1: [w(13)], 3: [w(11), w(12)], 5: [w(14)]})
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    state.apply(Continue())
    state.apply(PickSheep(w(11)))
    assert state.activated == [3] and state.queue == [1, 0]
    extra = {
        a.fence
        for a in state.legal_actions()
        if isinstance(a, UseBonus) and a.bonus == ACTIVATE_EXTRA
    }
    assert extra == {2, 4, 5}


# Notes, bonus actions: a bonus is offered "only when it would change something",
# judged on the table as it is when it is offered. Seat 0's fences in `_red` are
# cards 0 to 5 as printed; the placed card 20 meets blues and yellows in pen 1 and
# whites in meadow 3 (turned: whites in pen 1, yellows and blues in meadow 3).


def _offered(state: StubbornSheepState, bonus: int) -> set[int]:
    return {a.fence for a in state.legal_actions() if isinstance(a, UseBonus) and a.bonus == bonus}


def test_an_extra_activation_only_for_a_fence_that_would_move_a_sheep() -> None:
    """Fence 2 (card 2) takes blues and whites from meadow 1 and yellows and reds from
    pen 1: a white and a blue in pen 1 are on the wrong side and it would move nothing;
    fences 3 and 5 meet nothing either, fence 4 meets the yellow in pen 2. Before the
    placing and between activations alike only fence 4 is offered; with the white in
    meadow 1 instead, fence 2 is too."""
    sheep = {2: [w(10), b(10)], 4: [y(10)]}
    state = _red(r(2), sheep)
    assert _offered(state, ACTIVATE_EXTRA) == {4}
    state.apply(pick(state, PlaceFence, fence=0, orientation=UP))
    assert state.phase == PH_BETWEEN and _offered(state, ACTIVATE_EXTRA) == {4}
    moved = _red(r(2), {1: [w(10)], 2: [b(10)], 4: [y(10)]})
    assert _offered(moved, ACTIVATE_EXTRA) == {2, 4}


def test_activate_twice_only_for_a_fence_that_would_move_a_sheep() -> None:
    """The placed card 20 finds nothing when the only white beside it is in pen 1
    (it takes whites from meadow 3) and the red in meadow 3 matches none of its icons:
    activating it twice would change nothing, so no decision comes and the turn runs
    through. With the white in meadow 3 it is offered; once that white has jumped,
    the fence is not offered again, while fence 1, with a white in pen 0, is."""
    state = _red(r(1), {2: [w(10)], 3: [r(10)]})
    events = state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.current == 1
    assert not any(isinstance(p, BonusUsed) for p in payloads(events))
    state = _red(r(1), {0: [w(11)], 3: [w(10)]})
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.phase == PH_BETWEEN and _offered(state, ACTIVATE_TWICE) == {3}
    state.apply(Continue())
    assert state.activated == [3] and where(state, w(10)) == 2
    assert _offered(state, ACTIVATE_TWICE) == {1}


@pytest.mark.parametrize(
    ("sheep", "offered"),
    [
        ({5: [y(10)]}, set()),  # fence 0 (card 14) has no yellow icon; fence 1 sees nothing
        ({0: [w(10)]}, {1}),  # card 14 meets whites on the same sides either way
        ({0: [w(10)], 5: [b(10)]}, {0, 1}),  # with a blue beside it, turning it matters
    ],
)
def test_rotate_only_where_turning_the_fence_changes_what_it_moves(
    sheep: dict[int, list[int]], offered: set[int]
) -> None:
    """Fence card 14 lies on seat 0's right fence (0): as printed its white icons
    take a white from meadow 5 then one from pen 0, and turned the same. Fence 1
    (card 1) takes whites from pen 0 as printed and from meadow 1 turned."""
    assert [i for i in EFFECTIVE[14][UP] if i[0] == WHITE] == [(WHITE, LEFT), (WHITE, RIGHT)]
    assert [i for i in EFFECTIVE[14][DOWN] if i[0] == WHITE] == [(WHITE, LEFT), (WHITE, RIGHT)]
    state = _red(r(0), sheep, fences=[14, 1, 2, 3, 4, 5])
    assert state.phase == PH_PLACE
    assert _offered(state, ROTATE_FENCE) == offered


def test_rotate_between_activations_only_where_it_changes_something() -> None:
    """The placed card 20 never meets the red in meadow 3, either way up: the turn goes
    on to its activation without asking, and the rotation is first offered for fence 1,
    which as printed takes the white from pen 0 and turned would look in meadow 1."""
    state = _red(r(0), {0: [w(10)], 3: [r(10)]})
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.phase == PH_BETWEEN and state.activated == [3]
    assert set(state.legal_actions()) == {Continue(), UseBonus(ROTATE_FENCE, fence=1)}


def test_a_white_move_before_placing_only_when_an_extra_activation_follows() -> None:
    """A move made before placing must be followed by the red extra activation, so it
    is offered only where one would still be worth making after it. The blue in pen 2
    is met by fence 5; moved to meadow 3 it is met by fence 4; moved anywhere else,
    none of fences 2 to 5 would move a sheep."""
    areas = empty_areas(6)
    areas[4] = [b(10)]
    scored = [[[], [r(2)], [], [w(0)]], [[], [], [], []], [[], [], [], []]]
    state = frame3(20, areas, scored=scored, bonus=True)
    assert SHEEP_BONUS[w(0)] == MOVE_BLUE
    assert _offered(state, ACTIVATE_EXTRA) == {5}
    moves = [a for a in state.legal_actions() if isinstance(a, MoveSheep)]
    assert moves == [MoveSheep(b(10), False, 1)]
    state.apply(moves[0])
    assert set(state.legal_actions()) == {UseBonus(ACTIVATE_EXTRA, fence=4)}


# ------------------------------------------------------------- yellow bonus


def test_the_yellow_bonus_serves_one_yellow_jump_per_turn() -> None:
    """Rulebook: "Each bonus action may only be used once per round." Fence card 7 as
    printed makes a yellow jump from pen 1 into meadow 3 (icon 0) and a yellow jump back
    (icon 2). The first jump uses "it takes 2 sheep with it"; on the way back the same
    yellow again has 2 sheep beside it, but takes only 1 and nobody asks about the bonus."""
    assert EFFECTIVE[7][UP][0] == (YELLOW, LEFT) and EFFECTIVE[7][UP][2] == (YELLOW, RIGHT)
    assert EFFECTIVE[7][UP][3] == (WHITE, LEFT)
    areas = empty_areas(6)
    areas[2] = [y(5), w(10), w(11)]
    scored = [[[], [], [y(0)], []], [[], [], [], []], [[], [], [], []]]
    state = frame3(7, areas, scored=scored, bonus=True)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.phase == PH_TAKES_TWO
    state.apply(UseBonus(YELLOW_TAKES_TWO))
    events = payloads(state.apply(PickSheep(w(10))))
    assert events[:3] == [
        SheepMoved(YELLOW_COMPANION, w(10), 2, 3, 3),
        SheepMoved(YELLOW_COMPANION, w(11), 2, 3, 3),
        IconJump(3, 1, FENCES[7][1][0], 2, 3, -1),
    ]
    assert events[3] == IconJump(3, 2, YELLOW, 3, 2, y(5))
    assert state.phase == PH_COMPANION  # one companion to pick, no bonus offered
    assert set(state.legal_actions()) == {PickSheep(w(10)), PickSheep(w(11))}
    events = payloads(state.apply(PickSheep(w(11))))
    assert events[0] == SheepMoved(YELLOW_COMPANION, w(11), 3, 2, 3)
    assert not any(isinstance(p, SheepMoved) and p.card == w(10) for p in events[:2])
