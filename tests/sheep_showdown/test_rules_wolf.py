"""Rulebook sentences of the wolf that had no scenario of their own: a wolf moves
only a live opponent dog and only by a legal step; a wolf's push that leaves an
opponent's dog stuck has blocked it; a second wolf's holder may push any
opponent's dog, and pushes none when no opponent's dog can step; a pushed dog's
chain may land on a rocket the mover's chain used; a pushed dog's slide onto a
rocket is steered by the wolf's player.

Sequences, two rules meeting in one turn: a sheep a wolf pushes onto a dog can
be stolen when that dog is blocked; carrying out or declining a pushed dog's
card decides a block; a third wolf may push the dog the first pushed; a wolf may
not push a dog onto a rocket or sliding sheep it could not use, though the card
would be optional.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-showdown.md).
"""

from __future__ import annotations

import pytest

from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import SelectDog
from games.sheep_showdown.events import DogOut, LastPlayer, WolfNoTarget
from games.sheep_showdown.state import ROCKET, SHEPHERD, STEAL, STEP, USE_CARD, WOLF_DOG

from .helpers import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    choose_dog,
    directions,
    payloads,
    position,
    rocket,
    shepherd,
    steal,
    step,
    use_card,
    where,
    wolf_dog,
)


def test_double_trouble_a_wolf_moves_only_a_live_opponent_dog() -> None:
    """Scar: "you must move an opponent's dog one space." In Double Trouble the
    wolf's player may not move their own other dog, nor the opponent's dog lying
    flat (out), even though both could step; only the opponent's live dog. A sheep
    it lands on goes to the opponent's one flock."""
    rows = ["SW...", ".....", "1S...", ".....", "1S.S1"]
    dogs = {0: (0, 0), 1: (2, 1), 2: (4, 1), 3: (4, 3)}
    state = position(rows, dogs, double_trouble=True, out_dogs=(2,))
    choose_dog(state, 0)
    step(state, RIGHT)
    assert state.flocks[0] == [C.WOLF]
    assert state.pending == WOLF_DOG
    assert [a.dog for a in state.legal_actions()] == [3]
    wolf_dog(state, 3)
    step(state, RIGHT)
    assert state.flocks[1] == [C.SHEEP1]
    assert where(state, 2) == (4, 1) and state.card_at(4, 0) == C.SHEEP1


def test_a_wolf_push_must_be_a_step_the_dog_could_make() -> None:
    """Scar: "This move must be allowed according to the game rules: you cannot
    simply place the dog anywhere in the field." Not onto a blocked card, not onto
    another dog, not onto an empty cell: here only the step onto the 2 is left."""
    rows = ["SW...", "..#..", ".2S31", ".....", "....."]
    state = position(rows, {0: (0, 0), 1: (2, 2), 2: (2, 3)}, players=3)
    step(state, RIGHT)
    assert [a.dog for a in state.legal_actions()] == [1, 2]
    wolf_dog(state, 1)
    assert directions(state) == {LEFT}
    step(state, LEFT)
    assert where(state, 1) == (2, 1) and state.flocks[1] == [C.SHEEP2]


def test_a_wolf_that_pushes_an_opponent_into_a_dead_end_has_blocked_it() -> None:
    """Scar: "you must move an opponent's dog one space ... If you place the dog on
    a green sheep card, the owner of the dog takes that card." FAQ, "Who is
    blocking whom?": the wolf's player blocks whoever the push leaves stuck, the
    pushed dog itself included. Dog 1 could step when the turn began; pushed onto
    the 3 it has none left, so seat 0 blocked it and may take a card from seat 1's
    flock (which now holds the 3 as well)."""
    rows = ["SW...", ".....", ".....", "..3.1", "....."]
    state = position(rows, {0: (0, 0), 1: (3, 3)}, flocks={1: [C.SHEEP5]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    assert directions(state) == {LEFT, RIGHT}
    events = step(state, LEFT)
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert sorted(state.flocks[1]) == [C.SHEEP3, C.SHEEP5]
    assert state.pending == STEAL and state.to_move == 0
    steal(state, take=True)
    assert len(state.flocks[0]) == 2 and len(state.flocks[1]) == 1
    assert state.bonus_player == 0 and state.to_move == 0


def test_a_second_wolfs_holder_may_push_any_opponent_the_first_wolfs_player_included() -> None:
    """Scar: "if the dog ends up on another wolf card, the player of the moved dog
    must immediately move another opponent's dog, following the same rules." Seat
    1's opponents are seats 0 and 2: either dog may be pushed, the dog of the
    player whose wolf started the chain included."""
    rows = ["1W111", "11111", "1W111", "11111", "1111S"]
    state = position(rows, {0: (0, 0), 1: (2, 2), 2: (4, 4)}, players=3)
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, LEFT)  # dog 1 onto the second wolf
    assert state.flocks[1] == [C.WOLF]
    assert state.pending == WOLF_DOG and state.to_move == 1
    assert [a.dog for a in state.legal_actions()] == [0, 2]


def test_a_second_wolfs_holder_with_no_dog_to_push_moves_nothing() -> None:
    """Scar: "if the dog ends up on another wolf card, the player of the moved dog
    must immediately move another opponent's dog, following the same rules." Rules
    note: "If no opponent dog can move, nothing more happens." Seat 0's dog walked
    onto the first wolf into a dead end, so seat 1, pushed onto the second wolf,
    keeps it and moves nothing; the turn ends, seat 0 (stuck by its own move, not
    blocked) is out and seat 1 makes its two last moves."""
    rows = [".W...", ".....", "..W..", "..11.", "....."]
    state = position(rows, {0: (1, 1), 1: (2, 3)})
    step(state, UP)
    wolf_dog(state, 1)
    assert directions(state) == {DOWN, LEFT}
    events = step(state, LEFT)
    assert state.flocks == [[C.WOLF], [C.WOLF]]
    assert payloads(events, WolfNoTarget) == [WolfNoTarget(1)]
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(0, "no_step", None)]
    assert payloads(events, LastPlayer) == [LastPlayer(1, 2)]
    assert state.pending == STEP and state.to_move == 1 and where(state, 1) == (2, 2)


def test_a_pushed_dogs_chain_may_land_on_a_rocket_the_movers_chain_used() -> None:
    """Engine rule: a rocket already used "within one dog's chain" cannot be
    landed on again; a wolf's push starts the pushed dog's own chain. Seat 0
    rockets b1 -> d1 -> the wolf at f1 and pushes dog 1 up onto b1; carried out,
    b1 may jump dog 1 onto d1, which seat 0's dog used a moment before, and d1
    then jumps it onto the 3, which goes to seat 1."""
    rows = [
        "SR.R.W",
        ".....1",
        "...3..",
        "...1..",
        "......",
        "......",
    ]
    state = position(rows, {0: (0, 0), 1: (1, 1)})
    step(state, RIGHT)
    rocket(state, RIGHT)
    assert directions(state) == {RIGHT, DOWN}
    rocket(state, RIGHT)  # onto the wolf
    assert state.flocks[0] == [C.WOLF] and state.pending == WOLF_DOG
    wolf_dog(state, 1)
    assert directions(state) == {UP}
    step(state, UP)
    assert state.pending == USE_CARD and state.to_move == 0
    use_card(state, use=True)
    assert state.pending == ROCKET and state.to_move == 0 and state.moving == 1
    assert state.observation(0).used_rockets == ((0, 1),)
    assert directions(state) == {RIGHT}
    rocket(state, RIGHT)
    assert where(state, 1) == (0, 3) and directions(state) == {DOWN}
    rocket(state, DOWN)
    assert where(state, 1) == (2, 3) and state.flocks[1] == [C.SHEEP3]
    assert state.pending == STEP and state.turn_player == 1


def test_a_pushed_dogs_slide_onto_a_rocket_is_steered_by_the_wolfs_player() -> None:
    """Scar: "If you place the dog on an action card, you may execute the action
    of that card with that same dog", and the chain it starts follows: seat 0's
    wolf pushes dog 1 up onto a sliding sheep; carried out, it slides up onto a
    rocket, whose jump seat 0 chooses (up onto the 3, or back down over the
    sliding sheep onto the shepherd card dog 1 left). The 3 goes to seat 1, and
    dog 1, stuck up there, was blocked by seat 0, who may steal."""
    rows = ["SW3..", ".....", "..R..", "..L..", "..S.."]
    state = position(rows, {0: (0, 0), 1: (4, 2)}, flocks={1: [C.SHEEP1]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    assert directions(state) == {UP}
    step(state, UP)
    assert state.pending == USE_CARD and state.to_move == 0
    assert state.observation(0).entered_direction == UP
    use_card(state, use=True)
    assert state.pending == ROCKET and state.to_move == 0 and state.moving == 1
    assert directions(state) == {UP, DOWN}
    events = rocket(state, UP)
    assert where(state, 1) == (0, 2) and sorted(state.flocks[1]) == [C.SHEEP1, C.SHEEP3]
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert state.pending == STEAL and state.to_move == 0 and state.steal_queue == [1]


def test_a_sheep_a_wolf_pushes_onto_a_dog_can_be_stolen_when_that_dog_is_blocked() -> None:
    """Scar: "If you place the dog on a green sheep card, the owner of the dog
    takes that card." The push also leaves dog 1 stuck, so seat 0 blocked it. Its
    flock was empty when the turn began; the steal looks at the flock after the
    push, which now holds the 3, and seat 0 may take it."""
    rows = ["W...", "1...", "....", "..3."]
    state = position(rows, {0: (1, 0), 1: (2, 2)})
    step(state, UP)
    wolf_dog(state, 1)
    events = step(state, DOWN)
    assert state.flocks[1] == [C.SHEEP3]
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert state.pending == STEAL and state.steal_queue == [1]
    steal(state, take=True)
    assert sorted(state.flocks[0]) == [C.SHEEP3, C.WOLF] and state.flocks[1] == []
    step(state, DOWN)  # seat 0's last steps: the 1, then no step left
    assert state.terminal and state.result().scores == (3.0, 0.0)


@pytest.mark.parametrize("use", [True, False])
def test_whether_a_pushed_dog_is_carried_off_anothers_only_way_out_decides_a_block(
    use: bool,
) -> None:
    """Three players. Seat 0's wolf pushes dog 1 onto the shepherd card that is
    dog 2's only way out. Carried out, dog 1 jumps on to the other shepherd card
    and dog 2 can step again when the turn ends: not blocked. Declined, dog 1
    stays there and dog 2 is blocked by seat 0, who may steal. Blocks are
    counted once the whole chain is done, not halfway."""
    rows = ["W1S..", ".....", "..1..", "....1", "...1S"]
    state = position(rows, {0: (1, 0), 1: (1, 2), 2: (0, 3)}, players=3, flocks={2: [C.SHEEP3]})
    step(state, UP)
    assert [a.dog for a in state.legal_actions()] == [1, 2]
    wolf_dog(state, 1)
    step(state, UP)
    events = use_card(state, use=use)
    if use:
        assert state.pending == SHEPHERD
        events = shepherd(state, 4, 4)
        assert payloads(events, DogOut) == [] and state.turn_player == 1
    else:
        assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(2, "blocked", 0)]
        assert state.pending == STEAL and state.steal_queue == [2]


def test_a_third_wolf_may_push_the_dog_the_first_wolf_pushed() -> None:
    """Three wolves in one turn with two players: seat 0 pushes dog 1 onto a wolf,
    seat 1 pushes dog 0 onto another, and seat 0 must push again: "another
    opponent's dog" is any dog of that player's opponents but the one just moved,
    so dog 1 may be pushed a second time (onto the 2, which seat 1 takes)."""
    rows = ["WW21.", "W....", "1....", ".....", "....."]
    state = position(rows, {0: (1, 0), 1: (0, 2)})
    step(state, UP)
    wolf_dog(state, 1)
    step(state, LEFT)
    wolf_dog(state, 0)
    assert directions(state) == {DOWN}
    step(state, DOWN)
    assert state.pending == WOLF_DOG and state.to_move == 0
    assert state.legal_actions() == (SelectDog(1, "wolf"),)
    wolf_dog(state, 1)
    step(state, RIGHT)
    assert state.flocks == [[C.WOLF, C.WOLF], [C.WOLF, C.SHEEP2]]
    assert state.turn_player == 1 and state.pending == STEP


@pytest.mark.parametrize("card", ["R", "L"])
def test_a_wolf_may_not_push_a_dog_onto_a_card_it_could_not_use(card: str) -> None:
    """Scar: the push "must be allowed according to the game rules", and a rocket
    (or sliding sheep) with nowhere to go cannot be stepped on. So it cannot be
    pushed onto either, even though the wolf's player could then decline the
    card: only the step up onto the 2 is offered."""
    rows = ["SW...", "..2..", f"...{card}.", ".....", "....1"]
    state = position(rows, {0: (0, 0), 1: (2, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    assert directions(state) == {UP}
