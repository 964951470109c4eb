"""Rulebook sentences of the cards that move a dog on (shepherd, rocket, sliding
sheep) that had no scenario of their own: a card a rocket jumps over does
nothing; a rocket cannot land on a card another dog stands on; a rocket or
sliding sheep that leads only to an unusable rocket cannot be entered; slides in
all four directions; a sliding sheep may lead onto a wolf nobody can be pushed
by, or onto a blocking sheep with nothing to cover, since both are picked up; a
rocket's landing on a blocking sheep places it; a dog stays on the shepherd card
it jumped to until its next turn, and steps on from there; a slide cannot lead a
rocket chain back onto a rocket it used; a slide onto a shepherd card sends the
dog on; a slide or a rocket may end on a shepherd card with no other free.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-showdown.md).
"""

from __future__ import annotations

import pytest

from games.sheep_showdown import cards as C
from games.sheep_showdown.events import (
    BlockerDiscarded,
    BombExploded,
    CardTaken,
    DogMoved,
    DogOut,
    ShepherdStays,
    WolfNoTarget,
)
from games.sheep_showdown.state import BLOCKER, SHEPHERD, STEAL, STEP

from .helpers import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    block,
    directions,
    payloads,
    position,
    rocket,
    shepherd,
    step,
    where,
)


@pytest.mark.parametrize("jumped", ["W", "X", "L", "3", "S", "B", "R"])
def test_a_card_a_rocket_jumps_over_stays_and_does_nothing(jumped: str) -> None:
    """Cooper: "you make a horizontal or vertical jump of two squares. In doing
    so, you can jump over a (unoccupied) card or empty space!" Only the landing
    card takes effect: the wolf, bomb, sliding sheep, sheep, shepherd, blocking
    sheep or rocket jumped over stays where it is and does nothing."""
    rows = [".....", "...1.", f"SR{jumped}2.", ".....", "...1S"]
    state = position(rows, {0: (2, 0), 1: (4, 4)})
    step(state, RIGHT)
    assert directions(state) == {RIGHT}
    events = rocket(state, RIGHT)
    assert where(state, 0) == (2, 3)
    assert state.flocks[0] == [C.SHEEP2]
    assert state.card_at(2, 2) == C.CHAR_CARDS[jumped]
    assert [m.how for m in payloads(events, DogMoved)] == ["rocket"]
    assert payloads(events, BombExploded) == [] and not any(state.out)
    assert state.pending == STEP and state.to_move == 1


def test_a_rocket_whose_only_landing_is_a_dead_rocket_cannot_be_entered() -> None:
    """Cooper: "The card cannot be used if you cannot jump to another card."
    Rules note: the landing cell "must hold an enterable card". A rocket whose
    only landing is a second rocket with no jump of its own (back onto the first
    is not one) cannot be stepped on; once the second rocket can jump on, it can."""
    rows = ["....S", "1...1", "SR.R.", ".....", "....."]
    state = position(rows, {0: (2, 0), 1: (0, 4)})
    assert directions(state) == {UP}
    rows[4] = "...3."
    state = position(rows, {0: (2, 0), 1: (0, 4)})
    assert directions(state) == {UP, RIGHT}
    step(state, RIGHT)
    rocket(state, RIGHT)
    assert where(state, 0) == (2, 3) and directions(state) == {DOWN}
    rocket(state, DOWN)
    assert where(state, 0) == (4, 3) and state.flocks[0] == [C.SHEEP3]


def test_a_rocket_cannot_land_on_a_card_another_dog_stands_on() -> None:
    """Andy: "two players can never occupy the same (shepherd) card"; Ready to
    Go: "Dogs cannot be on the same card." Cooper: "The card cannot be used if
    you cannot jump to another card." Rules note: the landing cell "must hold an
    enterable card" (one that holds no dog). With dog 1 on the rocket's only
    landing, the rocket cannot be stepped on; with a second landing, the jump
    onto dog 1's card is not offered; with dog 1 elsewhere, the jump is there."""
    rows = ["1....", "1....", "SR1S.", ".....", "....S"]
    state = position(rows, {0: (2, 0), 1: (2, 3)})
    assert directions(state) == {UP}
    state = position(rows, {0: (2, 0), 1: (4, 4)})
    assert directions(state) == {UP, RIGHT}

    rows = [".1...", "1....", "SR1S.", ".....", "....S"]
    state = position(rows, {0: (2, 0), 1: (2, 3)})
    step(state, RIGHT)
    assert where(state, 0) == (2, 1) and directions(state) == {UP}
    rocket(state, UP)
    assert where(state, 0) == (0, 1) and where(state, 1) == (2, 3)
    assert state.flocks[0] == [C.SHEEP1] and state.flocks[1] == []


def test_a_sliding_sheep_in_front_of_a_dead_rocket_cannot_be_entered() -> None:
    """Moose: "To use this card, there must be an adjacent card in the sliding
    direction that you can use or pick up." A rocket that cannot jump anywhere
    cannot be used, so the step onto the sliding sheep before it is not offered
    (the dog stands on an empty cell, so even the jump back is no landing)."""
    rows = ["S1...", "1....", ".LR..", ".....", "....."]
    state = position(rows, {0: (2, 0), 1: (0, 0)})
    assert directions(state) == {UP}
    rows[2] = ".LR.5"
    state = position(rows, {0: (2, 0), 1: (0, 0)})
    assert directions(state) == {UP, RIGHT}
    step(state, RIGHT)
    assert where(state, 0) == (2, 2) and directions(state) == {RIGHT}
    rocket(state, RIGHT)
    assert state.flocks[0] == [C.SHEEP5]


@pytest.mark.parametrize(
    ("direction", "lands", "card"),
    [
        (UP, (0, 2), C.SHEEP3),
        (RIGHT, (2, 4), C.SHEEP5),
        (DOWN, (4, 2), C.SHEEP1),
        (LEFT, (2, 0), C.SHEEP2),
    ],
)
def test_a_sliding_sheep_slides_on_in_each_direction_it_is_entered(
    direction: int, lands: tuple[int, int], card: int
) -> None:
    """Moose: "you slide to the opposite side of it in the direction you stepped
    on the card." Entered from below, from the left, from above or from the
    right, the dog comes out on the far side and takes the sheep there."""
    rows = ["S13..", "..L..", "2LSL5", "..L..", "..1.."]
    state = position(rows, {0: (2, 2), 1: (0, 0)})
    step(state, direction)
    assert where(state, 0) == lands
    assert state.flocks[0] == [card]
    assert [m.how for m in payloads(state.apply(state.legal_actions()[0]), DogMoved)] == ["step"]


def test_a_slide_onto_a_wolf_with_nobody_to_push_takes_it_and_blocks() -> None:
    """Moose: "there must be an adjacent card in the sliding direction that you
    can use or pick up." Scar: "When you step on this card, you add it to your
    flock." A wolf is picked up even when no opponent dog could be pushed: dog 0
    slides onto the wolf that was dog 1's only way on, takes it, pushes nobody,
    and has blocked dog 1, so seat 0 may take a card from seat 1's flock."""
    rows = ["SLW..", "..S..", ".....", ".....", "....."]
    state = position(rows, {0: (0, 0), 1: (1, 2)}, flocks={1: [C.SHEEP5]})
    assert directions(state) == {RIGHT}
    events = step(state, RIGHT)
    assert [m.how for m in payloads(events, DogMoved)] == ["step", "slide"]
    assert payloads(events, CardTaken) == [CardTaken(0, 0, C.WOLF, 0, 2)]
    assert payloads(events, WolfNoTarget) == [WolfNoTarget(0)]
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert state.pending == STEAL and state.to_move == 0 and state.steal_queue == [1]


def test_a_slide_onto_a_blocking_sheep_with_nothing_to_cover_is_legal() -> None:
    """Moose: "there must be an adjacent card in the sliding direction that you
    can use or pick up." Lambo: "pick it up and place it face down on a green
    unoccupied sheep card". A blocking sheep is picked up even when no sheep card
    is left to cover: the slide onto it is legal and the card leaves the game."""
    rows = ["SLB..", ".....", ".....", ".....", "...SS"]
    state = position(rows, {0: (0, 0), 1: (4, 4)})
    assert directions(state) == {RIGHT}
    events = step(state, RIGHT)
    assert where(state, 0) == (0, 2) and state.card_at(0, 2) == C.EMPTY
    assert payloads(events, BlockerDiscarded) == [BlockerDiscarded(0)]
    assert state.removed == [C.BLOCKING]
    assert state.pending == STEP and state.to_move == 1


def test_a_rocket_landing_on_a_blocking_sheep_places_it() -> None:
    """Cooper: "you make a horizontal or vertical jump of two squares." Lambo:
    "When you step on this action card, pick it up and place it face down on a
    green unoccupied sheep card of your choice." Landing on it by rocket is
    stepping on it: the jumper picks it up and covers the one free sheep card."""
    rows = ["SR.B.", ".....", "...2.", ".....", "...SS"]
    state = position(rows, {0: (0, 0), 1: (4, 4)})
    step(state, RIGHT)
    assert directions(state) == {RIGHT}
    rocket(state, RIGHT)
    assert where(state, 0) == (0, 3) and state.card_at(0, 3) == C.EMPTY
    assert state.pending == BLOCKER and state.to_move == 0
    assert [(a.row, a.col) for a in state.legal_actions()] == [(2, 3)]
    block(state, 2, 3)
    assert state.card_at(2, 3) == C.BLOCKED
    assert state.pending == STEP and state.to_move == 1


def test_a_dog_stays_on_the_chosen_shepherd_card_until_its_next_turn() -> None:
    """Andy: "move your shepherd dog to any other unoccupied shepherd card. You
    remain on the chosen shepherd card until your next turn." Your Turn: "You can
    make only one move per turn." The jump ends seat 0's turn on the chosen card;
    seat 1 plays; when seat 0's turn comes the card under its dog does nothing
    (no second jump is asked) and the dog steps on from there."""
    rows = ["S1...", ".....", ".SS..", ".....", "1..1S"]
    state = position(rows, {0: (2, 1), 1: (4, 4)})
    step(state, RIGHT)
    assert state.pending == SHEPHERD
    shepherd(state, 0, 0)
    assert where(state, 0) == (0, 0)
    assert state.pending == STEP and state.to_move == 1
    step(state, LEFT)
    assert where(state, 0) == (0, 0)
    assert state.pending == STEP and state.to_move == 0 and state.moving == 0
    assert directions(state) == {RIGHT}
    step(state, RIGHT)
    assert where(state, 0) == (0, 1) and state.flocks[0] == [C.SHEEP1]
    assert state.card_at(0, 0) == C.SHEPHERD and state.to_move == 1


def test_a_slide_cannot_lead_a_rocket_chain_back_onto_a_rocket_it_used() -> None:
    """Engine rule: "Within one dog's chain a rocket it already used cannot be
    landed on again", and a slide's target "must hold a card the dog can use".
    Rocket b1 jumps to d1, which jumps onto the sliding sheep at d3 and slides on
    to d4; d4 jumps to b4. From b4 a jump up lands on the sliding sheep at b2,
    which would slide back onto b1, already used: only the jump down is offered."""
    rows = [
        "SR.R..",
        ".L....",
        "...L..",
        ".R.R..",
        ".....1",
        ".2...S",
    ]
    state = position(rows, {0: (0, 0), 1: (5, 5)})
    step(state, RIGHT)
    assert directions(state) == {RIGHT}
    rocket(state, RIGHT)
    assert where(state, 0) == (0, 3) and directions(state) == {DOWN}
    events = rocket(state, DOWN)  # lands on the sliding sheep, slides onto d4
    assert [m.how for m in payloads(events, DogMoved)] == ["rocket", "slide"]
    assert where(state, 0) == (3, 3) and directions(state) == {LEFT}
    rocket(state, LEFT)
    assert where(state, 0) == (3, 1)
    assert state.observation(0).used_rockets == ((0, 1), (0, 3), (3, 1), (3, 3))
    assert directions(state) == {DOWN}  # not up: the slide would end on b1
    rocket(state, DOWN)
    assert where(state, 0) == (5, 1) and state.flocks[0] == [C.SHEEP2]


def test_a_slide_onto_a_shepherd_card_sends_the_dog_on_to_another() -> None:
    """Moose: the card slid onto must be one "that you can use", and is used:
    a shepherd card it slides onto moves the dog on to another free shepherd
    card of its player's choice ("Combining action cards offers many
    possibilities"). Both cards stay in the meadow."""
    rows = [".LS..", ".....", "....S", ".....", ".1..."]
    state = position(rows, {0: (0, 0), 1: (4, 0)})
    events = step(state, RIGHT)
    assert [m.how for m in payloads(events, DogMoved)] == ["step", "slide"]
    assert state.pending == SHEPHERD and state.to_move == 0
    assert [(a.row, a.col) for a in state.legal_actions()] == [(2, 4)]
    events = shepherd(state, 2, 4)
    assert [m.how for m in payloads(events, DogMoved)] == ["shepherd"]
    assert where(state, 0) == (2, 4)
    assert state.card_at(0, 1) == C.SLIDING and state.card_at(0, 2) == C.SHEPHERD
    assert state.pending == STEP and state.turn_player == 1


def test_a_slide_or_a_rocket_may_end_on_a_shepherd_card_with_no_other_free() -> None:
    """Andy: "move your shepherd dog to any other unoccupied shepherd card"; with
    none free the dog stays (as when it steps there). A sliding sheep needs a card
    beyond "that you can use or pick up", and a rocket a card to land on: a
    shepherd card qualifies, even when every other one has a dog on it."""
    slide = position([".LS", "...", "1.S"], {0: (0, 0), 1: (2, 2)})
    events = step(slide, RIGHT)
    assert [m.how for m in payloads(events, DogMoved)] == ["step", "slide"]
    assert payloads(events, ShepherdStays) == [ShepherdStays(0, 0)] and where(slide, 0) == (0, 2)
    jump = position(["1R.S", "....", "....", "1..S"], {0: (0, 0), 1: (3, 3)})
    step(jump, RIGHT)
    events = rocket(jump, RIGHT)
    assert payloads(events, ShepherdStays) == [ShepherdStays(0, 0)] and where(jump, 0) == (0, 3)
