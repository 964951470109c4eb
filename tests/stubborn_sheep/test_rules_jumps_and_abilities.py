"""Rulebook sentences of a fence's activation (which sheep jump, and the abilities
they do or do not set off) an audit found without a scenario that pins them.

Each test sets up the situation the sentence speaks of and checks its outcome
where a plausible misreading would give another one. Three players (see
`helpers.frame3`): seat 0 owns fences 0 (right) and 1 (left) and pen 0; fence 3
lies between pen 1 (area 2) and meadow 3.
"""

from __future__ import annotations

from games.stubborn_sheep.actions import Bump, MoveSheep, PickSheep, PlaceFence, UseBonus
from games.stubborn_sheep.data import (
    BLUE,
    BLUE_STOPS_AFTER_ONE,
    DOWN,
    EFFECTIVE,
    LEFT,
    MOVE_BLUE,
    RED,
    RIGHT,
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
    IconJump,
    SheepMoved,
)
from games.stubborn_sheep.state import (
    PH_BETWEEN,
    PH_BLUE_MOD,
    PH_BUMP,
    PH_COMPANION,
    PH_JUMPER,
    PH_PLACE,
    PH_TAKES_TWO,
)

from .helpers import b, empty_areas, find_fence, frame3, payloads, pick, r, w, where, y

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


def test_a_blue_leaving_the_only_area_with_blues_jumps_once_though_a_blue_stays_behind() -> None:
    """Rulebook: "If the blue sheep starts its movement in the only area where blue sheep
    are present, do not apply this ability": what counts is where the blues are, not
    whether there is another. Two blues in pen 1 (area 2), none anywhere else: the one
    that jumps over fence 3 stays in meadow 3. Reading "another blue on the table" would
    run it on clockwise round the whole circle, back into the pen it left."""
    card, orientation = find_fence(
        lambda e: e[0] == (BLUE, LEFT) and [c for c, _ in e].count(BLUE) == 1
    )
    areas = empty_areas(6)
    areas[2] = [b(0), b(1)]
    state = frame3(card, areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=orientation))
    events = payloads(state.apply(PickSheep(b(0))))
    assert events[0] == IconJump(3, 0, BLUE, 2, 3, b(0))
    assert not any(isinstance(p, SheepMoved) and p.cause == BLUE_RUN for p in events)
    assert where(state, b(0)) == 3 and where(state, b(1)) == 2


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
