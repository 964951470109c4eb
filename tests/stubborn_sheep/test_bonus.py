"""The advanced rule, option `bonus_actions`: all 13 bonuses.

Rulebook: "You may only use the bonus action of the card at the top of each colour
pile. Each bonus action may only be used once per round." Notes: using one is always
an optional decision offered at its moment.
"""

from __future__ import annotations

import pytest

from games.stubborn_sheep.actions import (
    Continue,
    Decline,
    MoveSheep,
    PickSheep,
    PlaceFence,
    UseBonus,
)
from games.stubborn_sheep.data import (
    ACTIVATE_EXTRA,
    ACTIVATE_TWICE,
    ALL_MEADOWS_TO_FIVE,
    BLUE,
    BLUE_SINGLE_STEP,
    BLUE_STOPS_AFTER_ONE,
    EFFECTIVE,
    LEFT,
    MEADOW_TO_SIX,
    PEN_PLUS_ONE,
    RIGHT,
    ROTATE_FENCE,
    SHEEP_BONUS,
    SHEEP_COLOUR,
    UP,
    YELLOW,
    YELLOW_TAKES_TWO,
)
from games.stubborn_sheep.events import (
    BLUE_RUN,
    BONUS_MOVE,
    YELLOW_COMPANION,
    BonusUsed,
    FenceActivated,
    FenceRotated,
    IconJump,
    SheepMoved,
)
from games.stubborn_sheep.state import (
    PH_BETWEEN,
    PH_BLUE,
    PH_BLUE_MOD,
    PH_COMPANION,
    PH_JUMPER,
    PH_PLACE,
    PH_TAKES_TWO,
    StubbornSheepState,
)

from .helpers import (
    b,
    empty_areas,
    find_fence,
    frame3,
    payloads,
    pick,
    r,
    until_next_turn,
    w,
    where,
    y,
)


def _piles(*tops: int) -> list[list[list[int]]]:
    """Seat 0's score piles holding `tops` (each on top of its colour pile)."""
    mine: list[list[int]] = [[], [], [], []]
    for card in tops:
        mine[SHEEP_COLOUR[card]].append(card)
    return [mine, [[], [], [], []], [[], [], [], []]]


def _activations(events: list) -> list[int]:
    return [p.fence for p in until_next_turn(events) if isinstance(p, FenceActivated)]


def test_printed_bonuses_of_the_helper_cards() -> None:
    assert [SHEEP_BONUS[c] for c in (b(0), b(1), b(2))] == [0, 1, 2]
    assert [SHEEP_BONUS[c] for c in (r(0), r(1), r(2))] == [3, 4, 5]
    assert [SHEEP_BONUS[c] for c in (y(0), y(1), y(2))] == [6, 7, 8]
    assert [SHEEP_BONUS[c] for c in (w(0), w(1), w(2), w(3))] == [9, 10, 11, 12]


# -------------------------------------------------------------------- blue


def _restock(scored, players: int = 3, **kwargs) -> StubbornSheepState:
    areas = empty_areas(6 if players == 3 else 4)
    if players == 1:
        scored = scored[:1]
    return StubbornSheepState.from_position(
        players, areas=areas, scored=scored, bonus=True, start="turn", **kwargs
    )


def test_pen_plus_one_adds_a_sheep_to_the_pen_after_the_normal_restock() -> None:
    """Rulebook: "Increase by 1 the number of sheep restocked in your pen"."""
    state = _restock(_piles(b(0)))
    assert state.phase == PH_BLUE
    assert state.legal_actions() == (Decline(), UseBonus(PEN_PLUS_ONE))
    assert state.areas[0] == []
    events = payloads(state.apply(UseBonus(PEN_PLUS_ONE)))
    assert events[0] == BonusUsed(0, PEN_PLUS_ONE)
    assert len(state.areas[0]) == 1 and state.phase == PH_PLACE


def test_pen_plus_one_in_solo_gives_one_sheep() -> None:
    """Rulebook solo: "add no sheep to your pen, or 1 sheep if you use the bonus action of
    the blue sheep"."""
    state = _restock(_piles(b(0)), players=1)
    state.apply(UseBonus(PEN_PLUS_ONE))
    assert len(state.areas[0]) == 1


def test_meadow_to_six_restocks_a_chosen_meadow_to_six_not_the_wolf_one() -> None:
    """Rulebook: "Choose a meadow. Restock it up to 6 sheep"; wolf: "This rule also applies
    to the additional restock granted by the bonus action of the blue sheep"."""
    state = _restock(_piles(b(1)))
    assert state.legal_actions() == (
        Decline(),
        UseBonus(MEADOW_TO_SIX, area=1),
        UseBonus(MEADOW_TO_SIX, area=3),
        UseBonus(MEADOW_TO_SIX, area=5),
    )
    state.apply(UseBonus(MEADOW_TO_SIX, area=3))
    assert [len(a) for a in state.areas] == [0, 4, 0, 6, 0, 4]
    wolfish = _restock(_piles(b(1)), wolf=1)
    assert {a.area for a in wolfish.legal_actions() if isinstance(a, UseBonus)} == {3, 5}


def test_all_meadows_to_five_except_the_wolf_meadow() -> None:
    """Rulebook: "Restock all meadows up to 5 sheep instead of the usual 4"."""
    state = _restock(_piles(b(2)), wolf=5)
    state.apply(UseBonus(ALL_MEADOWS_TO_FIVE))
    assert [len(a) for a in state.areas] == [0, 5, 0, 5, 0, 0]


def test_only_the_top_card_gives_its_bonus() -> None:
    state = _restock(_piles(b(0), b(1)))  # b(1) lies on b(0)
    offered = {a.bonus for a in state.legal_actions() if isinstance(a, UseBonus)}
    assert offered == {MEADOW_TO_SIX}, "b(1)'s bonus is offered, b(0)'s is not"


def test_no_bonus_without_the_option_and_declining_is_always_possible() -> None:
    areas = empty_areas(6)
    plain = StubbornSheepState.from_position(3, areas=areas, scored=_piles(b(0)), start="turn")
    assert plain.phase == PH_PLACE
    state = _restock(_piles(b(0)))
    state.apply(Decline())
    assert state.areas[0] == [] and state.phase == PH_PLACE


# --------------------------------------------------------------------- red


def _build(tops: tuple[int, ...], areas=None, hand: int = 20) -> StubbornSheepState:
    return frame3(hand, areas or empty_areas(6), scored=_piles(*tops), bonus=True)


def test_rotate_one_of_your_own_fences_before_placing() -> None:
    """Rulebook: "Rotate a fence before activating it ... You may use this action before
    placing your fence". Before the placing, the fences sure to be activated this turn
    are the player's own two (0 and 1 for seat 0): another player's fence, which this
    turn would not activate, is not offered. A white sheep in pen 0 is met by both own
    fences (0 as printed takes it from its clockwise side, 1 from its counter-clockwise
    one), and turned, each would look for whites on its other side: both are offered.
    Fence 3 also has a white beside it (meadow 3), but is another player's."""
    areas = empty_areas(6)
    areas[0], areas[3] = [w(10)], [w(11)]
    state = _build((r(0),), areas)
    assert {a.fence for a in state.legal_actions() if isinstance(a, UseBonus)} == {0, 1}
    events = payloads(state.apply(UseBonus(ROTATE_FENCE, fence=0)))
    assert events == [BonusUsed(0, ROTATE_FENCE, 0), FenceRotated(0, 1)]
    assert state.orient[0] == 1 and state.phase == PH_PLACE
    assert not any(isinstance(a, UseBonus) for a in state.legal_actions())  # once per turn


@pytest.mark.parametrize(("top", "fences"), [(r(0), {0, 1}), (r(2), {2, 3})])
def test_solo_red_bonus_before_placing(top: int, fences: set[int]) -> None:
    """Solo, "All the usual rules apply": before placing, `rotate_fence` turns one of
    the two fences beside the pen (0 and 1, activated whichever fence the player
    places on), and `activate_extra` goes to one of the other two (2 and 3), which
    the turn would not otherwise activate. Whites in areas 0, 1 and 3 are met by
    all four table fences (cards 0 to 3 as printed)."""
    areas = [[w(10)], [w(11)], [], [w(12)]]
    state = StubbornSheepState.from_position(
        1, areas=areas, scored=[[[], [top], [], []]], bonus=True, start="place"
    )
    offered = {a.fence for a in state.legal_actions() if isinstance(a, UseBonus)}
    assert offered == fences


def test_rotate_fence_right_before_its_activation() -> None:
    areas = empty_areas(6)
    areas[3] = [w(10)]  # card 20 as placed takes it from meadow 3, turned from pen 1
    state = _build((r(0),), areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.phase == PH_BETWEEN
    assert state.legal_actions() == (Continue(), UseBonus(ROTATE_FENCE, fence=3))
    # With no other bonus left the engine goes on at once (a lone "continue" is forced).
    events = until_next_turn(state.apply(UseBonus(ROTATE_FENCE, fence=3)))
    assert events[:3] == [
        BonusUsed(0, ROTATE_FENCE, 3),
        FenceRotated(3, 1),
        FenceActivated(3, 20, 1),
    ]


def test_activate_twice_in_a_row() -> None:
    """Rulebook: "Activate a fence twice in a row"."""
    areas = empty_areas(6)
    areas[3] = [w(10)]  # the placed card 20 makes it jump
    state = _build((r(1),), areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.legal_actions() == (Continue(), UseBonus(ACTIVATE_TWICE, fence=3))
    assert _activations(state.apply(UseBonus(ACTIVATE_TWICE, fence=3))) == [3, 3, 1, 0]


def test_activate_twice_right_after_the_first_activation() -> None:
    """Rulebook: "Activate a fence twice in a row". Nothing asks the player to say so
    before the first activation: right after a fence is activated (the last one of the
    turn too) it may be activated again at once, if it would move a sheep again: the
    placed card 20 takes one of two whites from meadow 3 (the other stays), fence 1 a
    white from pen 0."""
    areas = empty_areas(6)
    areas[0], areas[3] = [w(12)], [w(10), w(11)]
    state = _build((r(1),), areas)
    events = state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    events += state.apply(Continue())  # fence 3 is activated
    assert state.phase == PH_JUMPER
    events += state.apply(PickSheep(w(10)))
    assert state.phase == PH_BETWEEN and state.queue == [1, 0]
    assert set(state.legal_actions()) == {
        Continue(),
        UseBonus(ACTIVATE_TWICE, fence=3),
        UseBonus(ACTIVATE_TWICE, fence=1),
    }
    assert _activations(events + state.apply(UseBonus(ACTIVATE_TWICE, fence=3))) == [3, 3, 1, 0]
    # Placed on fence 0 (moving nothing: not asked about), then fence 1, whose red
    # icon takes one of two reds from meadow 1: the other is still there to jump.
    areas = empty_areas(6)
    areas[1] = [r(10), r(11)]
    last = _build((r(1),), areas)
    events = last.apply(pick(last, PlaceFence, fence=0, orientation=UP))
    assert last.phase == PH_BETWEEN and last.activated == [0]
    events += last.apply(Continue())
    assert last.phase == PH_JUMPER
    events += last.apply(PickSheep(r(10)))
    assert last.phase == PH_BETWEEN and last.queue == []
    assert set(last.legal_actions()) == {Continue(), UseBonus(ACTIVATE_TWICE, fence=1)}
    assert _activations(events + last.apply(UseBonus(ACTIVATE_TWICE, fence=1))) == [0, 1, 1]


def test_activate_extra_before_placing() -> None:
    """Rulebook: "Activate a fence which, otherwise, would not be activated during this
    round. You may use this action before placing your fence". Whites in meadows 1, 3
    and 5 are met by fences 2 to 5 as printed, and one in pen 0 by the player's own
    fences 0 and 1, which are not offered: the turn activates them anyway."""
    areas = empty_areas(6)
    areas[0], areas[1], areas[3], areas[5] = [w(13)], [w(10)], [w(11)], [w(12)]
    state = _build((r(2),), areas)
    assert {a.fence for a in state.legal_actions() if isinstance(a, UseBonus)} == {2, 3, 4, 5}
    assert _activations(state.apply(UseBonus(ACTIVATE_EXTRA, fence=4))) == [4]
    assert state.phase == PH_PLACE
    assert _activations(state.apply(pick(state, PlaceFence, fence=3, orientation=UP))) == [3, 1, 0]


def test_no_placing_on_the_fence_given_an_extra_activation_before_placing() -> None:
    """The extra fence must be one "which, otherwise, would not be activated during
    this round": the placed fence is activated, so it cannot be the extra one."""
    areas = empty_areas(6)
    areas[3] = [w(10)]  # fence 4 makes it jump
    state = _build((r(2),), areas)
    assert any(isinstance(a, PlaceFence) and a.fence == 4 for a in state.legal_actions())
    state.apply(UseBonus(ACTIVATE_EXTRA, fence=4))
    placements = [a for a in state.legal_actions() if isinstance(a, PlaceFence)]
    assert {a.fence for a in placements} == {0, 1, 2, 3, 5}


def test_a_white_move_right_before_an_extra_activation_made_before_placing() -> None:
    """Rulebook: the white bonus is used "immediately before or after activating a
    fence", and the red one may activate an extra fence "before placing your fence":
    the white move is offered before that extra activation as well as after it."""
    areas = empty_areas(6)
    areas[4] = [b(10), r(10), y(10), w(10)]  # a sheep of every colour to move
    state = _build((r(2), w(0)), areas)
    before = [a for a in state.legal_actions() if isinstance(a, MoveSheep)]
    assert before, "a white move is offered before the extra activation"
    state.apply(before[0])  # b(10) to meadow 3
    assert state.phase == PH_PLACE
    # Fence 4 meets b(10) in meadow 3, fence 5 the red and yellow in pen 2.
    assert {a.fence for a in state.legal_actions() if isinstance(a, UseBonus)} == {4, 5}
    assert not any(isinstance(a, MoveSheep) for a in state.legal_actions())  # once a turn
    plain = _build((w(0),), [list(a) for a in areas])
    assert not any(isinstance(a, MoveSheep) for a in plain.legal_actions())


def test_a_white_move_made_before_placing_is_followed_by_the_extra_activation() -> None:
    """Rulebook: the white bonus is used "immediately before or after activating a
    fence". Before placing it is offered only as the move right before the red bonus's
    extra activation, so that activation must come next: placing instead would leave a
    white move before the placing that no other player may make."""
    areas = empty_areas(6)
    areas[4] = [b(10), r(10), y(10), w(10)]
    state = _build((r(2), w(0)), areas)
    state.apply(next(a for a in state.legal_actions() if isinstance(a, MoveSheep)))
    assert state.phase == PH_PLACE
    assert not any(isinstance(a, PlaceFence) for a in state.legal_actions())
    assert set(state.legal_actions()) == {UseBonus(ACTIVATE_EXTRA, fence=f) for f in (4, 5)}
    assert _activations(state.apply(UseBonus(ACTIVATE_EXTRA, fence=5))) == [5]
    assert state.phase == PH_PLACE
    assert {a.fence for a in state.legal_actions() if isinstance(a, PlaceFence)} == {0, 1, 2, 3, 4}


def test_a_white_move_right_after_an_extra_activation_made_before_placing() -> None:
    """Rulebook: the white bonus is used "immediately before or after activating a
    fence": after the red bonus's extra activation made "before placing your fence",
    the move is offered beside the placing, and once made the placing follows."""
    areas = empty_areas(6)
    areas[1] = [b(10), r(10), y(10), w(10)]  # a sheep of every colour, away from fence 4
    areas[3] = [w(11)]  # for fence 4 to move
    state = _build((r(2), w(0)), areas)
    assert _activations(state.apply(UseBonus(ACTIVATE_EXTRA, fence=4))) == [4]
    assert state.phase == PH_PLACE
    after = [a for a in state.legal_actions() if isinstance(a, MoveSheep)]
    assert after, "a white move is offered right after the extra activation"
    assert any(isinstance(a, PlaceFence) for a in state.legal_actions())
    state.apply(after[0])
    assert state.phase == PH_PLACE
    assert not any(isinstance(a, MoveSheep) for a in state.legal_actions())  # once a turn
    assert {a.fence for a in state.legal_actions() if isinstance(a, PlaceFence)} == {0, 1, 2, 3, 5}


def test_activate_extra_between_activations() -> None:
    areas = empty_areas(6)
    # Whites for fences 2, 4 and 5, and in pen 0 for the queued fences 1 and 0.
    areas[0], areas[1], areas[3], areas[5] = [w(13)], [w(10)], [w(11)], [w(12)]
    state = _build((r(2),), areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert {a.fence for a in state.legal_actions() if isinstance(a, UseBonus)} == {2, 4, 5}
    assert _activations(state.apply(UseBonus(ACTIVATE_EXTRA, fence=5))) == [5, 3, 1, 0]


# ------------------------------------------------------------------- white


@pytest.mark.parametrize("white", [w(0), w(1), w(2), w(3)])
def test_move_bonus_offers_the_printed_colour_only(white: int) -> None:
    """Rulebook: "Move a sheep of the indicated colour over one or two fences, in the
    direction of your choice"."""
    areas = empty_areas(6)
    areas[1] = [b(0), r(0), y(0), w(10)]
    state = _build((white,), areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    moves = [a for a in state.legal_actions() if isinstance(a, MoveSheep)]
    colour = SHEEP_BONUS[white] - 9
    card = (b(0), r(0), y(0), w(10))[colour]
    assert set(moves) == {MoveSheep(card, cw, n) for cw in (False, True) for n in (1, 2)}


def test_moved_sheep_uses_no_ability_and_the_bonus_is_once_per_turn() -> None:
    """Rulebook: "Use this bonus action immediately before or after activating a fence ...
    Its special ability does not activate"."""
    areas = empty_areas(6)
    areas[3] = [r(0)]
    areas[5] = [w(10)]
    state = _build((w(1),), areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    events = until_next_turn(state.apply(MoveSheep(r(0), True, 2)))
    assert events[:4] == [
        BonusUsed(0, SHEEP_BONUS[w(1)]),
        SheepMoved(BONUS_MOVE, r(0), 3, 4, 4),
        SheepMoved(BONUS_MOVE, r(0), 4, 5, 5),
        FenceActivated(3, 20, UP),
    ]
    # No bump decision came, and no other move is offered for the rest of the turn.
    assert state.current == 1


def test_a_move_counter_clockwise_over_two_fences_crosses_the_seam_and_a_middle_fence() -> None:
    """Rulebook: "Move a sheep ... over one or two fences, in the direction of your
    choice". Two players: counter-clockwise from seat 0's pen (area 0) the red crosses
    seat 0's right fence (0) into the last meadow (5), then the unowned middle fence 5
    into meadow 4; each move names the fence it crossed."""
    areas = empty_areas(6)
    areas[0] = [r(0)]
    scored: list[list[list[int]]] = [[[], [], [], [w(1)]], [[], [], [], []]]
    state = StubbornSheepState.from_position(
        2, areas=areas, scored=scored, bonus=True, hands=[[20], [21]], start="place"
    )
    state.apply(pick(state, PlaceFence, fence=2, orientation=UP))
    assert state.phase == PH_BETWEEN
    events = until_next_turn(state.apply(MoveSheep(r(0), False, 2)))
    assert events[:3] == [
        BonusUsed(0, SHEEP_BONUS[w(1)]),
        SheepMoved(BONUS_MOVE, r(0), 0, 5, 0),
        SheepMoved(BONUS_MOVE, r(0), 5, 4, 5),
    ]
    assert where(state, r(0)) == 4


def test_no_move_bonus_before_placing_without_an_activation_next_to_it() -> None:
    """Rulebook: the white bonus is used "immediately before or after activating a
    fence". Placing is not activating: with no red bonus to activate a fence before the
    placing, no move is offered until the fence is placed, and then it is (right before
    the placed fence's activation)."""
    areas = empty_areas(6)
    areas[3] = [w(10)]
    for tops in ((w(3),), (w(3), r(0)), (w(3), r(1))):
        state = _build(tops, [list(area) for area in areas])
        assert state.phase == PH_PLACE
        assert not any(isinstance(a, MoveSheep) for a in state.legal_actions())
        state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
        assert state.phase == PH_BETWEEN and state.activated == []
        assert any(isinstance(a, MoveSheep) for a in state.legal_actions())


def test_move_bonus_after_the_last_activation() -> None:
    areas = empty_areas(6)
    areas[3] = [w(10)]
    state = _build((w(3),), areas)
    state.apply(pick(state, PlaceFence, fence=0, orientation=UP))
    for _ in range(2):  # before fence 0, before fence 1
        assert state.phase == PH_BETWEEN
        state.apply(Continue())
    assert state.phase == PH_BETWEEN and state.queue == [] and state.activated == [0, 1]
    assert any(isinstance(a, MoveSheep) for a in state.legal_actions())


# ------------------------------------------------------------------ yellow


def _first_icon(tops, colour: int, areas) -> tuple[StubbornSheepState, list]:
    card, orientation = find_fence(lambda e: e[0] == (colour, LEFT))
    state = _build(tops, areas, hand=card)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=orientation)))
    return state, events


def test_yellow_takes_two_companions() -> None:
    """Rulebook: "When you move a yellow sheep, it takes 2 sheep with it instead of 1"."""
    areas = empty_areas(6)
    areas[2] = [y(5), r(0), w(10), b(0)]
    state, events = _first_icon((y(0),), YELLOW, areas)
    assert events[-1] == IconJump(3, 0, YELLOW, 2, 3, y(5))
    assert state.phase == PH_TAKES_TWO
    assert state.legal_actions() == (Decline(), UseBonus(YELLOW_TAKES_TWO))
    state.apply(UseBonus(YELLOW_TAKES_TWO))
    assert state.phase == PH_COMPANION
    state.apply(PickSheep(r(0)))
    assert state.phase == PH_COMPANION
    assert state.legal_actions() == (PickSheep(w(10)), PickSheep(b(0)))
    events = payloads(state.apply(PickSheep(b(0))))
    assert events[0] == SheepMoved(YELLOW_COMPANION, b(0), 2, 3, 3)
    assert state.areas[2] == [w(10)] or w(10) not in state.areas[3]


def test_yellow_takes_two_declined_takes_one() -> None:
    areas = empty_areas(6)
    areas[2] = [y(5), r(0), w(10)]
    state, _ = _first_icon((y(0),), YELLOW, areas)
    state.apply(Decline())
    assert state.phase == PH_COMPANION
    events = payloads(state.apply(PickSheep(w(10))))
    assert events[0] == SheepMoved(YELLOW_COMPANION, w(10), 2, 3, 3)
    assert not (isinstance(events[1], SheepMoved) and events[1].cause == YELLOW_COMPANION)


def _blue_run_areas() -> list[list[int]]:
    areas = empty_areas(6)
    areas[2] = [b(5)]
    areas[0] = [b(6)]  # the run would go 3 -> 4 -> 5 -> 0
    return areas


def test_blue_stops_after_one_extra_fence() -> None:
    """Rulebook: "When you move a blue sheep, it stops jumping after crossing only one fence"
    (notes: at most one extra fence)."""
    state, _ = _first_icon((y(1),), BLUE, _blue_run_areas())
    assert state.phase == PH_BLUE_MOD
    assert state.legal_actions() == (Decline(), UseBonus(BLUE_STOPS_AFTER_ONE))
    events = payloads(state.apply(UseBonus(BLUE_STOPS_AFTER_ONE)))
    assert events[1] == SheepMoved(BLUE_RUN, b(5), 3, 4, 4)
    assert not (isinstance(events[2], SheepMoved) and events[2].cause == BLUE_RUN)


def test_blue_single_step() -> None:
    """Rulebook: "move it by a single area, even if there is no other blue sheep in its new
    area"."""
    state, _ = _first_icon((y(2),), BLUE, _blue_run_areas())
    assert state.legal_actions() == (Decline(), UseBonus(BLUE_SINGLE_STEP))
    events = payloads(state.apply(UseBonus(BLUE_SINGLE_STEP)))
    assert not any(isinstance(p, SheepMoved) and p.cause == BLUE_RUN for p in events[:2])


def test_blue_modifier_declined_runs_in_full() -> None:
    state, _ = _first_icon((y(2),), BLUE, _blue_run_areas())
    events = payloads(state.apply(Decline()))
    assert [p.to_area for p in events[:3] if isinstance(p, SheepMoved)] == [4, 5, 0]


def test_blue_modifiers_only_where_they_change_the_run() -> None:
    """Notes: a bonus is offered "only when it would change something". A blue whose run
    is one extra fence (pen 1 to meadow 3, on to pen 2 where b(6) waits) loses nothing to
    "stops jumping after crossing only one fence", so that is not asked, while "move it by
    a single area" would keep it in meadow 3 and is. A lone blue does not run: nothing is
    asked, nor for a blue landing beside another blue (b(7) in meadow 3)."""
    one_step = empty_areas(6)
    one_step[2], one_step[4] = [b(5)], [b(6)]
    state, events = _first_icon((y(1),), BLUE, one_step)
    assert state.phase != PH_BLUE_MOD
    assert SheepMoved(BLUE_RUN, b(5), 3, 4, 4) in events
    state, _ = _first_icon((y(2),), BLUE, [list(area) for area in one_step])
    assert state.phase == PH_BLUE_MOD
    assert state.legal_actions() == (Decline(), UseBonus(BLUE_SINGLE_STEP))
    lone = empty_areas(6)
    lone[2] = [b(5)]
    beside = empty_areas(6)
    beside[2], beside[3] = [b(5)], [b(7)]
    for top in (y(1), y(2)):
        for areas in (lone, beside):
            state, events = _first_icon((top,), BLUE, [list(area) for area in areas])
            assert state.phase != PH_BLUE_MOD
            assert not any(isinstance(p, SheepMoved) and p.cause == BLUE_RUN for p in events)


def test_a_blue_modifier_serves_one_blue_jump_per_turn() -> None:
    """Rulebook: "Each bonus action may only be used once per round." Fence card 8 as
    printed makes a blue jump from pen 1 into meadow 3 (icon 0) and a blue jump back
    (icon 2). The first jump uses "move it by a single area"; the jump back would run on
    to pen 0 (b(6)) too, and it does, without the bonus being offered again."""
    assert EFFECTIVE[8][UP][0] == (BLUE, LEFT) and EFFECTIVE[8][UP][2] == (BLUE, RIGHT)
    state = _build((y(2),), _blue_run_areas(), hand=8)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.phase == PH_BLUE_MOD
    events = payloads(state.apply(UseBonus(BLUE_SINGLE_STEP)))
    assert IconJump(3, 2, BLUE, 3, 2, b(5)) in events
    back = events.index(IconJump(3, 2, BLUE, 3, 2, b(5)))
    assert events[back + 1 : back + 3] == [
        SheepMoved(BLUE_RUN, b(5), 2, 1, 2),
        SheepMoved(BLUE_RUN, b(5), 1, 0, 1),
    ]
    assert state.phase != PH_BLUE_MOD


def test_yellow_takes_two_is_not_asked_with_one_sheep_to_take() -> None:
    """Notes: a bonus is offered "only when it would change something": a yellow leaving
    a single other sheep behind takes it, with or without "it takes 2 sheep with it"."""
    areas = empty_areas(6)
    areas[2] = [y(5), w(10)]
    state, events = _first_icon((y(0),), YELLOW, areas)
    assert state.phase != PH_TAKES_TWO
    assert SheepMoved(YELLOW_COMPANION, w(10), 2, 3, 3) in events


def test_bonuses_reset_each_turn_and_belong_to_the_player_to_move() -> None:
    areas = empty_areas(6)
    areas[3] = [w(10)]  # the placed card 20 makes it jump
    state = _build((r(1),), areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    events = until_next_turn(state.apply(UseBonus(ACTIVATE_TWICE, fence=3)))
    assert BonusUsed(0, ACTIVATE_TWICE, 3) in events
    assert state.current == 1 and state.used == 0  # seat 1 has no score piles: no bonus
    assert not any(isinstance(a, UseBonus) for a in state.legal_actions())
    while not (state.current == 0 and state.phase == PH_PLACE):
        state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])  # place; seat 0's red bonus is back
    assert state.phase == PH_BETWEEN
    assert any(isinstance(a, UseBonus) and a.bonus == ACTIVATE_TWICE for a in state.legal_actions())
