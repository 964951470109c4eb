"""Rulebook sentences of a blocked dog and stealing that had no scenario of their
own: a dog whose only way out is an unusable rocket is blocked; the card under a
Double Trouble dog lying flat cannot be used; a stuck dog freed before its
owner's turn plays on; out dogs stay on their cells with one dog each too; a
stolen wolf costs the thief its point; a first steal that empties a flock leaves
no second one; a dog stuck from before gives no steal beside a blocked one.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-showdown.md).
"""

from __future__ import annotations

from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import Steal
from games.sheep_showdown.events import DogOut, LastPlayer
from games.sheep_showdown.state import STEAL, STEP

from .helpers import (
    DOWN,
    RIGHT,
    UP,
    choose_dog,
    directions,
    payloads,
    position,
    rocket,
    steal,
    step,
    where,
)


def test_a_dog_whose_only_way_out_is_a_dead_rocket_is_blocked() -> None:
    """Stealing: "A player who can still make at least one more move is not
    considered blocked." A rocket that cannot jump is no move ("The card cannot be
    used if you cannot jump to another card"): taking the last sheep beside a dog
    whose other neighbour is such a rocket blocks it, and the mover may steal.
    When the rocket can jump on, the dog still has a move and is not blocked."""
    rows = ["..S1S", "....R", ".....", ".....", "....."]
    state = position(rows, {0: (0, 2), 1: (0, 4)}, flocks={1: [C.SHEEP3]})
    events = step(state, RIGHT)
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert state.pending == STEAL and state.to_move == 0
    rows[3] = "....2"
    state = position(rows, {0: (0, 2), 1: (0, 4)}, flocks={1: [C.SHEEP3]})
    events = step(state, RIGHT)
    assert payloads(events, DogOut) == [] and not state.out[1]
    assert state.pending == STEP and state.to_move == 1 and directions(state) == {DOWN}


def test_double_trouble_the_card_under_a_dog_lying_flat_cannot_be_used() -> None:
    """Double Trouble: "Lay the blocked dog flat on its position; the card it is
    on cannot be used from then on." Dog 2 lies flat on a shepherd card: a
    shepherd jump may not end there, and a rocket may not jump over it (Cooper
    jumps only over "a (unoccupied) card or empty space"), so a rocket whose only
    jump crosses it cannot be stepped on. With the dog elsewhere, it can."""
    rows = ["S.S..", ".....", "..S..", "1...1", "....S"]
    state = position(
        rows, {0: (1, 0), 1: (4, 0), 2: (0, 2), 3: (4, 4)}, double_trouble=True, out_dogs=(2,)
    )
    choose_dog(state, 0)
    step(state, UP)
    assert state.decision_name() == "shepherd"
    assert [(a.row, a.col) for a in state.legal_actions()] == [(2, 2)]

    rows = ["S....", ".....", ".RS3.", "1...1", "....S"]
    flat = position(
        rows, {0: (2, 0), 1: (4, 0), 2: (2, 2), 3: (4, 4)}, double_trouble=True, out_dogs=(2,)
    )
    choose_dog(flat, 0)
    assert directions(flat) == {DOWN}
    elsewhere = position(
        rows, {0: (2, 0), 1: (4, 0), 2: (0, 0), 3: (4, 4)}, double_trouble=True, out_dogs=(2,)
    )
    choose_dog(elsewhere, 0)
    assert directions(elsewhere) == {RIGHT, DOWN}
    step(elsewhere, RIGHT)
    rocket(elsewhere, RIGHT)
    assert where(elsewhere, 0) == (2, 3) and elsewhere.flocks[0] == [C.SHEEP3]


def test_a_stuck_dog_freed_before_its_owners_turn_plays_on() -> None:
    """Your Turn: "If you cannot move to a new card on your turn, the round ends
    for you." It is checked on that player's turn: dog 1 walks next to dog 2, which
    stands on the only card it could step onto; dog 2 then leaves that shepherd
    card (it stays in the meadow), and when seat 1's turn comes dog 1 can step
    again, so seat 1 is still in."""
    rows = ["11111", "11111", ".....", ".2S11", "....."]
    state = position(rows, {0: (0, 0), 1: (3, 0), 2: (3, 2)}, players=3, to_move=1)
    step(state, RIGHT)  # seat 1 onto the 2: its only way on is dog 2's cell
    assert not state.has_step(1) and not state.out[1]
    step(state, RIGHT)  # seat 2 leaves the shepherd card
    step(state, RIGHT)  # seat 0
    assert state.to_move == 1 and state.out_at[1] is None
    assert directions(state) == {RIGHT}


def test_a_stolen_wolf_costs_the_thief_its_point() -> None:
    """Stealing Cards: "you may take a face-down card from their flock! This could
    also be a wolf card, so beware!" and "each wolf costs you 1 point." Seat 1's
    flock is a lone wolf: seat 0 blocks it, takes the wolf, and ends the round with
    its 1-sheep minus the wolf; seat 1 loses the penalty point with the card."""
    rows = ["...1S", "...S.", ".....", ".....", "....."]
    state = position(rows, {0: (1, 3), 1: (0, 4)}, flocks={1: [C.WOLF]})
    step(state, UP)
    assert state.pending == STEAL
    steal(state, take=True)
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.WOLF] and state.flocks[1] == []
    step(state, DOWN)  # the first of the last two moves: onto the shepherd card
    assert state.terminal  # the second: no step left
    seat0, seat1 = (player["rounds"][0] for player in state.result().details["players"])
    assert (seat0["sheep_points"], seat0["wolves"], seat0["round_score"]) == (1, 1, 0)
    assert (seat1["sheep_points"], seat1["wolves"], seat1["round_score"]) == (0, 0, 0)


def test_out_dogs_stay_on_their_cells_in_a_game_of_one_dog_each_too() -> None:
    """Engine rule: "Out dogs stay on their cell in every mode". With three
    players and one dog each, dog 1 is out on a shepherd card: a shepherd jump
    may not end there, and a rocket may not jump over it (only over "a
    (unoccupied) card or empty space"), so a rocket whose only jump crosses it
    cannot be stepped on. With the dog out elsewhere, it can."""
    rows = ["S.S..", ".....", "..S..", "1...1", "....S"]
    state = position(rows, {0: (1, 0), 1: (0, 2), 2: (4, 4)}, out_dogs=(1,))
    step(state, UP)
    assert state.decision_name() == "shepherd"
    assert [(a.row, a.col) for a in state.legal_actions()] == [(2, 2)]

    rows = ["S....", ".....", ".RS3.", "1...1", "....S"]
    flat = position(rows, {0: (2, 0), 1: (2, 2), 2: (4, 4)}, out_dogs=(1,))
    assert directions(flat) == {DOWN}
    elsewhere = position(rows, {0: (2, 0), 1: (0, 4), 2: (4, 4)}, out_dogs=(1,))
    assert directions(elsewhere) == {RIGHT, DOWN}


# ------------------------------------------------ sequences: two rules in one turn


def test_double_trouble_a_second_steal_is_not_asked_once_the_first_emptied_the_flock() -> None:
    """Double Trouble: both of seat 1's dogs are blocked in one turn, but its
    flock holds one card. "If you succeed you may take a face-down card from
    their flock": the first steal takes it, and a steal is asked only of a flock
    that is not empty, so there is no second decision; seat 0 moves on as the
    last player."""
    rows = [".1...", ".1...", "11111", "11111", "11111"]
    dogs = {0: (1, 1), 1: (4, 4), 2: (0, 0), 3: (0, 2)}
    state = position(rows, dogs, double_trouble=True, flocks={1: [C.SHEEP1]})
    choose_dog(state, 0)
    events = step(state, UP)
    assert sorted(d.dog for d in payloads(events, DogOut)) == [2, 3]
    assert state.legal_actions() == (Steal(1, True), Steal(1, False))
    events = steal(state, take=True)
    assert state.flocks[1] == [] and sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP1]
    assert state.pending != STEAL and payloads(events, LastPlayer) == [LastPlayer(0, 2)]


def test_double_trouble_a_dog_stuck_from_before_gives_no_steal_beside_a_blocked_one() -> None:
    """Seat 0's dog 0 walked into a dead end earlier; on seat 1's turn its dog 1
    is blocked. Seat 0 then has no dog that can step, so only seat 1 can move
    freely: seat 0 is out, but only dog 1 was blocked by seat 1 and gives a steal
    (one card, not two); dog 0 goes out with no steal of its own."""
    rows = [".1...", ".....", ".....", "....1", "...1."]
    dogs = {0: (2, 2), 1: (0, 0), 2: (1, 1), 3: (4, 4)}
    state = position(rows, dogs, double_trouble=True, to_move=1, flocks={0: [C.SHEEP1, C.SHEEP2]})
    assert state.observation(1).free_at_turn_start == (1,)
    choose_dog(state, 2)
    events = step(state, UP)
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 1)]
    assert state.legal_actions() == (Steal(0, True), Steal(0, False))
    events = steal(state, take=True)
    # dog 0 out with no steal; seat 1's dog 2, stuck in the corner it stepped
    # into, goes out as seat 1's last moves begin
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [
        (0, "no_step", None),
        (2, "no_step", None),
    ]
    assert state.pending != STEAL and len(state.flocks[0]) == 1
    assert payloads(events, LastPlayer) == [LastPlayer(1, 2)]
