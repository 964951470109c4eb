"""More scenario tests: the 2-player circle (its unowned middle fences), the
wolf's ties around the circle, blue runs and red bumps across the seam between
the last area and area 0, and the final round with 2, 4 and 5 players.

Two players: seat 0 owns fence 0 (right), pen 0 (area 0) and fence 1 (left);
seat 1 owns fence 3 (right), pen 3 (area 3) and fence 4 (left); fences 2 and 5
are the unowned fences in the middle of the meadows (areas 1, 2, 4, 5).
Fence f lies between area f-1 and area f (fence 0 between area n-1 and area 0).
"""

from __future__ import annotations

import pytest

from games.stubborn_sheep.actions import Bump, PlaceFence, Score, StopScoring
from games.stubborn_sheep.data import BLUE, EFFECTIVE, LEFT, N_FENCES, RED, RIGHT, UP
from games.stubborn_sheep.events import (
    BLUE_RUN,
    RED_BUMP,
    FenceActivated,
    FenceDrawn,
    FinalRound,
    GameOver,
    IconJump,
    SheepMoved,
    SheepReshuffled,
    TurnStarted,
    WolfMoved,
)
from games.stubborn_sheep.state import PH_BUMP, PH_SCORE, StubbornSheepState

from .helpers import b, empty_areas, find_fence, frame3, payloads, pick, r, until_next_turn, w, y


def _two_players(hand_card: int, areas: list[list[int]], current: int = 0) -> StubbornSheepState:
    """2 players, `current` to place `hand_card`; the table fences are other cards."""
    others = [card for card in range(N_FENCES) if card != hand_card]
    hands = [[others[6]], [others[7]]]
    hands[current] = [hand_card]
    return StubbornSheepState.from_position(
        2, areas=areas, fences=others[:6], hands=hands, current=current, start="place"
    )


# ------------------------------------------------------------------ activation order


@pytest.mark.parametrize(
    ("seat", "fence", "order"),
    [
        (0, 2, [2, 1, 0]),
        (0, 5, [5, 1, 0]),
        (1, 2, [2, 4, 3]),
        (1, 5, [5, 4, 3]),
        (1, 3, [3, 4]),
    ],
)
def test_two_players_placing_on_an_unowned_middle_fence(
    seat: int, fence: int, order: list[int]
) -> None:
    """Two players: the fence in the middle of a meadow belongs to nobody, so a
    fence placed on it is activated first, then both of the player's own fences,
    the left one (towards the next player, clockwise) before the right one. On
    one of their own fences, only the other own fence follows."""
    state = _two_players(20, empty_areas(6), current=seat)
    events = until_next_turn(state.apply(pick(state, PlaceFence, fence=fence, orientation=UP)))
    assert [p.fence for p in events if isinstance(p, FenceActivated)] == order


# ------------------------------------------------------------------ the wolf


def _wolf_end_turn(
    players: int, areas: list[list[int]], wolf: int, **kwargs: object
) -> tuple[StubbornSheepState, list]:
    """Seat 0 stops scoring (3 reds wait in its pen), which ends its turn. Its
    fence card is placed; the others hold one each, none in the final round."""
    areas[0] = [r(10), r(11), r(12)]
    final = kwargs.get("final_left", -1) != -1
    hands = [[] if seat == 0 or final else [N_FENCES - 1 - seat] for seat in range(players)]
    state = StubbornSheepState.from_position(
        players, areas=areas, hands=hands, wolf=wolf, start="score", **kwargs
    )
    return state, payloads(state.apply(StopScoring()))


def test_wolf_tie_wraps_past_the_last_area_to_the_first_meadow() -> None:
    """Ties for the fullest meadow go to the first tied meadow met going
    clockwise from the wolf: from the last meadow (area 5) that is past area 0,
    so meadow 1 wins over meadow 3 (going counter-clockwise would meet 3 first)."""
    areas = empty_areas(6)
    areas[1] = [w(0), w(1), w(2), b(0), b(1)]
    areas[3] = [w(3), w(4), w(5), w(6), y(0)]
    areas[5] = [w(7), w(8)]
    state, events = _wolf_end_turn(3, areas, wolf=5)
    assert WolfMoved(5, 1, (w(0), w(1))) in events
    assert state.wolf == 1 and state.areas[1] == [w(2), b(0), b(1)]


def test_wolf_with_two_players_uses_the_four_meadows_and_wraps() -> None:
    """Two players: the wolf starts in the meadow to the right of seat 0 (area
    5) and only meadows count, never a pen, however full. Meadows 2 and 4 tie:
    clockwise from area 5 the wolf passes pen 0 and meadow 1 and stops in 2."""
    areas = empty_areas(6)
    areas[1] = [w(0), w(1), w(2)]
    areas[2] = [b(0), r(0), r(1), w(3), y(0)]
    areas[3] = [w(i) for i in range(10, 20)]
    areas[4] = [b(1), b(2), b(3), w(4), w(5)]
    areas[5] = [y(1)]
    state, events = _wolf_end_turn(2, areas, wolf=5)
    assert WolfMoved(5, 2, (r(0), r(1))) in events
    assert state.wolf == 2 and len(state.areas[3]) == 10


def test_wolf_in_solo_wraps_past_the_pen() -> None:
    """Solo: 1 pen (area 0) and 3 meadows; the wolf starts in area 3. With
    meadows 1 and 2 tied for most it goes clockwise past the pen into meadow 1,
    and discards one of each tied most numerous colour there."""
    areas = empty_areas(4)
    areas[1] = [b(0), r(0), w(0)]
    areas[2] = [y(0), y(1), w(1)]
    areas[3] = [w(2)]
    state, events = _wolf_end_turn(1, areas, wolf=3)
    assert WolfMoved(3, 1, (b(0), r(0), w(0))) in events
    assert state.wolf == 1 and state.areas[1] == []


def test_wolf_moves_at_the_end_of_the_final_turn_too() -> None:
    """The wolf moves at the end of every turn, the very last one of the game
    included: its move and discard come before the game is over."""
    areas = empty_areas(6)
    areas[3] = [b(0), b(1), b(2), w(0)]
    areas[5] = [w(1)]
    state, events = _wolf_end_turn(3, areas, wolf=5, final_left=1, fence_pile=[])
    assert state.terminal
    moved = events.index(WolfMoved(5, 3, (b(0), b(1))))
    assert isinstance(events[-1], GameOver) and moved < len(events) - 1
    assert state.wolf == 3 and b(0) in state.discard
    assert not [p for p in events if isinstance(p, FenceDrawn)]


def test_wolf_moves_after_the_last_fence_is_drawn_and_the_next_restock_skips_it() -> None:
    """Rulebook: "4. Draw a new Fence card" ends the round, and "At the end of each
    round, move the wolf"; "add no sheep to the meadow where the wolf is located".
    Seat 0 draws the last fence (the final round begins), then the wolf leaves meadow
    5 for meadow 1 (5 sheep, the most) and eats 2 whites; seat 1's first turn of the
    final round restocks meadow 5, the one the wolf left, but not meadow 1."""
    areas = empty_areas(6)
    areas[1] = [b(0), w(0), b(1), w(1), w(2)]
    areas[3] = [b(2)]
    state, events = _wolf_end_turn(3, areas, wolf=5, fence_pile=[N_FENCES - 4])
    kinds = [type(p) for p in events]
    assert kinds.index(FenceDrawn) < kinds.index(FinalRound) < kinds.index(WolfMoved)
    assert kinds.index(WolfMoved) < kinds.index(TurnStarted)
    assert WolfMoved(5, 1, (w(0), w(1))) in events
    assert TurnStarted(1, 1, True) in events
    assert state.areas[1] == [b(0), b(1), w(2)]
    assert len(state.areas[3]) == 4 and len(state.areas[5]) == 4


# ------------------------------------------------------------------ blue runs


def test_blue_run_crosses_unowned_fences_and_the_other_pen() -> None:
    """A blue sheep keeps jumping in the same direction until it reaches an area
    with another blue sheep, across any fence: here (2 players) from pen 0 over
    seat 0's left fence into meadow 1, over the unowned middle fence into meadow
    2, over seat 1's right fence into pen 3 and its left fence into meadow 4."""
    card, orientation = find_fence(lambda e: e[0] == (BLUE, LEFT))
    areas = empty_areas(6)
    areas[0] = [b(0)]
    areas[4] = [b(1)]
    state = _two_players(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=1, orientation=orientation)))
    index = events.index(IconJump(1, 0, BLUE, 0, 1, b(0)))
    assert events[index + 1 : index + 4] == [
        SheepMoved(BLUE_RUN, b(0), 1, 2, 2),
        SheepMoved(BLUE_RUN, b(0), 2, 3, 3),
        SheepMoved(BLUE_RUN, b(0), 3, 4, 4),
    ]
    assert not isinstance(events[index + 4], SheepMoved)


def test_blue_run_goes_as_far_round_the_circle_as_the_next_blue() -> None:
    """Rulebook: the blue sheep "continues to jump in the same direction until it
    reaches an area containing at least one other blue sheep", however far: with 5
    players it jumps from pen 0 into meadow 1 and runs on clockwise over 8 fences,
    past every pen and meadow, to the only other blue in meadow 9."""
    card, orientation = find_fence(lambda e: e[0] == (BLUE, LEFT))
    others = [c for c in range(N_FENCES) if c != card]
    areas = empty_areas(10)
    areas[0] = [b(0)]
    areas[9] = [b(1)]
    state = StubbornSheepState.from_position(
        5, areas=areas, fences=others[:10], hands=[[card], *([c] for c in others[10:14])]
    )
    events = payloads(state.apply(pick(state, PlaceFence, fence=1, orientation=orientation)))
    index = events.index(IconJump(1, 0, BLUE, 0, 1, b(0)))
    assert events[index + 1 : index + 9] == [
        SheepMoved(BLUE_RUN, b(0), a, a + 1, a + 1) for a in range(1, 9)
    ]
    assert not isinstance(events[index + 9], SheepMoved)


def test_blue_run_wraps_counter_clockwise_from_area_0_to_the_last_area() -> None:
    """A blue sheep that jumped counter-clockwise into pen 0 goes on over fence 0
    into the last area (5) and over the unowned fence 5 into meadow 4, where
    another blue sheep stops it."""
    card, orientation = find_fence(lambda e: e[0] == (BLUE, RIGHT))
    areas = empty_areas(6)
    areas[1] = [b(0)]
    areas[4] = [b(1)]
    state = _two_players(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=1, orientation=orientation)))
    index = events.index(IconJump(1, 0, BLUE, 1, 0, b(0)))
    assert events[index + 1 : index + 3] == [
        SheepMoved(BLUE_RUN, b(0), 0, 5, 0),
        SheepMoved(BLUE_RUN, b(0), 5, 4, 5),
    ]
    assert not isinstance(events[index + 3], SheepMoved)


# ------------------------------------------------------------------ red bumps


def test_red_bump_clockwise_from_the_last_area_lands_in_area_0() -> None:
    """A red sheep that arrives in the last area (meadow 5) headbutts a sheep
    there over either of the area's fences: clockwise that is fence 0, into
    pen 0; counter-clockwise fence 5, back into pen 2 (3 players)."""
    card, orientation = find_fence(lambda e: e[0] == (RED, LEFT))
    areas = empty_areas(6)
    areas[4] = [r(0)]
    areas[5] = [w(0)]
    state = frame3(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=5, orientation=orientation)))
    assert events[-1] == IconJump(5, 0, RED, 4, 5, r(0))
    assert state.phase == PH_BUMP and state.to_move == 0
    assert set(state.legal_actions()) == {Bump(w(0), True), Bump(w(0), False)}
    after = payloads(state.clone().apply(Bump(w(0), True)))
    assert after[0] == SheepMoved(RED_BUMP, w(0), 5, 0, 0)
    after = payloads(state.apply(Bump(w(0), False)))
    assert after[0] == SheepMoved(RED_BUMP, w(0), 5, 4, 5)


def test_red_bump_counter_clockwise_from_area_0_lands_in_the_last_area() -> None:
    """A red sheep that arrives in pen 0 headbutts a sheep there: counter-
    clockwise over fence 0 into the last area (meadow 5), clockwise over
    fence 1 into meadow 1."""
    card, orientation = find_fence(lambda e: e[0] == (RED, RIGHT))
    areas = empty_areas(6)
    areas[1] = [r(0)]
    areas[0] = [w(0)]
    state = frame3(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=1, orientation=orientation)))
    assert events[-1] == IconJump(1, 0, RED, 1, 0, r(0))
    assert set(state.legal_actions()) == {Bump(w(0), True), Bump(w(0), False)}
    after = payloads(state.clone().apply(Bump(w(0), False)))
    assert after[0] == SheepMoved(RED_BUMP, w(0), 0, 5, 0)
    after = payloads(state.apply(Bump(w(0), True)))
    assert after[0] == SheepMoved(RED_BUMP, w(0), 0, 1, 1)


# ------------------------------------------------------------------ the final round


@pytest.mark.parametrize(("players", "drawer"), [(2, 1), (4, 2), (5, 4), (5, 0)])
def test_final_round_every_player_plays_once_more(players: int, drawer: int) -> None:
    """When a player draws the last fence, the final round begins with the next
    player: every player, the drawer included, plays exactly one more turn
    without drawing a fence, then the game ends."""
    n = 6 if players == 2 else 2 * players
    state = StubbornSheepState.from_position(
        players, areas=empty_areas(n), fence_pile=[30], current=drawer, start="place"
    )
    events = []
    while not state.terminal:
        events.extend(payloads(state.apply(state.legal_actions()[0])))
    turns = [p for p in events if isinstance(p, TurnStarted)]
    expected = [(drawer + 1 + i) % players for i in range(players)]
    assert [(t.seat, t.final) for t in turns] == [(seat, True) for seat in expected]
    assert events.index(FinalRound(drawer)) < events.index(turns[0])
    assert [(p.seat, p.card) for p in events if isinstance(p, FenceDrawn)] == [(drawer, 30)]
    assert state.hands == [[] for _ in range(players)]
    assert isinstance(events[-1], GameOver) and len(events[-1].scores) == players


# ------------------------------------------------------------------ seats other than 0


def test_last_seat_placing_elsewhere_activates_its_left_fence_across_the_seam() -> None:
    """Rulebook: "If you placed it on a fence that does not belong to you, activate both
    of your fences, starting with the one on the left, then the one on the right." Seat 2
    of three owns fence 4 (right) and fence 5 (left, towards seat 0, past the last
    meadow): placing on seat 0's fence 1 activates 1, then 5, then 4."""
    others = [card for card in range(N_FENCES) if card != 20]
    state = StubbornSheepState.from_position(
        3,
        areas=empty_areas(6),
        fences=others[:6],
        hands=[[others[6]], [others[7]], [20]],
        current=2,
        start="place",
    )
    events = until_next_turn(state.apply(pick(state, PlaceFence, fence=1, orientation=UP)))
    assert [p.fence for p in events if isinstance(p, FenceActivated)] == [1, 5, 4]


def test_second_seat_of_two_restocks_its_own_pen_to_the_colour_gap() -> None:
    """Rulebook: "Count how many more colours that player has than you. Add sheep from the
    draw pile to your pen until it contains a number of sheep equal to that count. Do not
    restock the pens of other players." Two players, seat 1 to play: seat 0 has scored 3
    colours, seat 1 one, so pen 1 (area 3) is filled to 2 and pen 0 stays empty."""
    areas = empty_areas(6)
    for meadow in (1, 2, 4, 5):
        areas[meadow] = (
            [w(4 * meadow + i) for i in range(4)] if meadow < 5 else [y(i) for i in range(4)]
        )
    scored = [[[b(0)], [r(0)], [y(10)], []], [[], [r(1)], [], []]]
    state = StubbornSheepState.from_position(2, areas=areas, scored=scored, current=1, start="turn")
    assert len(state.areas[3]) == 2
    assert state.areas[0] == []


# ------------------------------------------------------------------ reshuffling the sheep


def test_the_discard_pile_is_reshuffled_when_a_sheep_is_needed_not_when_the_pile_empties() -> None:
    """Rulebook, restock: "If the Sheep draw pile is exhausted, shuffle the discard pile
    to form a new draw pile." The engine reshuffles at the moment a sheep must be drawn
    from an empty pile, so sheep discarded after the pile ran out (here by scoring) are
    part of the new pile. Seat 0's restock takes the last 3 sheep of the pile and leaves
    the discard pile (2 whites) alone; seat 0 then scores 3 reds (2 discarded); seat 1's
    restock needs a sheep for its pen and reshuffles all 4 discarded sheep."""
    no_red = [
        card for card in range(N_FENCES) if all(colour != RED for colour, _ in EFFECTIVE[card][UP])
    ]
    hand, fence0, fence1 = no_red[:3]
    others = [card for card in range(N_FENCES) if card not in (hand, fence0, fence1)]
    areas = empty_areas(6)
    areas[0] = [r(0), r(1), r(2)]  # seat 0's pen: fences 0, 1 and the hand card move no red
    areas[1] = [b(0), w(0), w(1)]
    areas[3] = [b(1), w(2), w(3)]
    areas[5] = [b(2), w(4), w(5)]
    pile, discard = [w(6), w(7), w(8)], [w(9), w(10)]
    named = {card for area in areas for card in area} | set(pile) | set(discard)
    areas[4] = [card for card in range(78) if card not in named]  # seat 2's pen
    state = StubbornSheepState.from_position(
        3,
        areas=areas,
        fences=[fence0, fence1, *others[:4]],
        hands=[[hand], [others[4]], [others[5]]],
        sheep_pile=pile,
        discard=discard,
        start="turn",
    )
    assert [len(state.areas[m]) for m in (1, 3, 5)] == [4, 4, 4]
    assert state.sheep_pile == [] and state.discard == discard  # nothing reshuffled yet
    events = payloads(state.apply(pick(state, PlaceFence, fence=1, orientation=UP)))
    while state.current == 0 and state.phase != PH_SCORE:
        events += payloads(state.apply(state.legal_actions()[0]))
    assert not any(isinstance(p, SheepReshuffled) for p in events)
    assert state.phase == PH_SCORE and {r(0), r(1), r(2)} <= set(state.areas[0])
    score = next(a for a in state.legal_actions() if isinstance(a, Score) and a.colour == RED)
    events = payloads(state.apply(score))
    assert state.current == 1
    assert SheepReshuffled(len(discard) + 2) in events
