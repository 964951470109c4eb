"""Rulebook sentences an audit found without a scenario that pins them.

Each test sets up the situation the sentence speaks of and checks its outcome
where a plausible misreading would give another one. Three players (see
`helpers.frame3`): seat 0 owns fences 0 (right) and 1 (left) and pen 0; fence 3
lies between pen 1 (area 2) and meadow 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.stubborn_sheep.actions import (
    Bump,
    Continue,
    MoveSheep,
    PickSheep,
    PlaceFence,
    Score,
    StopScoring,
    UseBonus,
)
from games.stubborn_sheep.data import (
    ACTIVATE_EXTRA,
    ACTIVATE_TWICE,
    ALL_MEADOWS_TO_FIVE,
    BLUE,
    BLUE_STOPS_AFTER_ONE,
    DOWN,
    EFFECTIVE,
    FENCES,
    LEFT,
    MEADOW_TO_SIX,
    MOVE_BLUE,
    PEN_PLUS_ONE,
    RED,
    RIGHT,
    ROTATE_FENCE,
    SHEEP_BONUS,
    UP,
    WHITE,
    YELLOW,
    YELLOW_TAKES_TWO,
)
from games.stubborn_sheep.events import (
    BLUE_RUN,
    BONUS_MOVE,
    RED_BUMP,
    YELLOW_COMPANION,
    BonusUsed,
    FenceActivated,
    FenceDrawn,
    GameOver,
    IconJump,
    SheepMoved,
    SheepPlaced,
    SheepReshuffled,
    WolfMoved,
)
from games.stubborn_sheep.state import (
    PH_BETWEEN,
    PH_BLUE,
    PH_BLUE_MOD,
    PH_BUMP,
    PH_COMPANION,
    PH_JUMPER,
    PH_PLACE,
    PH_SCORE,
    PH_TAKES_TWO,
    StubbornSheepState,
)

from .helpers import b, empty_areas, find_fence, frame3, payloads, pick, r, w, where, y

# ------------------------------------------------------------------ restock


def test_the_pen_gap_counts_colours_of_the_most_colourful_player_not_the_most_sheep() -> None:
    """Rulebook 1b: "Look at the sheep scored by the player who has scored the greatest
    number of different colours. Count how many more colours that player has than you."
    Seat 1 has scored the most sheep (6, all blue: 1 colour), seat 2 the most colours
    (blue and red: 2); seat 0 has 1 colour, so its pen is filled to 2 - 1 = 1 sheep.
    Following the player with most sheep would give 1 - 1 = 0."""
    scored = [
        [[b(0)], [], [], []],
        [[b(1), b(2), b(3), b(4), b(5), b(6)], [], [], []],
        [[b(7)], [r(0)], [], []],
    ]
    state = StubbornSheepState.from_position(3, areas=empty_areas(6), scored=scored, start="turn")
    assert state.phase == PH_PLACE
    assert len(state.areas[0]) == 1
    assert [len(state.areas[pen]) for pen in (2, 4)] == [0, 0]  # other pens: never


def test_the_most_colourful_player_restocks_nothing_into_their_own_pen() -> None:
    """Rulebook 1b: "Count how many more colours that player has than you" and fill your
    pen to that count. Seat 0 has scored three colours, more than anyone: the count is
    0, so its empty pen stays empty (not filled to its own three colours)."""
    scored = [[[b(0)], [r(0)], [y(0)], []], [[b(1)], [], [], []], [[], [], [], []]]
    state = StubbornSheepState.from_position(3, areas=empty_areas(6), scored=scored, start="turn")
    assert state.phase == PH_PLACE
    assert state.areas[0] == []


def test_a_meadow_holding_more_than_four_keeps_every_sheep() -> None:
    """Rulebook 1a: "if there are fewer than 4 sheep in a meadow, add sheep from the draw
    pile until there are 4." Restocking only adds: meadow 1 holds 6 sheep (the red
    bumps and blue runs of earlier turns can crowd a meadow) and keeps all 6, in their
    order; meadow 3 (2 sheep) is filled to 4 and meadow 5 (4) gets nothing."""
    areas = empty_areas(6)
    areas[1] = [w(0), w(1), w(2), w(3), w(4), w(5)]
    areas[3] = [w(6), w(7)]
    areas[5] = [w(8), w(9), w(10), w(11)]
    state = StubbornSheepState.from_position(3, areas=areas, start="turn")
    assert state.phase == PH_PLACE
    assert state.areas[1] == [w(0), w(1), w(2), w(3), w(4), w(5)]
    assert len(state.areas[3]) == 4 and state.areas[3][:2] == [w(6), w(7)]
    assert state.areas[5] == [w(8), w(9), w(10), w(11)]


def test_pen_plus_one_adds_a_sheep_even_when_the_pen_needed_none() -> None:
    """Rulebook, blue bonus: "Increase by 1 the number of sheep restocked in your pen."
    It counts the sheep added, not the pen's target: seat 0 (blue scored, b(0) printing
    pen_plus_one on top) is one colour behind seat 1, so its pen should hold 1; it holds
    2, the normal restock adds none, and the bonus adds 1 (0 + 1), making 3. Reading it
    as "restock the pen up to the count plus 1" would add nothing to a pen of 2."""
    scored = [[[b(0)], [], [], []], [[b(1)], [r(0)], [], []], [[], [], [], []]]
    areas = empty_areas(6)
    areas[0] = [w(0), w(1)]
    state = StubbornSheepState.from_position(
        3, areas=areas, scored=scored, bonus=True, start="turn"
    )
    assert state.phase == PH_BLUE and state.areas[0] == [w(0), w(1)]
    assert UseBonus(PEN_PLUS_ONE) in state.legal_actions()
    state.apply(UseBonus(PEN_PLUS_ONE))
    assert len(state.areas[0]) == 3 and state.areas[0][:2] == [w(0), w(1)]
    assert state.phase == PH_PLACE


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


# ------------------------------------------------------------------- jumps


def test_an_icon_moves_only_a_sheep_on_its_own_side() -> None:
    """Rulebook: "A sheep of the indicated colour jumps over the fence to the opposite
    side ... If there is no sheep of that colour, simply move on to the next sheep."
    Fence card 6 as printed shows white only on its left side (pen 1, area 2, when it
    lies on fence 3). A white in meadow 3, on the fence's right, stays where it is: the
    icon finds no white on its side, not "a white next to the fence"."""
    assert EFFECTIVE[6][UP][0] == (WHITE, LEFT)
    assert all(side == LEFT for colour, side in EFFECTIVE[6][UP] if colour == WHITE)
    areas = empty_areas(6)
    areas[3] = [w(0)]
    state = frame3(6, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=UP)))
    assert IconJump(3, 0, WHITE, 2, 3, -1) in events
    assert where(state, w(0)) == 3


def test_a_lone_blue_sheep_jumps_once() -> None:
    """Rulebook: "If the blue sheep starts its movement in the only area where blue sheep
    are present, do not apply this ability." With no other blue sheep on the table at
    all, the blue that jumps over fence 3 stays in meadow 3 instead of running on round
    the circle looking for one."""
    card, orientation = find_fence(lambda e: e[0] == (BLUE, LEFT))
    areas = empty_areas(6)
    areas[2] = [b(0), w(0)]
    state = frame3(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=orientation)))
    index = events.index(IconJump(3, 0, BLUE, 2, 3, b(0)))
    assert not any(isinstance(p, SheepMoved) and p.cause == BLUE_RUN for p in events)
    assert not isinstance(events[index + 1], SheepMoved)


# ----------------------------------------------------------------- scoring


def test_a_newly_scored_sheep_lies_on_top_of_its_pile_and_gives_the_bonus() -> None:
    """Rulebook: "Place each newly scored sheep on top of its pile" and "You may only use
    the bonus action of the card at the top of each colour pile." Solo: the blue pile
    holds b(0) (pen_plus_one); scoring b(1) (meadow_to_six) puts it on top, so at the
    next restock the blue bonus offered is meadow_to_six, not pen_plus_one."""
    areas = empty_areas(4)
    areas[0] = [b(1), b(4), b(7)]
    scored = [[[b(0)], [], [], []]]
    state = StubbornSheepState.from_position(
        1, areas=areas, scored=scored, bonus=True, start="score"
    )
    state.apply(Score(BLUE, (b(1),), (b(4), b(7))))
    assert state.scored[0][BLUE] == [b(0), b(1)]
    assert state.phase == PH_BLUE and state.current == 0
    offered = {a.bonus for a in state.legal_actions() if isinstance(a, UseBonus)}
    assert offered == {MEADOW_TO_SIX}


# ------------------------------------------------- abilities do not chain


def test_a_yellow_taken_along_by_a_yellow_takes_nobody() -> None:
    """Rulebook: "Sheep moved by the ability of another sheep do not activate their own
    ability." Fence card 3 as printed makes a yellow jump from pen 1 into meadow 3 first;
    its later icons (red left, white right, red right) move nobody here. The yellow y(0)
    takes the yellow y(1) along; y(1) would take the white w(0), the only sheep left
    behind, if it used its own ability."""
    card, orientation = find_fence(lambda e: e[0] == (YELLOW, LEFT))
    assert (card, orientation) == (3, UP)
    areas = empty_areas(6)
    areas[2] = [y(0), y(1), w(0)]
    state = frame3(card, areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.phase == PH_JUMPER
    state.apply(PickSheep(y(0)))
    assert state.phase == PH_COMPANION
    events = payloads(state.apply(PickSheep(y(1))))
    assert events[0] == SheepMoved(YELLOW_COMPANION, y(1), 2, 3, 3)
    assert isinstance(events[1], IconJump) and events[1].icon == 1
    assert (where(state, y(0)), where(state, y(1)), where(state, w(0))) == (3, 3, 2)


def test_the_rulebook_s_example_a_red_taken_along_by_a_yellow_headbutts_nobody() -> None:
    """Rulebook: "Sheep moved by the ability of another sheep do not activate their own
    ability. For example, if a yellow sheep takes a red sheep with it, the red sheep
    does not headbutt another sheep." Fence card 17 as printed makes a yellow jump
    from pen 1 into meadow 3 first; its other icons are blue, and no blue is on the
    table. The yellow y(0) takes the red r(0), the only sheep left behind, into meadow
    3, where the white w(0) waits: nobody is headbutted, no bump is asked for, and
    the turn (seat 0's own fences and pen 0 are empty) passes to seat 1."""
    card, orientation = find_fence(
        lambda e: e[0] == (YELLOW, LEFT) and all(c == BLUE for c, _ in e[1:])
    )
    assert (card, orientation) == (17, UP)
    areas = empty_areas(6)
    areas[2] = [y(0), r(0)]
    areas[3] = [w(0)]
    state = frame3(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=UP)))
    assert IconJump(3, 0, YELLOW, 2, 3, y(0)) in events
    assert SheepMoved(YELLOW_COMPANION, r(0), 2, 3, 3) in events
    assert not any(isinstance(p, SheepMoved) and p.cause == RED_BUMP for p in events)
    assert state.current == 1 and state.phase != PH_BUMP
    assert (where(state, y(0)), where(state, r(0)), where(state, w(0))) == (3, 3, 3)


def test_a_red_headbutted_by_a_red_headbutts_nobody() -> None:
    """Rulebook: "Sheep moved by the ability of another sheep do not activate their own
    ability." Fence card 2 turned makes a red jump from pen 1 into meadow 3 first (its
    later icons, white and blue from the right and yellow from the left, move nobody
    here). The red r(0) sends the red r(1) clockwise into pen 2, where the white w(1)
    waits: r(1) does not headbutt it, and the turn goes on to the next player."""
    card, orientation = find_fence(lambda e: e[0] == (RED, LEFT))
    assert (card, orientation) == (2, DOWN)
    areas = empty_areas(6)
    areas[2] = [r(0)]
    areas[3] = [r(1)]
    areas[4] = [w(1)]
    state = frame3(card, areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=DOWN))
    assert state.phase == PH_BUMP
    assert set(state.legal_actions()) == {Bump(r(1), False), Bump(r(1), True)}
    events = payloads(state.apply(Bump(r(1), True)))
    assert events[0] == SheepMoved(RED_BUMP, r(1), 3, 4, 4)
    assert not any(isinstance(p, SheepMoved) and p.card == w(1) for p in events)
    assert state.current == 1 and state.phase == PH_PLACE
    assert (where(state, r(1)), where(state, w(1))) == (4, 4)


def test_a_yellow_headbutted_by_a_red_takes_nobody() -> None:
    """Rulebook: "Sheep moved by the ability of another sheep do not activate their own
    ability." Fence card 2 turned makes a red jump from pen 1 into meadow 3 first. The
    red r(0) sends the yellow y(0) clockwise into pen 2; y(0) does not take the red r(1)
    it leaves behind in meadow 3 (no later icon of the card moves a red from there)."""
    card, orientation = find_fence(lambda e: e[0] == (RED, LEFT))
    assert (card, orientation) == (2, DOWN)
    areas = empty_areas(6)
    areas[2] = [r(0)]
    areas[3] = [y(0), r(1)]
    state = frame3(card, areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=DOWN))
    assert state.phase == PH_BUMP
    events = payloads(state.apply(Bump(y(0), True)))
    assert events[0] == SheepMoved(RED_BUMP, y(0), 3, 4, 4)
    assert not any(isinstance(p, SheepMoved) and p.card == r(1) for p in events)
    assert state.phase != PH_COMPANION
    assert (where(state, y(0)), where(state, r(1))) == (4, 3)


def test_a_blue_moved_by_the_white_bonus_does_not_run() -> None:
    """Rulebook, white bonus: "Move a sheep of the indicated colour over one or two
    fences ... Its special ability does not activate." The blue b(0) moved from meadow 3
    into pen 2 stays there, although another blue, b(1), waits in pen 0 further
    clockwise (a blue that used its ability would run on to it)."""
    assert SHEEP_BONUS[w(0)] == MOVE_BLUE
    areas = empty_areas(6)
    areas[3] = [b(0)]
    areas[0] = [b(1)]
    scored = [[[], [], [], [w(0)]], [[], [], [], []], [[], [], [], []]]
    state = frame3(20, areas, scored=scored, bonus=True)
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    assert state.phase == PH_BETWEEN
    events = payloads(state.apply(MoveSheep(b(0), True, 1)))
    moves = [p for p in events if isinstance(p, SheepMoved) and p.card == b(0)]
    assert moves == [SheepMoved(BONUS_MOVE, b(0), 3, 4, 4)]
    assert where(state, b(0)) == 4


def test_a_sheep_may_jump_again_at_a_later_icon_of_the_same_fence() -> None:
    """Rulebook: "For each sheep shown on the Fence card: A sheep of the indicated colour
    jumps over the fence to the opposite side." Nothing spares a sheep that already
    jumped: fence card 12 as printed shows a red from the left, then a red from the
    right; the lone red r(0) jumps from pen 1 into meadow 3, then back."""
    assert EFFECTIVE[12][UP][:2] == ((RED, LEFT), (RED, RIGHT))
    areas = empty_areas(6)
    areas[2] = [r(0)]
    state = frame3(12, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=UP)))
    jumps = [p for p in events if isinstance(p, IconJump) and p.fence == 3]
    assert jumps[:2] == [IconJump(3, 0, RED, 2, 3, r(0)), IconJump(3, 1, RED, 3, 2, r(0))]
    assert where(state, r(0)) == 2


# ---------------------------------------------------------- restock order


def test_the_meadows_are_restocked_before_the_pen() -> None:
    """Rulebook, restock: "a. Meadows ... b. Your pen". With one sheep left to draw (and an
    empty discard pile), it goes to the meadow short of 4, not to seat 0's pen although
    seat 0 is one colour behind seat 1 (its pen should hold 1)."""
    last = w(20)
    scored = [[[], [], [], []], [[b(1)], [], [], []], [[], [], [], []]]
    areas = empty_areas(6)
    areas[1] = [w(0), w(1), w(2), w(3)]
    areas[3] = [w(4), w(5), w(6), w(7)]
    areas[5] = [w(8), w(9), w(10)]
    named = {card for area in areas for card in area} | {b(1), last}
    areas[4] = [card for card in range(78) if card not in named]
    state = StubbornSheepState.from_position(
        3, areas=areas, scored=scored, sheep_pile=[last], start="turn"
    )
    assert state.areas[5] == [w(8), w(9), w(10), last]
    assert state.areas[0] == []
    assert state.sheep_pile == [] and state.discard == []


def test_scarce_sheep_restock_the_meadows_lowest_area_first_whoever_plays() -> None:
    """Rulebook, restock: "if there are fewer than 4 sheep in a meadow, add sheep"; it
    names no order among the meadows, which matters only when the sheep run out. The
    guide's: one after another, lowest area number first, whoever's turn it is. Seat 1
    plays (its pen is area 2, its left meadow 3) with 5 sheep left to draw and none
    discarded: meadow 1 gets 4, meadow 3 the last one, meadow 5 none."""
    pile = [w(0), w(1), w(2), w(3), w(4)]
    areas = empty_areas(6)
    areas[4] = [card for card in range(78) if card not in pile]  # seat 2 hoards the rest
    state = StubbornSheepState.from_position(
        3, areas=areas, sheep_pile=pile, current=1, hands=[[30], [31], [32]], start="turn"
    )
    assert state.areas[1] == [w(4), w(3), w(2), w(1)]
    assert state.areas[3] == [w(0)] and state.areas[5] == []
    assert state.sheep_pile == [] and state.discard == []


def test_the_blue_restock_bonus_comes_after_the_normal_restock() -> None:
    """Rulebook, blue bonus: "Use this bonus action during the restock step of your
    round", and the wolf variant calls it "the additional restock granted by the bonus
    action of the blue sheep". The normal restock comes first and the bonus works with
    what is left: with one sheep left to draw it goes to meadow 5 (3 sheep, short of 4),
    and then no sheep is left for `meadow_to_six` (b(1) on top), so it is not offered.
    With two left, meadow 5 gets one and the bonus may bring meadow 1 from 4 to 5."""
    scored: list[list[list[int]]] = [[[b(1)], [], [], []], [[], [], [], []], [[], [], [], []]]
    for left in (1, 2):
        areas = empty_areas(6)
        areas[1] = [w(0), w(1), w(2), w(3)]
        areas[3] = [w(4), w(5), w(6), w(7)]
        areas[5] = [w(8), w(9), w(10)]
        pile = [w(20), w(21)][:left]
        named = {card for area in areas for card in area} | {b(1), *pile}
        areas[4] = [card for card in range(78) if card not in named]
        state = StubbornSheepState.from_position(
            3, areas=areas, scored=scored, sheep_pile=pile, bonus=True, start="turn"
        )
        assert state.areas[5] == [w(8), w(9), w(10), pile[-1]]
        if left == 1:
            assert state.phase == PH_PLACE
            continue
        assert state.phase == PH_BLUE
        assert UseBonus(MEADOW_TO_SIX, area=1) in state.legal_actions()
        state.apply(UseBonus(MEADOW_TO_SIX, area=1))
        assert state.areas[1] == [w(0), w(1), w(2), w(3), pile[0]]
        assert state.phase == PH_PLACE


def test_all_meadows_to_five_with_two_players_fills_the_four_meadows_but_the_wolf_s() -> None:
    """Rulebook, 2-player setup: a fence in the middle of each meadow "creates 2 meadows
    between the players on each side"; blue bonus: "Restock all meadows up to 5 sheep
    instead of the usual 4"; wolf: "This rule also applies to the additional restock".
    Meadows 1, 2 and 4 go to 4 and then to 5; the wolf's meadow 5 stays empty."""
    scored: list[list[list[int]]] = [[[b(2)], [], [], []], [[], [], [], []]]
    state = StubbornSheepState.from_position(
        2, areas=empty_areas(6), scored=scored, bonus=True, wolf=5, start="turn"
    )
    assert state.phase == PH_BLUE and [len(a) for a in state.areas] == [0, 4, 4, 0, 4, 0]
    assert state.legal_actions()[1:] == (UseBonus(ALL_MEADOWS_TO_FIVE),)
    state.apply(UseBonus(ALL_MEADOWS_TO_FIVE))
    assert [len(a) for a in state.areas] == [0, 5, 5, 0, 5, 0]
    assert state.phase == PH_PLACE


# ------------------------------------------------------------------ scoring


def test_a_white_move_after_the_last_activation_comes_before_scoring() -> None:
    """Rulebook, step 3: "After all activations (and any additional actions): If your pen
    contains 3 or 4 sheep of the same colour, you may score them." Pen 0 holds two reds
    and no fence shows a red icon; after the last activation the white bonus (w(1),
    `move_red`) brings the red of pen 2 (area 4) over fences 5 and 0 into pen 0, and
    the three reds may then be scored in the same turn."""
    no_red = [c for c in range(35) if all(colour != RED for colour, _ in EFFECTIVE[c][UP])]
    hand, fence0, fence1 = no_red[:3]
    rest = [c for c in range(35) if c not in (hand, fence0, fence1)]
    areas = empty_areas(6)
    areas[0] = [r(0), r(1)]
    areas[4] = [r(2)]
    scored = [[[], [], [], [w(1)]], [[], [], [], []], [[], [], [], []]]
    state = frame3(
        hand,
        areas,
        fences=[fence0, fence1, *rest[:4]],
        hands=[[hand], [rest[4]], [rest[5]]],
        scored=scored,
        bonus=True,
    )
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    for _ in range(3):  # before fences 3, 1 and 0
        assert state.phase == PH_BETWEEN and state.queue
        state.apply(Continue())
    assert state.phase == PH_BETWEEN and state.queue == [] and state.areas[0] == [r(0), r(1)]
    state.apply(MoveSheep(r(2), True, 2))
    assert state.areas[0] == [r(0), r(1), r(2)]
    assert state.phase == PH_SCORE and state.current == 0
    assert {a.colour for a in state.legal_actions() if isinstance(a, Score)} == {RED}


# --------------------------------------------------------------------- wolf


def test_the_wolf_stays_when_every_meadow_is_empty() -> None:
    """Rulebook, wolf: "If the wolf is already in the meadow containing the most sheep, it
    does not move. In that meadow, discard two sheep of the most represented colour."
    Every meadow empty at the end of seat 0's turn: the wolf's own meadow 1 is among
    those with the most (none), so it stays, and there is nothing to discard; seat 1's
    restock then fills the other meadows and leaves the wolf's empty."""
    areas = empty_areas(6)
    areas[0] = [r(0), r(1), r(2)]
    state = frame3(20, areas, start="score", wolf=1)
    events = payloads(state.apply(StopScoring()))
    assert [p for p in events if isinstance(p, WolfMoved)] == [WolfMoved(1, 1, ())]
    assert state.wolf == 1 and state.current == 1
    assert [len(state.areas[m]) for m in (1, 3, 5)] == [0, 4, 4]


def test_the_wolf_discards_the_only_sheep_of_the_most_represented_colour() -> None:
    """Rulebook, wolf: "In that meadow, discard two sheep of the most represented
    colour." When the meadow the wolf goes to holds one sheep, its colour is the most
    represented with one sheep, and the wolf discards that one (it asks no second
    sheep of another colour). At the end of seat 0's turn meadow 3 holds a lone blue
    and meadows 1 and 5 are empty: the wolf moves from 5 to 3 and discards the blue."""
    areas = empty_areas(6)
    areas[0] = [r(0), r(1), r(2)]
    areas[3] = [b(0)]
    state = frame3(20, areas, start="score", wolf=5)
    events = payloads(state.apply(StopScoring()))
    assert [p for p in events if isinstance(p, WolfMoved)] == [WolfMoved(5, 3, (b(0),))]
    assert state.wolf == 3 and b(0) in state.discard


# ------------------------------------------------------------ sequences in one turn


def test_all_meadows_to_five_is_not_offered_when_only_the_wolf_s_meadow_is_short() -> None:
    """Rulebook, blue bonus: "Restock all meadows up to 5 sheep"; wolf: "add no sheep to
    the meadow where the wolf is located. This rule also applies to the additional
    restock granted by the bonus action of the blue sheep." Meadows 1 and 3 hold 5,
    the wolf's meadow 5 holds 2: the bonus would add nothing, so it is not offered.
    With the wolf in meadow 1 instead, meadow 5 would take 3 and the bonus is offered."""
    areas = empty_areas(6)
    areas[1] = [w(0), w(1), w(2), w(3), w(4)]
    areas[3] = [w(5), w(6), w(7), w(8), w(9)]
    areas[5] = [w(10), w(11)]
    scored = [[[b(2)], [], [], []], [[b(3)], [], [], []], [[b(4)], [], [], []]]
    state = StubbornSheepState.from_position(3, areas=areas, scored=scored, wolf=5, bonus=True)
    assert state.phase == PH_PLACE and len(state.areas[5]) == 2
    state = StubbornSheepState.from_position(3, areas=areas, scored=scored, wolf=1, bonus=True)
    assert state.phase == PH_BLUE and UseBonus(ALL_MEADOWS_TO_FIVE) in state.legal_actions()


def test_pen_plus_one_with_the_sheep_pile_empty_reshuffles_the_discard_pile() -> None:
    """Rulebook: "If the Sheep draw pile is exhausted, shuffle the discard pile to form a
    new draw pile", for the blue bonus's extra sheep too: with the meadows full, no pen
    gap and an empty sheep pile, `PEN_PLUS_ONE` is still offered and its sheep comes
    from the reshuffled discard pile."""
    areas = empty_areas(6)
    areas[1] = [w(0), w(1), w(2), w(3)]
    areas[3] = [w(4), w(5), w(6), w(7)]
    areas[5] = [w(8), w(9), w(10), w(11)]
    scored = [[[b(0)], [], [], []], [[], [], [], []], [[], [], [], []]]
    state = StubbornSheepState.from_position(
        3, areas=areas, scored=scored, sheep_pile=[], bonus=True
    )
    assert state.phase == PH_BLUE and len(state.discard) == 78 - 13
    events = payloads(state.apply(UseBonus(PEN_PLUS_ONE)))
    assert events[1:3] == [SheepReshuffled(65), SheepPlaced(0, tuple(state.areas[0]), "bonus")]
    assert len(state.areas[0]) == 1 and len(state.sheep_pile) == 64


def test_a_blue_taken_along_stays_put_then_runs_when_a_later_icon_moves_it() -> None:
    """Rulebook: "Sheep moved by the ability of another sheep do not activate their own
    ability", but "When you make a ... blue sheep jump over a fence, you must
    immediately apply its ability". A yellow jumps from pen 1 into meadow 3 and takes
    the blue along (no run); a later blue icon of the same fence sends that blue back
    into pen 1, and now it runs on counter-clockwise to the other blue in pen 0."""

    def yellow_then_blue_back(icons) -> bool:
        yellows = [k for k, (c, side) in enumerate(icons) if c == YELLOW]
        blues = [k for k, (c, side) in enumerate(icons) if c == BLUE]
        return (
            len(yellows) == 1
            and len(blues) == 1
            and icons[yellows[0]][1] == LEFT
            and icons[blues[0]][1] == RIGHT
            and yellows[0] < blues[0]
        )

    card, orientation = find_fence(yellow_then_blue_back)
    icons = EFFECTIVE[card][orientation]
    k_yellow = next(k for k, (c, _) in enumerate(icons) if c == YELLOW)
    k_blue = next(k for k, (c, _) in enumerate(icons) if c == BLUE)
    areas = empty_areas(6)
    areas[2] = [y(0), b(0)]
    areas[0] = [b(1)]
    state = frame3(card, areas)
    events = payloads(state.apply(PlaceFence(fence=3, orientation=orientation, card=card)))
    moves = [p for p in events if isinstance(p, (IconJump, SheepMoved)) and p.card >= 0]
    assert moves[:5] == [
        IconJump(3, k_yellow, YELLOW, 2, 3, y(0)),
        SheepMoved(YELLOW_COMPANION, b(0), 2, 3, 3),
        IconJump(3, k_blue, BLUE, 3, 2, b(0)),
        SheepMoved(BLUE_RUN, b(0), 2, 1, 2),
        SheepMoved(BLUE_RUN, b(0), 1, 0, 1),
    ]


def test_white_stand_ins_leave_with_their_group_and_the_rest_score_as_white() -> None:
    """Rulebook: "you may use up to 2 white sheep as if they were any other colour ...
    you must discard the white sheep" and "You may also score white sheep as a colour
    in their own right"; "You may score several groups during the same round." Two
    reds and five whites: the reds score with one white standing in (discarded), and
    the four whites left then make a group of their own, which scores 2."""
    areas = empty_areas(6)
    areas[0] = [r(0), r(1), w(0), w(1), w(2), w(3), w(4)]
    state = frame3(20, areas, start="score")
    state.apply(Score(RED, (r(0),), (w(2), r(1))))
    assert sorted(state.areas[0]) == [w(0), w(1), w(3), w(4)] and state.phase == PH_SCORE
    ways = [a for a in state.legal_actions() if isinstance(a, Score)]
    assert {(a.colour, len(a.scored)) for a in ways} == {(WHITE, 2)} and len(ways) == 12
    state.apply(Score(WHITE, (w(4), w(0)), (w(1), w(3))))
    assert state.scored[0] == [[], [r(0)], [], [w(4), w(0)]]
    assert state.discard[-4:] == [w(2), r(1), w(1), w(3)] and state.current == 1


def test_the_contexts_of_the_yellow_bonus_companions_and_a_bump() -> None:
    """The guide's `context` for `YELLOW_TAKES_TWO` (from area, to area, fence),
    `COMPANION` (the same and the companions still to pick) and `BUMP` (the area, the
    red that arrived). A yellow jumps from pen 1 into meadow 3 with a red and two
    whites behind it; seat 0 uses `yellow_takes_two` and picks a white, then the red,
    which, moved by an ability, bumps nobody."""
    card, orientation = find_fence(
        lambda icons: icons[0] == (YELLOW, LEFT) and all(c != RED for c, _ in icons)
    )
    areas = empty_areas(6)
    areas[2] = [y(3), r(5), w(5), w(6)]
    state = frame3(card, areas, scored=[[[], [], [y(0)], []], [[]] * 4, [[]] * 4], bonus=True)
    state.apply(PlaceFence(fence=3, orientation=orientation, card=card))
    assert state.phase == PH_TAKES_TWO and state.observation(0).context == (2, 3, 3)
    state.apply(UseBonus(YELLOW_TAKES_TWO))
    assert state.phase == PH_COMPANION and state.observation(0).context == (2, 3, 3, 2)
    state.apply(PickSheep(w(5)))
    assert state.phase == PH_COMPANION and state.observation(0).context == (2, 3, 3, 1)
    assert set(state.legal_actions()) == {PickSheep(r(5)), PickSheep(w(6))}
    events = payloads(state.apply(PickSheep(r(5))))
    assert SheepMoved(YELLOW_COMPANION, r(5), 2, 3, 3) in events
    assert not [p for p in events if isinstance(p, SheepMoved) and p.cause == RED_BUMP]

    red, orientation = find_fence(lambda icons: icons[0] == (RED, LEFT))
    areas = empty_areas(6)
    areas[2], areas[3] = [r(5)], [w(5), w(6)]
    state = frame3(red, areas)
    state.apply(PlaceFence(fence=3, orientation=orientation, card=red))
    observation = state.observation(0)
    assert state.phase == PH_BUMP and observation.context == (3, r(5))
    assert (observation.activating, observation.icon) == (3, 0)


def test_the_context_of_a_blue_modifier_is_the_blue_its_area_and_its_whole_run() -> None:
    """The guide's `BLUE_MODIFIER` context: the blue sheep, its area, then a (fence,
    area) pair for each step of its full run. A blue jumps from pen 1 into meadow 3;
    the next other blue is in pen 0, so its run crosses fences 4, 5 and 0; with
    `blue_stops_after_one` it crosses fence 4 only."""
    card, orientation = find_fence(
        lambda icons: icons[0] == (BLUE, LEFT) and all(c != BLUE for c, _ in icons[1:])
    )
    areas = empty_areas(6)
    areas[2], areas[0] = [b(5)], [b(6)]
    scored = [[[], [], [y(1)], []], [[]] * 4, [[]] * 4]
    state = frame3(card, areas, scored=scored, bonus=True)
    state.apply(PlaceFence(fence=3, orientation=orientation, card=card))
    assert state.phase == PH_BLUE_MOD
    assert state.observation(0).context == (b(5), 3, 4, 4, 5, 5, 0, 0)
    events = payloads(state.apply(UseBonus(BLUE_STOPS_AFTER_ONE)))
    moved = [p for p in events if isinstance(p, (SheepMoved, IconJump)) and p.card == b(5)]
    assert moved == [SheepMoved(BLUE_RUN, b(5), 3, 4, 4)]


# ------------------------------------------------------------ the last turn


def test_the_game_ends_on_a_bump_when_nothing_is_left_to_decide() -> None:
    """Rulebook: "Each player plays one last turn (without drawing a new Fence card),
    then the game ends." Seat 2 plays the game's last turn; its fence makes a red jump
    from pen 0 into meadow 1 beside a lone white, and the bump is the last decision:
    the same call runs the rest of the turn (no draw, nothing to score) and ends the
    game, with every seat's score."""
    card, orientation = find_fence(
        lambda icons: icons[0] == (RED, LEFT) and all(c != RED for c, _ in icons[1:])
    )
    areas = empty_areas(6)
    areas[0], areas[1] = [r(0)], [w(0)]
    others = [c for c in range(35) if c != card]
    state = StubbornSheepState.from_position(
        3,
        areas=areas,
        fences=others[:6],
        hands=[[], [], [card]],
        scored=[[[b(0)], [], [], []], [[], [], [], []], [[], [], [], []]],
        current=2,
        final_left=1,
        turn=5,
        start="place",
    )
    state.apply(PlaceFence(fence=1, orientation=orientation, card=card))
    assert state.phase == PH_BUMP and set(state.legal_actions()) == {
        Bump(w(0), True),
        Bump(w(0), False),
    }
    events = payloads(state.apply(Bump(w(0), True)))
    assert state.terminal and events[-1] == GameOver((1, 0, 0))
    assert not [p for p in events if isinstance(p, FenceDrawn)]
    assert state.result().ranks == (1, 2, 2)


def test_the_game_ends_on_a_white_move_after_the_last_fence_is_activated_twice() -> None:
    """Rulebook, red bonus: "Activate a fence twice in a row"; white bonus: "immediately
    before or after activating a fence". In the game's last turn seat 0 activates its
    last fence (1) a second time, right after the first, then moves a red over two
    fences after that second activation: the white move is the game's last action. Two
    whites wait in pen 0, so that each activation of fence 1 has one to move (a second
    activation that would move nothing is not offered)."""
    areas = empty_areas(6)
    areas[3] = [r(9)]
    areas[0] = [w(10), w(11)]
    scored = [[[], [r(1)], [], [w(1)]], [[]] * 4, [[]] * 4]
    state = frame3(30, areas, scored=scored, bonus=True, final_left=1, turn=6, hands=[[30], [], []])
    events = payloads(state.apply(PlaceFence(fence=0, orientation=UP, card=30)))
    while state.queue or state.activating != 1 or state.phase != PH_BETWEEN:
        step = next(a for a in state.legal_actions() if isinstance(a, (Continue, PickSheep)))
        events += payloads(state.apply(step))
    events += payloads(state.apply(pick(state, UseBonus, fence=1)))
    assert state.phase == PH_BETWEEN and state.queue == [1]
    events += payloads(state.apply(Continue()))
    assert state.phase == PH_BETWEEN and state.queue == []
    assert {a.card for a in state.legal_actions() if isinstance(a, MoveSheep)} == {r(9)}
    events += payloads(state.apply(MoveSheep(r(9), True, 2)))
    assert [p.fence for p in events if isinstance(p, FenceActivated)] == [0, 1, 1]
    assert events[-3:-1] == [
        SheepMoved(BONUS_MOVE, r(9), 3, 4, 4),
        SheepMoved(BONUS_MOVE, r(9), 4, 5, 5),
    ]
    assert state.terminal and events[-1] == GameOver((2, 0, 0))


def test_three_of_five_players_tied_on_sheep_and_sets_share_the_win() -> None:
    """Rulebook: "In case of a tie, the winner is the player with the greatest number of
    complete sets ... If the tie persists, the tied players share the victory." Seats
    0, 2 and 3 have 4 sheep and 1 set each: all three win, ahead of seat 1 (4 sheep, no
    set) and seat 4 (2 sheep)."""
    one_set = [[[b(i)], [r(i)], [y(i)], [w(i)]] for i in range(3)]
    no_set, two = [[b(3), b(4)], [r(3)], [y(3)], []], [[b(5)], [], [], [w(5)]]
    scored = [one_set[0], no_set, one_set[1], one_set[2], two]
    state = StubbornSheepState.from_position(
        5, areas=empty_areas(10), scored=scored, current=4, final_left=1, turn=24, start="score"
    )
    assert state.terminal
    result = state.result()
    assert result.ranks == (1, 4, 1, 1, 5) and result.winners == (0, 2, 3)
