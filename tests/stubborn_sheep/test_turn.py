"""One turn: restock, build and activate fences, jumps and the sheep abilities.

The scenarios use 3 players (see `helpers.frame3` for the circle): seat 0 owns
fences 0 and 1 and pen 0 (area 0); fence 3 lies between pen 1 (area 2) and
meadow 3.
"""

from __future__ import annotations

from games.stubborn_sheep.actions import Bump, PickSheep, PlaceFence
from games.stubborn_sheep.data import BLUE, DOWN, EFFECTIVE, LEFT, RED, RIGHT, UP, WHITE, YELLOW
from games.stubborn_sheep.events import (
    BLUE_RUN,
    RED_BUMP,
    YELLOW_COMPANION,
    FenceActivated,
    FencePlaced,
    IconJump,
    SheepMoved,
    SheepReshuffled,
    TurnStarted,
)
from games.stubborn_sheep.state import PH_BUMP, PH_COMPANION, PH_JUMPER, StubbornSheepState

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

# ------------------------------------------------------------------ restock


def test_restock_meadows_to_four_and_the_pen_to_the_colour_gap() -> None:
    """Rulebook 1a/1b and its example "restock your pen up to 2 sheep": the opponent who
    scored the most colours has 3, you have 1, so your pen is filled to 2. Meadows to 4;
    "Do not restock the pens of other players"."""
    areas = empty_areas(6)
    areas[1] = [w(0), w(1)]
    areas[3] = [w(2), w(3), w(4), w(5)]
    scored = [[[b(0)], [], [], []], [[b(1)], [r(0)], [y(0)], []], [[], [], [], []]]
    state = StubbornSheepState.from_position(3, areas=areas, scored=scored, start="turn")
    assert [len(a) for a in state.areas] == [2, 4, 0, 4, 0, 4]


def test_pen_already_at_the_gap_gets_nothing() -> None:
    areas = empty_areas(6)
    areas[0] = [w(0), w(1), w(2)]
    for k, meadow in enumerate((1, 3, 5)):
        areas[meadow] = [w(3 + 4 * k + i) for i in range(4)]
    scored = [[[], [], [], []], [[b(1)], [r(0)], [], []], [[], [], [], []]]
    state = StubbornSheepState.from_position(3, areas=areas, scored=scored, start="turn")
    assert len(state.areas[0]) == 3


def test_exhausted_sheep_pile_reshuffles_the_discard_pile() -> None:
    """Rulebook: "If the Sheep draw pile is exhausted, shuffle the discard pile to form a
    new draw pile"."""
    areas = empty_areas(6)
    state = StubbornSheepState.from_position(3, areas=areas, sheep_pile=[w(0), w(1)], start="turn")
    assert sum(len(a) for a in state.areas) == 12
    assert state.discard == [] and len(state.sheep_pile) == 66


def test_the_discard_pile_is_shuffled_before_it_is_drawn_from() -> None:
    """Rulebook: "shuffle the discard pile to form a new draw pile": the sheep a restock
    draws after the reshuffle depends on the shuffle (the game's seed), not on the order
    the sheep were discarded in. Seat 0's pen needs one sheep (seat 1 has scored a
    colour) and the only sheep left are the five in the discard pile; over a few seeds
    the sheep drawn is not always the same one, and it is never anything but a
    discarded sheep."""
    discarded = [b(0), r(0), y(0), w(0), w(1)]
    drawn = set()
    for seed in range(12):
        rest = [card for card in range(78) if card not in (*discarded, b(1))]
        areas = empty_areas(6)
        areas[1], areas[3], areas[5], areas[4] = rest[0:4], rest[4:8], rest[8:12], rest[12:]
        state = StubbornSheepState.from_position(
            3,
            areas=areas,
            scored=[[[], [], [], []], [[b(1)], [], [], []], [[], [], [], []]],
            sheep_pile=[],
            discard=discarded,
            start="turn",
            seed=seed,
        )
        assert len(state.areas[0]) == 1
        assert len(state.discard) == 0 and len(state.sheep_pile) == 4
        drawn.add(state.areas[0][0])
    assert drawn <= set(discarded)
    assert len(drawn) > 1, drawn


def test_restock_stops_when_both_piles_are_empty() -> None:
    """Notes: if both are empty, restocking stops."""
    areas = empty_areas(6)
    areas[4] = [card for card in range(78) if card not in (w(0), w(1))]
    state = StubbornSheepState.from_position(3, areas=areas, sheep_pile=[w(0), w(1)], start="turn")
    assert [len(area) for area in state.areas] == [0, 2, 0, 0, 76, 0]
    assert state.sheep_pile == [] and state.discard == []


def test_reshuffle_event_when_the_pile_runs_out_mid_restock() -> None:
    areas = empty_areas(6)
    state = frame3(20, areas, sheep_pile=[w(0)], discard=[w(1), w(2)])
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=UP)))
    # Seat 1's restock draws w(0), then reshuffles the discard pile (the 2 named and the
    # 75 unnamed sheep the test put there).
    assert TurnStarted(1, 1, False) in events
    assert SheepReshuffled(77) in events
    assert sum(len(a) for a in state.areas) == 12


def test_solo_pen_is_never_restocked() -> None:
    """Rulebook solo: "When you restock the sheep, add no sheep to your pen"."""
    areas = empty_areas(4)
    scored = [[[b(0)], [r(0)], [], []]]
    state = StubbornSheepState.from_position(1, areas=areas, scored=scored, start="turn")
    assert [len(a) for a in state.areas] == [0, 4, 4, 4]


# ----------------------------------------------------------- build & order


def _activations(state: StubbornSheepState, fence: int, orientation: int = UP) -> list[int]:
    placed = pick(state, PlaceFence, fence=fence, orientation=orientation)
    events = until_next_turn(state.apply(placed))
    return [p.fence for p in events if isinstance(p, FenceActivated)]


def test_activation_order_after_placing_on_own_right_fence() -> None:
    """Rulebook: activate first the fence just placed; "If you placed it on one of your
    own fences, activate your other fence". Fence 0 is seat 0's right fence."""
    assert _activations(frame3(20, empty_areas(6)), 0) == [0, 1]


def test_activation_order_after_placing_on_own_left_fence() -> None:
    """Fence 1 is seat 0's left fence (towards seat 1)."""
    assert _activations(frame3(20, empty_areas(6)), 1) == [1, 0]


def test_activation_order_after_placing_on_another_fence() -> None:
    """Rulebook: "If you placed it on a fence that does not belong to you, activate both
    of your fences, starting with the one on the left, then the one on the right". Play
    passes clockwise, the next player sits on your left: seat 0's left fence is fence 1
    (towards seat 1), its right fence is fence 0 (towards seat 2)."""
    assert _activations(frame3(20, empty_areas(6)), 3) == [3, 1, 0]
    assert _activations(frame3(20, empty_areas(6)), 5) == [5, 1, 0]


def test_solo_may_place_on_any_of_the_four_fences() -> None:
    """Rulebook solo: "you may place a fence on any of the four fences"."""
    areas = empty_areas(4)
    state = StubbornSheepState.from_position(1, areas=areas, hands=[[30]], start="place")
    assert {a.fence for a in state.legal_actions()} == {0, 1, 2, 3}
    events = until_next_turn(state.apply(pick(state, PlaceFence, fence=2, orientation=UP)))
    assert [p.fence for p in events if isinstance(p, FenceActivated)] == [2, 1, 0]


def test_place_on_any_fence_in_either_orientation_covering_it() -> None:
    """Rulebook: "Play the Fence card from your hand by placing it on any fence already on
    the table. You may orient the fence as you wish"."""
    state = frame3(20, empty_areas(6))
    assert {(a.fence, a.orientation) for a in state.legal_actions()} == {
        (f, o) for f in range(6) for o in (UP, DOWN)
    }
    below = state.stacks[4][-1]
    events = state.apply(pick(state, PlaceFence, fence=4, orientation=DOWN))
    assert payloads(events)[0] == FencePlaced(0, 4, 20, DOWN)
    assert state.stacks[4] == [below, 20] and state.orient[4] == DOWN
    assert state.hands[0] == [state.hands[0][0]]  # drew a new card at the end of the turn


def test_icons_in_order_and_an_icon_without_sheep_moves_nothing() -> None:
    """Rulebook: inner row first, then outer; big before small; "If there is no sheep of
    that colour, simply move on" (the event is still logged). Turned, the outer row is
    inner and the sides swap."""
    for orientation in (UP, DOWN):
        state = frame3(20, empty_areas(6))
        placed = pick(state, PlaceFence, fence=3, orientation=orientation)
        events = until_next_turn(state.apply(placed))
        jumps = [p for p in events if isinstance(p, IconJump) and p.fence == 3]
        expected = [
            IconJump(3, k, colour, 2 if side == LEFT else 3, 3 if side == LEFT else 2, -1)
            for k, (colour, side) in enumerate(EFFECTIVE[20][orientation])
        ]
        assert jumps == expected


def test_an_icon_makes_a_sheep_jump_to_the_opposite_side() -> None:
    """Rulebook: "A sheep of the indicated colour jumps over the fence to the opposite side"."""
    card, orientation = find_fence(lambda e: e[0] == (WHITE, LEFT))
    areas = empty_areas(6)
    areas[2] = [w(0)]
    state = frame3(card, areas)
    events = until_next_turn(state.apply(pick(state, PlaceFence, fence=3, orientation=orientation)))
    assert next(p for p in events if isinstance(p, IconJump)) == IconJump(3, 0, WHITE, 2, 3, w(0))


def test_right_side_icon_jumps_counter_clockwise() -> None:
    card, orientation = find_fence(lambda e: e[0] == (WHITE, RIGHT))
    areas = empty_areas(6)
    areas[3] = [w(0)]
    state = frame3(card, areas)
    events = until_next_turn(state.apply(pick(state, PlaceFence, fence=3, orientation=orientation)))
    assert next(p for p in events if isinstance(p, IconJump)) == IconJump(3, 0, WHITE, 3, 2, w(0))


def test_active_player_chooses_which_sheep_of_the_colour_jumps() -> None:
    """Rulebook: "If there is more than one sheep of that colour, you choose which one jumps"."""
    card, orientation = find_fence(lambda e: e[0] == (WHITE, LEFT))
    areas = empty_areas(6)
    areas[2] = [w(0), b(3), w(1)]
    state = frame3(card, areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=orientation))
    assert state.phase == PH_JUMPER and state.to_move == 0
    assert state.legal_actions() == (PickSheep(w(0)), PickSheep(w(1)))
    events = payloads(state.apply(PickSheep(w(1))))
    assert events[0] == IconJump(3, 0, WHITE, 2, 3, w(1))


# ---------------------------------------------------------------- abilities


def _place_first(colour: int, side: int, areas: list[list[int]]) -> tuple[StubbornSheepState, list]:
    card, orientation = find_fence(lambda e: e[0] == (colour, side))
    state = frame3(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=orientation)))
    return state, events


def test_yellow_takes_a_companion_of_the_players_choice() -> None:
    """Rulebook: "Yellow sheep - Friendly. When this sheep jumps over a fence, it takes
    another sheep with it, whatever that sheep's colour. You choose which sheep
    accompanies it." Notes: from the area it left; mandatory when there is one."""
    areas = empty_areas(6)
    areas[2] = [y(0), r(0), b(0)]
    areas[5] = [b(1)]
    state, events = _place_first(YELLOW, LEFT, areas)
    assert events[-1] == IconJump(3, 0, YELLOW, 2, 3, y(0))
    assert state.phase == PH_COMPANION
    assert state.legal_actions() == (PickSheep(r(0)), PickSheep(b(0)))
    after = payloads(state.apply(PickSheep(b(0))))
    assert after[0] == SheepMoved(YELLOW_COMPANION, b(0), 2, 3, 3)
    # The companion blue does not use its own ability: no blue run follows.
    assert not (isinstance(after[1], SheepMoved) and after[1].cause == BLUE_RUN)


def test_yellow_with_a_single_possible_companion_takes_it() -> None:
    areas = empty_areas(6)
    areas[2] = [y(0), r(0)]
    state, events = _place_first(YELLOW, LEFT, areas)
    index = events.index(IconJump(3, 0, YELLOW, 2, 3, y(0)))
    assert events[index + 1] == SheepMoved(YELLOW_COMPANION, r(0), 2, 3, 3)
    # The red companion does not headbutt anybody.
    assert not any(isinstance(p, SheepMoved) and p.cause == RED_BUMP for p in events)
    assert state.phase != PH_BUMP


def test_yellow_alone_jumps_alone() -> None:
    areas = empty_areas(6)
    areas[2] = [y(0)]
    _, events = _place_first(YELLOW, LEFT, areas)
    index = events.index(IconJump(3, 0, YELLOW, 2, 3, y(0)))
    assert isinstance(events[index + 1], IconJump)


def test_red_headbutts_a_sheep_of_the_players_choice_to_either_side() -> None:
    """Rulebook: "Red sheep - Hot-tempered. After jumping over the fence, this sheep
    headbutts a sheep of the colour of your choice in the area where it has just arrived.
    The sheep thus bumped is sent over the fence, to the left or to the right.\""""
    areas = empty_areas(6)
    areas[2] = [r(0)]
    areas[3] = [w(0), y(0)]
    state, events = _place_first(RED, LEFT, areas)
    assert events[-1] == IconJump(3, 0, RED, 2, 3, r(0))
    assert state.phase == PH_BUMP
    assert set(state.legal_actions()) == {
        Bump(w(0), False),
        Bump(w(0), True),
        Bump(y(0), False),
        Bump(y(0), True),
    }
    # Sent clockwise: over fence 4 into pen 2 (area 4); the yellow takes nobody along.
    after = payloads(state.clone().apply(Bump(y(0), True)))
    assert after[0] == SheepMoved(RED_BUMP, y(0), 3, 4, 4)
    assert not (isinstance(after[1], SheepMoved) and after[1].cause == YELLOW_COMPANION)
    # Sent counter-clockwise: over fence 3 back into pen 1 (area 2).
    after = payloads(state.apply(Bump(w(0), False)))
    assert after[0] == SheepMoved(RED_BUMP, w(0), 3, 2, 3)


def test_red_arriving_alone_bumps_nobody() -> None:
    areas = empty_areas(6)
    areas[2] = [r(0)]
    _, events = _place_first(RED, LEFT, areas)
    index = events.index(IconJump(3, 0, RED, 2, 3, r(0)))
    assert isinstance(events[index + 1], IconJump)


def test_red_bumping_a_blue_does_not_start_a_blue_run() -> None:
    """Rulebook: "Sheep moved by the ability of another sheep do not activate their own ability"."""
    areas = empty_areas(6)
    areas[2] = [r(0)]
    areas[3] = [b(0)]
    areas[0] = [b(1)]
    state, _ = _place_first(RED, LEFT, areas)
    after = payloads(state.apply(Bump(b(0), True)))
    assert after[0] == SheepMoved(RED_BUMP, b(0), 3, 4, 4)
    assert not any(isinstance(p, SheepMoved) and p.cause == BLUE_RUN for p in after[:2])


def test_blue_keeps_jumping_around_the_circle_until_it_meets_another_blue() -> None:
    """Rulebook: "Blue sheep - Solitary. After jumping over a fence, this sheep continues to
    jump in the same direction until it reaches an area containing at least one other
    blue sheep." Here clockwise from meadow 3 past pen 2 and meadow 5 into pen 0."""
    areas = empty_areas(6)
    areas[2] = [b(0)]
    areas[0] = [b(1)]
    _, events = _place_first(BLUE, LEFT, areas)
    index = events.index(IconJump(3, 0, BLUE, 2, 3, b(0)))
    assert events[index + 1 : index + 4] == [
        SheepMoved(BLUE_RUN, b(0), 3, 4, 4),
        SheepMoved(BLUE_RUN, b(0), 4, 5, 5),
        SheepMoved(BLUE_RUN, b(0), 5, 0, 0),
    ]


def test_blue_runs_counter_clockwise_when_it_jumped_that_way() -> None:
    areas = empty_areas(6)
    areas[3] = [b(0)]
    areas[0] = [b(1)]
    _, events = _place_first(BLUE, RIGHT, areas)
    index = events.index(IconJump(3, 0, BLUE, 3, 2, b(0)))
    assert events[index + 1 : index + 3] == [
        SheepMoved(BLUE_RUN, b(0), 2, 1, 2),
        SheepMoved(BLUE_RUN, b(0), 1, 0, 1),
    ]


def test_blue_landing_next_to_another_blue_stops_at_once() -> None:
    areas = empty_areas(6)
    areas[2] = [b(0)]
    areas[3] = [b(1)]
    _state, events = _place_first(BLUE, LEFT, areas)
    index = events.index(IconJump(3, 0, BLUE, 2, 3, b(0)))
    assert not isinstance(events[index + 1], SheepMoved)


def test_blue_leaving_the_only_area_with_blues_jumps_once() -> None:
    """Rulebook: "If the blue sheep starts its movement in the only area where blue sheep
    are present, do not apply this ability"."""
    areas = empty_areas(6)
    areas[2] = [b(0), b(1)]
    state, _ = _place_first(BLUE, LEFT, areas)
    assert state.phase == PH_JUMPER
    events = payloads(state.apply(PickSheep(b(0))))
    assert events[0] == IconJump(3, 0, BLUE, 2, 3, b(0))
    assert not isinstance(events[1], SheepMoved)
    assert where(state, b(0)) in (2, 3)


def test_observation_shows_the_activation_in_progress() -> None:
    """The observation carries the activation in progress: the fence activating, the
    fences still to come and the decision's context."""
    card, orientation = find_fence(lambda e: e[0] == (WHITE, LEFT))
    areas = empty_areas(6)
    areas[2] = [w(0), w(1)]
    state = frame3(card, areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=orientation))
    obs = state.observation(1)
    assert obs.phase == "jumper" and obs.to_move == 0 and obs.current == 0
    assert obs.activating == 3 and obs.queue == (1, 0) and obs.activated == (3,)
    assert obs.context == (3, 0, 2, 3, 1, WHITE)
    assert obs.fences[3].card == card and obs.fences[3].height == 2
    assert obs.fences[3].jumps[0] == (WHITE, 2, 3)
    assert obs.hand == tuple(state.hands[1]) and obs.hand_sizes == (0, 1, 1)


def test_blue_leaving_other_blues_behind_still_runs_to_a_blue_elsewhere() -> None:
    """Rulebook: the run is skipped only when the blue "starts its movement in the only
    area where blue sheep are present". Other blues left behind in its starting area do
    not stop it when a blue stands elsewhere: it runs on to that one."""
    areas = empty_areas(6)
    areas[2] = [b(0), b(1)]
    areas[0] = [b(2)]
    state, _ = _place_first(BLUE, LEFT, areas)
    events = payloads(state.apply(PickSheep(b(0))))
    assert events[:4] == [
        IconJump(3, 0, BLUE, 2, 3, b(0)),
        SheepMoved(BLUE_RUN, b(0), 3, 4, 4),
        SheepMoved(BLUE_RUN, b(0), 4, 5, 5),
        SheepMoved(BLUE_RUN, b(0), 5, 0, 0),
    ]
    assert where(state, b(0)) == 0
