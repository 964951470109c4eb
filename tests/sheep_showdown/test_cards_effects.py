"""Scenario tests: one step and every card effect, with positions built by hand.

Grids: 1 2 3 5 sheep, S shepherd, R rocket, B blocking, L sliding, X bomb,
W wolf, . empty, # blocked. Dog n belongs to seat n (one dog each).
"""

from __future__ import annotations

import pytest

from games.errors import IllegalAction
from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import Step
from games.sheep_showdown.events import (
    BlockerDiscarded,
    BombExploded,
    CardStolen,
    CardTaken,
    DogMoved,
    DogOut,
    ShepherdStays,
    WolfNoTarget,
)
from games.sheep_showdown.state import BLOCKER, ROCKET, SHEPHERD, STEP, WOLF_DOG, WOLF_STEP

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
    steal_all,
    step,
    use_card,
    where,
    wolf_dog,
)

# ---------------------------------------------------------------- stepping


def test_step_onto_a_sheep_takes_it() -> None:
    """ "If you land on a regular sheep card (green background), pick it up and
    add it to your flock" — the card leaves the grid, the dog stays on the cell."""
    state = position(["11111", "11311", "11S11", "11111", "1111S"], {0: (2, 2), 1: (4, 4)})
    events = step(state, UP)
    assert state.flocks[0] == [C.SHEEP3]
    assert state.card_at(1, 2) == C.EMPTY
    assert where(state, 0) == (1, 2)
    # the event names the cell: row 1, column 2 (not a cell whose row and column agree)
    assert payloads(events, CardTaken) == [CardTaken(0, 0, C.SHEEP3, 1, 2)]
    assert state.to_move == 1


@pytest.mark.parametrize(("card", "points"), [("1", 1), ("2", 2), ("3", 3), ("5", 5)])
def test_sheep_points_are_the_sheep_on_the_card(card: str, points: int) -> None:
    """ "The number of sheep on the card equals the number of points you earn for
    that card! Minimum 1 point and maximum 5 points." (quick game ends the round
    after the last steps; the flock is counted)."""
    state = position([f".{card}.", "...", "..S"], {0: (0, 0), 1: (2, 2)})
    step(state, RIGHT)
    assert state.terminal
    assert state.result().details["players"][0]["rounds"][0]["sheep_points"] == points


def test_steps_are_one_orthogonal_cell() -> None:
    """ "Move your dog one step horizontally or vertically to an adjacent card."
    The four directions from the middle, two from a corner; never diagonal."""
    state = position(["11111", "11111", "11S11", "11111", "S1111"], {0: (2, 2), 1: (4, 0)})
    assert directions(state) == {UP, RIGHT, DOWN, LEFT}
    corner = position(["S1111", "11111", "11S11", "11111", "11111"], {0: (0, 0), 1: (2, 2)})
    assert directions(corner) == {RIGHT, DOWN}


def test_cannot_step_on_empty_blocked_or_dog_cells() -> None:
    """Rules note: "A step goes ... onto a cell that holds a card that is not
    blocked and holds no dog. Empty cells (removed cards) cannot be entered."
    Rulebook: "Players cannot stand on a blocked card"."""
    state = position(["1.111", "#S1S1", "11111", "11111", "11111"], {0: (1, 1), 1: (1, 2)})
    # up: empty, left: blocked, right: dog 1; only down remains.
    assert directions(state) == {DOWN}
    with pytest.raises(IllegalAction):
        state.apply(Step(0, UP))


def test_illegal_action_leaves_the_state_untouched() -> None:
    state = position(["1.111", "#S1S1", "11111", "11111", "11111"], {0: (1, 1), 1: (1, 3)})
    before = state.render(), list(state.grid), list(state.pos)
    with pytest.raises(IllegalAction):
        state.apply(Step(0, LEFT))
    with pytest.raises(IllegalAction):
        state.apply(Step(1, DOWN))  # not this seat's dog
    assert (state.render(), list(state.grid), list(state.pos)) == before


# ---------------------------------------------------------------- shepherd


def test_shepherd_moves_the_dog_to_another_free_shepherd() -> None:
    """Andy: "move your shepherd dog to any other unoccupied shepherd card ...
    This card remains in the meadow after use." Arriving there does not trigger
    it again (rules note)."""
    state = position(["S1111", "11111", "1SS11", "11111", "1111S"], {0: (2, 1), 1: (4, 4)})
    step(state, RIGHT)
    assert state.pending == SHEPHERD and state.to_move == 0
    # (2,1) is the cell the dog left, (0,0) is free, (4,4) holds dog 1.
    assert {(a.row, a.col) for a in state.legal_actions()} == {(0, 0), (2, 1)}
    events = shepherd(state, 0, 0)
    assert where(state, 0) == (0, 0)
    assert state.card_at(2, 2) == C.SHEPHERD
    assert [m.how for m in payloads(events, DogMoved)] == ["shepherd"]
    assert state.pending == STEP and state.to_move == 1


def test_shepherd_without_a_free_shepherd_the_dog_stays() -> None:
    """Rules note: "if there is none, the dog stays"."""
    state = position(["11111", "1S111", "11S11", "11111", "11111"], {0: (1, 2), 1: (1, 1)})
    events = step(state, DOWN)
    assert where(state, 0) == (2, 2)
    assert payloads(events, ShepherdStays) == [ShepherdStays(0, 0)]
    assert state.to_move == 1


# ---------------------------------------------------------------- rocket


def test_rocket_jumps_two_cells_over_a_card_empty_or_blocked_cell() -> None:
    """Cooper: "you make a horizontal or vertical jump of two squares ... you
    can jump over a (unoccupied) card or empty space! You may choose the
    direction". Rules note: over a blocked card too, "but not a dog"."""
    rows = ["11111", "1.111", "SR#21", "11111", "S1111"]
    state = position(rows, {0: (2, 0), 1: (3, 1)})
    step(state, RIGHT)
    assert state.pending == ROCKET and where(state, 0) == (2, 1)
    # up: over the empty (1,1) to (0,1); right: over the blocked (2,2) to the 2;
    # down: dog 1 is in the way; left: off the grid.
    assert directions(state) == {UP, RIGHT}
    events = rocket(state, RIGHT)
    assert where(state, 0) == (2, 3)
    assert state.flocks[0] == [C.SHEEP2]
    assert state.card_at(2, 1) == C.ROCKET  # "This card remains in the meadow"
    assert [m.how for m in payloads(events, DogMoved)] == ["rocket"]


def test_rocket_cannot_be_entered_without_a_landing() -> None:
    """ "The card cannot be used if you cannot jump to another card." Landing
    cells that are empty, blocked, off the grid or hold a dog make the step onto
    the rocket illegal."""
    rows = ["1.1.1", "1....", "SR1#.", "1....", "S.1.1"]
    state = position(rows, {0: (2, 0), 1: (4, 0)})
    assert RIGHT not in directions(state)
    open_rows = ["1.1.1", "1....", "SR1#2", "1....", "S.1.1"]
    state = position(open_rows, {0: (2, 0), 1: (4, 0)})
    assert RIGHT not in directions(state)  # lands on (2,3): blocked
    landing = ["1.1.1", "1....", "SR12.", "1....", "S.1.1"]
    state = position(landing, {0: (2, 0), 1: (4, 0)})
    assert RIGHT in directions(state)


def test_rocket_into_rocket_chain() -> None:
    """Tips: "Jump from one rocket sheep to another when in range." A rocket
    already used in this chain cannot be landed on again (engine rule, so that a
    chain always ends)."""
    rows = ["SR.R.", ".....", "...3.", ".....", "....S"]
    state = position(rows, {0: (0, 0), 1: (4, 4)})
    step(state, RIGHT)
    assert directions(state) == {RIGHT}  # only the other rocket is in range
    rocket(state, RIGHT)
    assert state.pending == ROCKET and where(state, 0) == (0, 3)
    assert directions(state) == {DOWN}  # not back onto the used rocket
    rocket(state, DOWN)
    assert where(state, 0) == (2, 3)
    assert state.flocks[0] == [C.SHEEP3]


def test_rocket_into_sliding_sheep() -> None:
    """Tips: combine action cards; a dog that rockets onto a sliding sheep
    slides on in the jump's direction."""
    rows = [".....", ".....", "SR.L5", ".....", "S...."]
    state = position(rows, {0: (2, 0), 1: (4, 0)})
    step(state, RIGHT)
    rocket(state, RIGHT)
    assert where(state, 0) == (2, 4)
    assert state.flocks[0] == [C.SHEEP5]
    assert state.card_at(2, 3) == C.SLIDING


# ---------------------------------------------------------------- sliding


def test_sliding_sheep_slides_one_more_cell_in_the_same_direction() -> None:
    """Moose: "you slide to the opposite side of it in the direction you stepped
    on the card ... This card remains in the meadow after use." """
    state = position(["SS...", ".L...", ".2...", ".....", "....S"], {0: (0, 1), 1: (4, 4)})
    events = step(state, DOWN)
    assert where(state, 0) == (2, 1)
    assert state.flocks[0] == [C.SHEEP2]
    assert state.card_at(1, 1) == C.SLIDING
    assert [m.how for m in payloads(events, DogMoved)] == ["step", "slide"]


def test_sliding_needs_a_usable_card_beyond() -> None:
    """ "To use this card, there must be an adjacent card in the sliding
    direction that you can use or pick up." Empty, blocked, a dog or the edge
    beyond make the step onto the sliding sheep illegal."""
    for beyond in (".", "#"):
        state = position(
            ["1S1..", ".L...", f".{beyond}...", ".....", "....S"], {0: (0, 1), 1: (4, 4)}
        )
        assert DOWN not in directions(state), beyond
    state = position(["1S1..", ".L...", ".S...", ".....", "....."], {0: (0, 1), 1: (2, 1)})
    assert DOWN not in directions(state)
    edge = position(["1L...", "1S...", ".....", ".....", "....S"], {0: (1, 1), 1: (4, 4)})
    assert UP not in directions(edge)


def test_sliding_into_sliding_and_into_rocket() -> None:
    """Another sliding sheep slides again in the same direction; sliding onto a
    rocket asks for the rocket's direction (rules note: card effects chain)."""
    state = position(["SLL3.", ".....", ".....", ".....", "....S"], {0: (0, 0), 1: (4, 4)})
    step(state, RIGHT)
    assert where(state, 0) == (0, 3) and state.flocks[0] == [C.SHEEP3]
    state = position([".LR..", ".....", "..1..", ".....", "...1S"], {0: (0, 0), 1: (4, 4)})
    step(state, RIGHT)
    assert state.pending == ROCKET and where(state, 0) == (0, 2)
    assert directions(state) == {DOWN}  # left would land on the empty cell the dog left
    rocket(state, DOWN)
    assert where(state, 0) == (2, 2) and state.flocks[0] == [C.SHEEP1]


def test_slide_onto_a_blocking_sheep() -> None:
    """Tips: "slide from sliding sheep to a blocking sheep and stop your
    opponents in their path!" """
    state = position(["SLB..", "...2.", ".....", ".....", "1...S"], {0: (0, 0), 1: (4, 4)})
    step(state, RIGHT)
    assert state.pending == BLOCKER and where(state, 0) == (0, 2)
    assert {(a.row, a.col) for a in state.legal_actions()} == {(1, 3), (4, 0)}


# ---------------------------------------------------------------- blocking


def test_blocking_sheep_covers_a_free_sheep_card_of_the_players_choice() -> None:
    """Lambo: "pick it up and place it face down on a green unoccupied sheep card
    of your choice. The blocking sheep cannot be placed on any other type of
    card." """
    rows = ["SB2..", "..W..", "..R..", ".3..1", "....S"]
    state = position(rows, {0: (0, 0), 1: (4, 4)})
    step(state, RIGHT)
    assert state.pending == BLOCKER
    assert state.card_at(0, 1) == C.EMPTY  # the card left the grid
    assert where(state, 0) == (0, 1)
    assert {(a.row, a.col) for a in state.legal_actions()} == {(0, 2), (3, 1), (3, 4)}
    block(state, 3, 1)
    assert state.card_at(3, 1) == C.BLOCKED
    assert state.observation(None).grid[3 * 5 + 1] == C.BLOCKED
    assert state.to_move == 1


def test_blocked_card_cannot_be_entered_but_can_be_jumped() -> None:
    """ "Players cannot stand on a blocked card, but can jump over it with a
    rocket sheep." """
    state = position(["S#1..", "R....", "#....", "1....", "....S"], {0: (0, 0), 1: (4, 4)})
    assert RIGHT not in directions(state)
    step(state, DOWN)
    assert directions(state) == {DOWN}
    rocket(state, DOWN)
    assert where(state, 0) == (3, 0)


def test_blocking_sheep_without_a_target_leaves_the_game() -> None:
    """Rules note: "If there is no such card, it leaves the game." """
    state = position(["SB...", ".....", ".....", ".....", "....S"], {0: (0, 0), 1: (4, 4)})
    events = step(state, RIGHT)
    assert payloads(events, BlockerDiscarded) == [BlockerDiscarded(0)]
    assert state.removed == [C.BLOCKING]
    assert state.card_at(0, 1) == C.EMPTY


# ---------------------------------------------------------------- bomb


def test_bomb_removes_the_square_and_every_dog_in_it() -> None:
    """Kowalski: "all adjacent cards explode, including diagonal cards. The
    exploded cards, including the bomb, are removed from the game for this round.
    The round ends for players who stand on an exploded card or empty space next
    to the bomb." The mover's dog is out too; the mover may steal from the others."""
    rows = ["11111", "1.#S1", "1SX11", "11111", "1111S"]
    state = position(rows, {0: (2, 1), 1: (1, 3), 2: (4, 4)}, flocks={1: [C.SHEEP5]}, players=3)
    events = step(state, RIGHT)
    events = steal_all(state, events)
    bombs = payloads(events, BombExploded)
    # 3x3 around (2,2): 9 cards: the blocked cell holds two (sheep + blocker),
    # the empty (1,1) none.
    assert bombs == [BombExploded(0, 0, 2, 2, 9)]
    for row in (1, 2, 3):
        for col in (1, 2, 3):
            assert state.card_at(row, col) == C.EMPTY
    assert state.out[0] and state.out[1] and not state.out[2]
    assert {(d.dog, d.reason) for d in payloads(events, DogOut)} == {(0, "bomb"), (1, "bomb")}
    assert state.flocks[0] == [C.SHEEP5] and state.flocks[1] == []
    assert state.cards_in_play() == 25 - 1 + 1 + 1  # 25 cells, 1 empty, blocked x2, +flock
    assert state.to_move == 2  # the only one left: the last steps
    assert state.bonus_player == 2


def test_bomb_next_to_nobody_only_removes_cards() -> None:
    state = position(["1SX1.", ".111.", "1....", ".....", "...1S"], {0: (0, 1), 1: (4, 4)})
    step(state, RIGHT)
    assert state.out[0] and not state.out[1]
    assert state.grid[:10] == [C.SHEEP1] + [C.EMPTY] * 9
    assert sorted(state.removed) == sorted([C.SHEPHERD, C.BOMB] + [C.SHEEP1] * 4)


# ---------------------------------------------------------------- wolf


def test_wolf_goes_to_the_flock_and_moves_an_opponent_dog() -> None:
    """Scar: "you add it to your flock. The card gives you one penalty point but
    ... you must move an opponent's dog one space ... If you place the dog on a
    green sheep card, the owner of the dog takes that card." """
    rows = ["SW...", ".....", "..1..", "..S3.", "....."]
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    assert state.flocks[0] == [C.WOLF]
    assert state.pending == WOLF_DOG and state.to_move == 0
    assert [a.dog for a in state.legal_actions()] == [1]
    wolf_dog(state, 1)
    assert state.pending == WOLF_STEP and state.to_move == 0
    assert directions(state) == {UP, RIGHT}
    events = step(state, RIGHT)
    assert where(state, 1) == (3, 3)
    assert state.flocks[1] == [C.SHEEP3]
    assert [m.how for m in payloads(events, DogMoved)] == ["wolf"]
    assert payloads(events, DogMoved)[0].by == 0


def test_wolf_can_only_pick_dogs_that_can_move() -> None:
    """Rules note: "pick an opponent's dog that has a legal step"; the out dogs
    and the stuck ones are not offered. With 3 players the mover picks."""
    rows = ["SW.1.", "...S.", ".....", "S.S..", "....."]
    # dog 1 at (1,3) can step up onto the 1; dog 2 at (3,0) cannot move.
    state = position(rows, {0: (0, 0), 1: (1, 3), 2: (3, 0)}, players=3)
    # dog 2 is stuck but it is seat 0's turn: dog 2 stays in until its turn or
    # until the end of this turn.
    step(state, RIGHT)
    assert [a.dog for a in state.legal_actions()] == [1]


def test_wolf_without_a_movable_opponent_does_nothing_more() -> None:
    """Rules note: "If no opponent dog can move, nothing more happens." """
    rows = ["SW...", ".....", ".....", "...S.", "....."]
    state = position(rows, {0: (0, 0), 1: (3, 3)}, out_dogs=(), players=2)
    # dog 1 is stuck from the start: only seat 0 can still move freely, so seat 1
    # is out (not blocked by anyone) and seat 0 makes its two last moves
    assert state.out[1] and state.bonus_player == 0
    events = step(state, RIGHT)
    assert payloads(events, WolfNoTarget) == [WolfNoTarget(0)]
    assert payloads(events, DogOut) == []


def test_wolf_pushes_a_dog_onto_a_bomb_and_the_mover_steals() -> None:
    """Tips: "Use a wolf card to place an opponent on a bomb sheep! BOOM! After
    that, you can steal a card from that player's flock." """
    rows = ["SW...", ".....", "..X..", "..S1.", "....1"]
    state = position(rows, {0: (0, 0), 1: (3, 2)}, flocks={1: [C.SHEEP2]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    events = step(state, UP)
    events += use_card(state)
    events = steal_all(state, events)
    assert payloads(events, BombExploded)[0].dog == 1
    assert state.out[1] and not state.out[0]
    assert sorted(state.flocks[0]) == sorted([C.WOLF, C.SHEEP2])
    assert state.flocks[1] == []
    stolen = [e for e in events if isinstance(e.payload, CardStolen)]
    assert {e.seat for e in stolen} == {0, 1}
    assert state.bonus_player == 0 and state.to_move == 0


def test_wolf_bomb_next_to_the_mover_takes_the_mover_out_too() -> None:
    """Tips: "Just make sure you are not next to the bomb yourself!" """
    rows = ["SW...", ".X...", ".S...", ".....", "....1"]
    state = position(rows, {0: (0, 0), 1: (2, 1)}, players=2)
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    use_card(state)
    assert state.out[0] and state.out[1]
    assert state.terminal  # nobody left in the quick game


def test_wolf_pushes_a_dog_onto_a_blocking_sheep_the_wolf_player_places_it() -> None:
    """Tips: "Have you moved an opponent onto a blocking sheep using a wolf
    card? That means you get to place this blocking sheep somewhere." """
    rows = ["SW...", "..2..", "..B..", "..S..", "1...."]
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    use_card(state)
    assert state.pending == BLOCKER and state.to_move == 0
    block(state, 1, 2)
    assert state.card_at(1, 2) == C.BLOCKED
    assert where(state, 1) == (2, 2)


def test_wolf_pushes_a_dog_onto_a_shepherd_or_rocket_the_wolf_player_chooses() -> None:
    """ "If you place the dog on an action card, you may execute the action of
    that card with that same dog." """
    rows = ["SW..S", ".....", "..S..", "..S..", "....."]
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    use_card(state)
    assert state.pending == SHEPHERD and state.to_move == 0
    shepherd(state, 0, 4)
    assert where(state, 1) == (0, 4)

    rows = ["SW...", ".....", "..R..", "..S..", "..2.3"]
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    use_card(state)
    assert state.pending == ROCKET and state.to_move == 0
    # landing cells: up (0,2) empty, down (4,2) over the cell dog 1 left.
    assert directions(state) == {DOWN}
    rocket(state, DOWN)
    assert where(state, 1) == (4, 2) and state.flocks[1] == [C.SHEEP2]


def test_wolf_onto_wolf_the_owner_moves_another_opponent() -> None:
    """ "if the dog ends up on another wolf card, the player of the moved dog must
    immediately move another opponent's dog, following the same rules." Rules
    note: the wolf goes to the dog's owner, who moves a dog of one of their own
    opponents (any dog but the one just moved)."""
    rows = [".W...", ".....", "..W..", "..S.S", "....1"]
    state = position(rows, {0: (0, 0), 1: (3, 2), 2: (3, 4)}, players=3)
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    assert state.flocks[1] == [C.WOLF]
    assert state.pending == WOLF_DOG and state.to_move == 1
    # seat 1's opponents are seats 0 and 2; dog 0 at (0,1) has no step left.
    assert [a.dog for a in state.legal_actions()] == [2]
    wolf_dog(state, 2)
    assert state.to_move == 1 and state.pending == WOLF_STEP
    step(state, DOWN)
    assert state.flocks[2] == [C.SHEEP1]
    # dogs 1 and 2 can step back onto the shepherd cards they left: nobody is
    # blocked; seat 0's own stuck dog stays in until seat 0's next turn.
    assert state.turn_player == 1 and not any(state.out)


def test_wolf_blocking_another_opponent_means_the_mover_blocked_them() -> None:
    """FAQ: "If you step on a wolf card and move an opponent, causing another
    opponent to get stuck, you have blocked that opponent!" The mover steals."""
    # dog 2 at (4,0) can only step right to (4,1); the wolf moves dog 1 onto it.
    rows = ["SW...", ".....", ".1...", ".S...", "S1..."]
    state = position(rows, {0: (0, 0), 1: (3, 1), 2: (4, 0)}, players=3, flocks={2: [C.SHEEP3]})
    step(state, RIGHT)
    assert [a.dog for a in state.legal_actions()] == [1, 2]
    wolf_dog(state, 1)
    assert directions(state) == {UP, DOWN}
    events = steal_all(state, step(state, DOWN))
    outs = payloads(events, DogOut)
    assert [(d.dog, d.reason, d.by) for d in outs] == [(2, "blocked", 0)]
    assert sorted(state.flocks[0]) == sorted([C.WOLF, C.SHEEP3])


def test_rocket_landing_card_takes_effect() -> None:
    """Rules note: "The landing cell must hold an enterable card, whose effect
    then applies": a shepherd asks for a target (a rocket is not "this way"), a
    wolf goes to the flock and moves an opponent, a bomb explodes."""
    state = position(["SR.S.", ".....", "....S", "....1", "....."], {0: (0, 0), 1: (2, 4)})
    step(state, RIGHT)
    rocket(state, RIGHT)
    assert state.pending == SHEPHERD and where(state, 0) == (0, 3)
    assert {(a.row, a.col) for a in state.legal_actions()} == {(0, 0)}

    state = position(["SR.W.", ".....", "....S", "....1", "....."], {0: (0, 0), 1: (2, 4)})
    step(state, RIGHT)
    rocket(state, RIGHT)
    assert state.flocks[0] == [C.WOLF] and state.pending == WOLF_DOG

    state = position(["SR.X.", "....S", ".....", "...1.", "....."], {0: (0, 0), 1: (1, 4)})
    step(state, RIGHT)
    events = rocket(state, RIGHT)
    assert payloads(events, BombExploded) and state.out[0] and state.out[1]


def test_blocker_targets_are_only_free_unblocked_sheep() -> None:
    """ "The blocking sheep cannot be placed on any other type of card": not on a
    shepherd, rocket, wolf, bomb, sliding or blocked card, nor under a dog."""
    rows = ["SB#RW", "XL.S5", "....1", ".....", "....."]
    state = position(rows, {0: (0, 0), 1: (1, 3)})
    step(state, RIGHT)
    assert {(a.row, a.col) for a in state.legal_actions()} == {(1, 4), (2, 4)}


def test_dog_on_an_empty_cell_next_to_the_bomb_is_out() -> None:
    """ "The round ends for players who stand on an exploded card or empty space
    next to the bomb." """
    state = position(
        [".....", ".SX..", "...1.", ".....", "1..1S"], {0: (1, 1), 1: (2, 2), 2: (4, 4)}
    )
    assert state.card_at(2, 2) == C.EMPTY
    step(state, RIGHT)
    assert state.out[1] and state.out[0] and not state.out[2]
