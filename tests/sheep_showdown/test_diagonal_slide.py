"""The sliding sheep's diagonal slide. Moose: "You can only slide in the
direction you initially moved - horizontally, vertically, or diagonally ...
Although diagonal sliding may appear inconsistent with the general movement
rules, it is permitted with this card ... To use this card, there must be an
adjacent card in the sliding direction that you can use or pick up."

A dog may step diagonally onto a sliding sheep, and only onto one; it slides on
diagonally. A wolf may push a dog along that diagonal step too, since the push
"must be allowed according to the game rules". Every other step and a rocket
stay orthogonal; a sliding sheep entered orthogonally slides on orthogonally.
"""

from __future__ import annotations

import pytest

from games.errors import IllegalAction
from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import Step
from games.sheep_showdown.events import BombExploded, DogMoved, DogOut, WolfNoTarget
from games.sheep_showdown.state import ROCKET, STEP, USE_CARD, WOLF_DOG, WOLF_STEP

from .helpers import (
    DOWN,
    DOWN_LEFT,
    DOWN_RIGHT,
    RIGHT,
    UP,
    UP_LEFT,
    UP_RIGHT,
    directions,
    payloads,
    position,
    rocket,
    step,
    use_card,
    where,
    wolf_dog,
)


def test_a_diagonal_step_onto_a_sliding_sheep_slides_on_diagonally() -> None:
    """The dog's only way out is the sliding sheep diagonally below-right: it
    steps onto it, slides to the 3-sheep beyond on the same diagonal and takes
    it; the sliding sheep stays."""
    state = position(["S....", ".L...", "..3..", "....1", "....S"], {0: (0, 0), 1: (4, 4)})
    assert directions(state) == {DOWN_RIGHT}
    events = step(state, DOWN_RIGHT)
    assert where(state, 0) == (2, 2) and state.flocks[0] == [C.SHEEP3]
    assert state.card_at(1, 1) == C.SLIDING and state.card_at(2, 2) == C.EMPTY
    moves = payloads(events, DogMoved)
    assert [(m.how, m.to_row, m.to_col) for m in moves] == [("step", 1, 1), ("slide", 2, 2)]
    assert state.to_move == 1


@pytest.mark.parametrize(
    ("direction", "rows", "other", "lands"),
    [
        (UP_RIGHT, ["....3", "...L.", "..S..", "1....", "S...."], (4, 0), (0, 4)),
        (DOWN_LEFT, ["....S", "....1", "..S..", ".L...", "3...."], (0, 4), (4, 0)),
        (UP_LEFT, ["3...S", ".L..1", "..S..", ".....", "....."], (0, 4), (0, 0)),
    ],
)
def test_each_diagonal_slides_its_own_way(
    direction: int, rows: list[str], other: tuple[int, int], lands: tuple[int, int]
) -> None:
    """The other three diagonals work the same way."""
    state = position(rows, {0: (2, 2), 1: other})
    assert directions(state) == {direction}
    step(state, direction)
    assert where(state, 0) == lands and state.flocks[0] == [C.SHEEP3]


def test_a_diagonal_step_onto_any_other_card_is_not_legal() -> None:
    """A sheep, a wolf or a blocking sheep diagonally next to the dog cannot be
    stepped on; of its diagonal neighbours only the sliding sheep (with a sheep
    beyond) is offered, beside its one orthogonal step."""
    rows = ["....1", ".1.L.", "..S2.", ".BRW.", "S1..S"]
    state = position(rows, {0: (2, 2), 1: (4, 0)})
    assert directions(state) == {RIGHT, UP_RIGHT}
    for diagonal in (DOWN_RIGHT, DOWN_LEFT, UP_LEFT):
        with pytest.raises(IllegalAction):
            state.apply(Step(0, diagonal))
    step(state, UP_RIGHT)
    assert where(state, 0) == (0, 4) and state.flocks[0] == [C.SHEEP1]


@pytest.mark.parametrize(
    ("beyond", "dogs"),
    [
        (".", {0: (0, 0), 1: (4, 4)}),  # an empty cell
        ("#", {0: (0, 0), 1: (4, 4)}),  # a blocked sheep
        ("R", {0: (0, 0), 1: (4, 4)}),  # a rocket that cannot jump anywhere
        ("S", {0: (0, 0), 1: (2, 2)}),  # a card another dog stands on
    ],
)
def test_a_diagonal_slide_needs_a_usable_card_beyond(
    beyond: str, dogs: dict[int, tuple[int, int]]
) -> None:
    """ "there must be an adjacent card in the sliding direction that you can use
    or pick up": with nothing usable beyond on the diagonal, the diagonal step
    is not offered; the same meadow with a sheep there offers it."""
    rows = ["S1...", ".L...", f"..{beyond}1.", ".....", "...1S"]
    assert directions(position(rows, dogs)) == {RIGHT}
    rows[2] = "..21."
    assert directions(position(rows, {0: (0, 0), 1: (4, 4)})) == {RIGHT, DOWN_RIGHT}


def test_a_diagonal_slide_off_the_grid_is_not_legal() -> None:
    """A sliding sheep in the corner (set-up never deals one on the outer ring,
    a hand-built meadow may) has no card beyond it diagonally: of the dog's two
    diagonal sliding sheep only the one with a sheep beyond is offered."""
    rows = ["L1...", ".S...", "..L..", "...1.", "...1S"]
    state = position(rows, {0: (1, 1), 1: (4, 4)})
    assert directions(state) == {UP, DOWN_RIGHT}


def test_an_orthogonal_entry_slides_on_orthogonally_only() -> None:
    """ "if you step onto the card from a horizontal direction, you must continue
    sliding horizontally, not diagonally." Stepping right onto the sliding sheep
    lands on the 2-sheep beyond it, not on the 5-sheep diagonally beyond; the
    diagonal step onto the other sliding sheep goes on diagonally to the 3."""
    rows = ["S....", ".L2..", ".L5..", "..3..", "...1S"]
    state = position(rows, {0: (1, 0), 1: (4, 4)})
    assert directions(state) == {UP, RIGHT, DOWN_RIGHT}
    events = step(state, RIGHT)
    assert where(state, 0) == (1, 2) and state.flocks[0] == [C.SHEEP2]
    assert [m.how for m in payloads(events, DogMoved)] == ["step", "slide"]
    state = position(rows, {0: (1, 0), 1: (4, 4)})
    step(state, DOWN_RIGHT)
    assert where(state, 0) == (3, 2) and state.flocks[0] == [C.SHEEP3]


def test_chained_sliding_sheep_continue_diagonally() -> None:
    """A second sliding sheep on the diagonal slides the dog on, diagonally."""
    state = position(["....S", "...L1", "..L..", "11...", "S...."], {0: (0, 4), 1: (4, 0)})
    assert directions(state) == {DOWN, DOWN_LEFT}
    events = step(state, DOWN_LEFT)
    assert [m.how for m in payloads(events, DogMoved)] == ["step", "slide", "slide"]
    assert where(state, 0) == (3, 1) and state.flocks[0] == [C.SHEEP1]


def test_a_dog_whose_only_move_is_a_diagonal_slide_is_not_stuck() -> None:
    """ "A player who can still make at least one more move is not considered
    blocked": seat 0 takes the last sheep beside seat 1's dog, whose one way out
    left is the diagonal slide. Seat 1 is not blocked, stays in and slides."""
    rows = ["S1S..", "...L.", "....2", ".....", "....S"]
    state = position(rows, {0: (0, 0), 1: (0, 2)}, flocks={1: [C.SHEEP5]})
    events = step(state, RIGHT)
    assert payloads(events, DogOut) == []
    assert state.pending == STEP and state.to_move == 1
    assert directions(state) == {DOWN_RIGHT}
    step(state, DOWN_RIGHT)
    assert where(state, 1) == (2, 4) and state.flocks[1] == [C.SHEEP5, C.SHEEP2]


def test_a_diagonal_slide_onto_a_rocket_jumps_orthogonally() -> None:
    """A rocket reached by a diagonal slide jumps "horizontal or vertical" as
    always."""
    rows = ["S....", ".L...", "..R..", "....1", "..1.S"]
    state = position(rows, {0: (0, 0), 1: (4, 4)})
    step(state, DOWN_RIGHT)
    assert state.pending == ROCKET and directions(state) == {DOWN}
    rocket(state, DOWN)
    assert where(state, 0) == (4, 2) and state.flocks[0] == [C.SHEEP1]


def test_a_diagonal_slide_onto_a_bomb_explodes_it() -> None:
    """A bomb reached by a diagonal slide explodes as when stepped on."""
    rows = ["S....", ".L...", "..X..", "...S1", "....."]
    state = position(rows, {0: (0, 0), 1: (3, 3)})
    events = step(state, DOWN_RIGHT)
    assert payloads(events, BombExploded)[0].dog == 0
    assert {(d.dog, d.reason) for d in payloads(events, DogOut)} == {(0, "bomb"), (1, "bomb")}


def test_a_diagonal_slide_onto_a_wolf_pushes_by_the_steps_a_dog_may_make() -> None:
    """A wolf reached by a diagonal slide is taken and its holder moves an
    opponent's dog one space, by any step "allowed according to the game rules":
    the pushed dog's orthogonal step onto the 1-sheep, or its diagonal step onto
    the sliding sheep, which the wolf's player may carry out (slide on along the
    diagonal, so the dog's owner takes the 3-sheep beyond)."""
    rows = ["S......", ".L.....", "..W....", "...S1..", "....L..", ".....3.", "......."]
    state = position(rows, {0: (0, 0), 1: (3, 3)})
    step(state, DOWN_RIGHT)
    assert state.flocks[0] == [C.WOLF] and state.pending == WOLF_DOG
    wolf_dog(state, 1)
    assert state.pending == WOLF_STEP and directions(state) == {RIGHT, DOWN_RIGHT}
    step(state, DOWN_RIGHT)
    assert state.pending == USE_CARD and state.to_move == 0
    assert state.observation(0).entered_direction == DOWN_RIGHT
    events = use_card(state)
    assert [(m.how, m.to_row, m.to_col) for m in payloads(events, DogMoved)] == [("slide", 5, 5)]
    assert where(state, 1) == (5, 5) and state.flocks[1] == [C.SHEEP3]
    assert state.card_at(4, 4) == C.SLIDING


def test_a_wolf_must_push_a_dog_whose_only_move_is_a_diagonal_slide() -> None:
    """ "you must move an opponent's dog one space. This move must be allowed
    according to the game rules": a dog whose one move is the diagonal step onto
    a sliding sheep can move, so the wolf pushes it there, and the dog's owner
    takes the 1-sheep it slides onto."""
    rows = ["SW...", ".....", "..S..", "...L.", "....1"]
    state = position(rows, {0: (0, 0), 1: (2, 2)})
    events = step(state, RIGHT)
    assert payloads(events, WolfNoTarget) == [] and state.flocks[0] == [C.WOLF]
    assert state.pending == WOLF_DOG and [a.dog for a in state.legal_actions()] == [1]
    wolf_dog(state, 1)
    assert directions(state) == {DOWN_RIGHT}
    step(state, DOWN_RIGHT)
    use_card(state)
    assert where(state, 1) == (4, 4) and state.flocks[1] == [C.SHEEP1]


def test_a_declined_diagonal_push_leaves_the_dog_on_the_sliding_sheep_blocked() -> None:
    """The wolf's player may decline the sliding sheep the push ended on: the dog
    stays on it, where it has no step left (no sheep diagonally beyond it now
    that it stands on the card), so the wolf's player has blocked it and may
    steal from its flock."""
    rows = ["SW...", ".....", "..S..", "...L.", "....1"]
    state = position(rows, {0: (0, 0), 1: (2, 2)}, flocks={1: [C.SHEEP5]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, DOWN_RIGHT)
    events = use_card(state, use=False)
    assert where(state, 1) == (3, 3) and state.card_at(3, 3) == C.SLIDING
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert state.decision_name() == "steal" and state.steal_queue == [1]
