"""Rulebook sentences of the restock step (meadows, pens, the blue bonus's restock
actions) an audit found without a scenario that pins them.

Each test sets up the situation the sentence speaks of and checks its outcome
where a plausible misreading would give another one. Three players (see
`helpers.frame3`): seat 0 owns fences 0 (right) and 1 (left) and pen 0; fence 3
lies between pen 1 (area 2) and meadow 3.
"""

from __future__ import annotations

from games.stubborn_sheep.actions import UseBonus
from games.stubborn_sheep.data import ALL_MEADOWS_TO_FIVE, MEADOW_TO_SIX, PEN_PLUS_ONE
from games.stubborn_sheep.events import SheepPlaced, SheepReshuffled
from games.stubborn_sheep.state import PH_BLUE, PH_PLACE, StubbornSheepState

from .helpers import b, empty_areas, payloads, r, w, y

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
