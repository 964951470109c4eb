"""Rulebook sentences that had no scenario of their own: diagonal shepherd cards
stay where they are dealt; the cards a bomb or a blocking sheep took out of a
round are dealt again in the next one; a card a rocket jumps over does nothing;
a rocket cannot land on a card another dog stands on;
a rocket or sliding sheep that leads only to an unusable rocket cannot be
entered, and a dog whose only way out is such a rocket is blocked; slides in
all four directions; a wolf moves only a live opponent dog and only by a legal
step; a blown-up player's flock still scores; a bomb does not blow up a Double
Trouble dog already lying flat, and the card under such a dog cannot be used; a
wolf's push or a bomb's blast that leaves an opponent's dog stuck has blocked it;
placing and the first move with 2 to 4 players, in round 1 and in a later round;
a stuck dog freed before its owner's turn plays on; the last player's move
through a shepherd card is one of the two; a blocking sheep can block; a second
wolf's holder may push any opponent's dog, and pushes none when no opponent's
dog can step; a second bomb in a blast is removed without going off; a stolen
wolf costs the thief its point; a sliding sheep may lead onto a wolf nobody can
be pushed by, or onto a blocking sheep with nothing to cover, since both are
picked up; a rocket's landing on a blocking sheep places it; a dog stays on
the shepherd card it jumped to until its next turn, and steps on from there;
every dog gets a shepherd card of its own at every table (5 shepherd cards on
7x7, 6 on 9x9); a slide cannot lead a rocket chain back onto a rocket it used,
while a pushed dog's chain may land on a rocket the mover's chain used; out
dogs stay on their cells with one dog each too; a slide onto a shepherd card
sends the dog on; a pushed dog's slide onto a rocket is steered by the wolf's
player; a round in which no dog can step ends at once.

Sequences, two rules meeting in one turn: a first steal that empties a flock
leaves no second one; a sheep a wolf pushes onto a dog can be stolen when that
dog is blocked; carrying out or declining a pushed dog's card decides a block;
a slide or a rocket may end on a shepherd card with no other free; the last
player's wolf pushes nobody; placing a blocker or a steal can be the game's last
action; a dog stuck from before gives no steal beside a blocked one; a bomb that
takes the mover's other dog; a third wolf may push the dog the first pushed;
the next first player among three or four tied; a wolf may not push a dog onto
a rocket or sliding sheep it could not use, though the card would be optional.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-showdown.md).
"""

from __future__ import annotations

import pytest

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import SelectDog, Steal
from games.sheep_showdown.events import (
    BlockerDiscarded,
    BombExploded,
    CardTaken,
    DogMoved,
    DogOut,
    LastPlayer,
    RoundEnded,
    RoundStarted,
    ShepherdStays,
    WolfNoTarget,
)
from games.sheep_showdown.state import (
    BLOCKER,
    PLACE,
    ROCKET,
    SHEPHERD,
    STEAL,
    STEP,
    USE_CARD,
    WOLF_DOG,
)

from .helpers import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    block,
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


def _diagonal_layout() -> list[int]:
    """The 7x7 composition with its five shepherds touching only at corners and
    both sliding sheep inside the outer ring."""
    size = 7
    rest = list(C.deck(size))
    grid = [C.EMPTY] * (size * size)
    shepherds = [(1, 1), (2, 2), (3, 3), (2, 4), (1, 5)]
    slides = [(4, 2), (4, 4)]
    for row, col in shepherds:
        grid[row * size + col] = C.SHEPHERD
        rest.remove(C.SHEPHERD)
    for row, col in slides:
        grid[row * size + col] = C.SLIDING
        rest.remove(C.SLIDING)
    for cell, card in enumerate(grid):
        if card == C.EMPTY:
            grid[cell] = rest.pop()
    assert not rest
    return grid


def test_diagonal_shepherds_are_left_where_they_were_dealt() -> None:
    """ "ensure that no two shepherd cards are directly next to each other
    horizontally or vertically; if they are, move one to the next available spot.
    Note that diagonal adjacency is allowed." A meadow whose shepherds touch only
    diagonally breaks no rule, and the set-up moves none of its cards."""
    grid = _diagonal_layout()
    assert C.layout_ok(grid, 7)
    assert C.repair_layout(grid[:], 7) == grid


def test_cards_a_bomb_and_a_blocking_sheep_removed_are_dealt_again_next_round() -> None:
    """Kowalski: "The exploded cards, including the bomb, are removed from the game
    for this round." Next Round: "gather all the cards, shuffle them thoroughly,
    and then randomly distribute them again." The bomb, the cards around it and a
    blocked sheep with its blocking sheep all leave round 1; round 2's meadow is the
    whole 49-card composition again."""
    rows = [
        "SX#1...",
        "11.....",
        ".......",
        ".......",
        ".......",
        ".......",
        "....11S",
    ]
    state = position(rows, {0: (0, 0), 1: (6, 6)}, rounds=2)
    events = step(state, RIGHT)
    assert payloads(events, BombExploded) == [BombExploded(0, 0, 0, 1, 6)]
    assert state.out[0] and state.bonus_player == 1
    assert sorted(state.removed) == sorted(
        [C.SHEPHERD, C.BOMB, C.SHEEP1, C.BLOCKING, C.SHEEP1, C.SHEEP1]
    )
    step(state, LEFT)
    events = step(state, LEFT)
    assert payloads(events, RoundEnded)[0].reason == "last_steps"
    assert payloads(events, RoundStarted)[0].round == 2
    assert state.round == 2 and state.pending == PLACE
    assert sorted(state.grid) == sorted(C.deck(7))
    assert state.removed == [] and state.flocks == [[], []]


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


def test_a_blown_up_players_flock_still_scores() -> None:
    """Kowalski: "The round ends for players who stand on an exploded card ...
    The sheep they have collected up to that point still count toward the final
    score." Seat 0 blows itself up holding a 5-sheep and a wolf: 4 points."""
    rows = ["SX...", ".....", ".....", ".....", "..11S"]
    state = position(rows, {0: (0, 0), 1: (4, 4)}, flocks={0: [C.SHEEP5, C.WOLF]})
    step(state, RIGHT)
    assert state.out[0] and state.bonus_player == 1
    step(state, LEFT)
    step(state, LEFT)
    assert state.terminal
    record = state.result().details["players"][0]["rounds"][0]
    assert (record["sheep_points"], record["wolves"], record["round_score"]) == (5, 1, 4)
    assert state.result().scores == (4.0, 2.0) and state.result().ranks == (1, 2)


def test_double_trouble_a_bomb_does_not_blow_up_a_dog_already_lying_flat() -> None:
    """Double Trouble: "Lay the blocked dog flat on its position". Kowalski: "all
    adjacent cards explode, including diagonal cards". A dog already out that
    lies in the blast stays out where it lies: its card is removed, it is not out
    a second time and the mover gets no steal for it; the opponent plays on."""
    rows = [".....", "SX...", "..S..", "1...1", "S...S"]
    dogs = {0: (1, 0), 1: (4, 0), 2: (2, 2), 3: (4, 4)}
    state = position(rows, dogs, double_trouble=True, out_dogs=(2,), flocks={1: [C.SHEEP5]})
    choose_dog(state, 0)
    events = step(state, RIGHT)
    assert payloads(events, BombExploded)[0].dog == 0
    assert [(d.dog, d.reason) for d in payloads(events, DogOut)] == [(0, "bomb")]
    assert state.card_at(2, 2) == C.EMPTY and where(state, 2) == (2, 2)
    assert state.flocks[1] == [C.SHEEP5]
    assert state.pending == STEP and state.to_move == 1 and state.moving == 3


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


def test_a_bomb_that_leaves_a_dog_outside_the_blast_stuck_has_blocked_it() -> None:
    """Kowalski: "all adjacent cards explode" and "You can steal cards from your
    opponents by blocking them or making them explode!" Dog 1 stands outside the
    blast, but its only step was onto a card the bomb removed: the mover, blown up
    too, blocked it and may take a card from seat 1; seat 2 plays on alone."""
    rows = ["..1..", "SX...", ".....", ".....", "...1S"]
    state = position(rows, {0: (1, 0), 1: (0, 3), 2: (4, 4)}, players=3, flocks={1: [C.SHEEP5]})
    events = step(state, RIGHT)
    assert payloads(events, BombExploded)[0].removed == 3
    outs = [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)]
    assert outs == [(0, "bomb", 0), (1, "blocked", 0)]
    assert state.pending == STEAL and state.to_move == 0 and state.steal_queue == [1]
    steal(state, take=True)
    assert state.flocks[0] == [C.SHEEP5] and state.flocks[1] == []
    assert state.bonus_player == 2 and state.to_move == 2


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


def test_the_last_players_move_through_a_shepherd_card_is_one_of_the_two() -> None:
    """End of the Round: "That player must make two more moves." A move is the
    step and what its card does: a step onto a shepherd card and the jump to
    another shepherd card count as one move, and the round ends after the second."""
    rows = ["S1.1.", ".1..S", ".S...", ".....", "....."]
    state = position(rows, {0: (1, 1), 1: (0, 0)})
    step(state, UP)  # blocks dog 1: seat 0 is the last player
    assert state.bonus_player == 0 and state.bonus_left == 2
    step(state, DOWN)
    assert state.bonus_left == 1
    events = step(state, DOWN)  # onto the shepherd card at (2,1)
    assert state.pending == SHEPHERD and not state.terminal
    events = shepherd(state, 1, 4)
    assert where(state, 0) == (1, 4)
    assert payloads(events, RoundEnded)[0].reason == "last_steps" and state.terminal


def test_a_blocking_sheep_on_an_opponents_only_way_out_has_blocked_it() -> None:
    """Stealing Cards: "You can steal cards from your opponents by blocking them";
    Lambo: "Players cannot stand on a blocked card." Covering the one card dog 1
    could step onto blocks it, and the player who placed the blocking sheep may
    take a card from seat 1's flock."""
    rows = ["S1...", ".....", "1B...", ".....", "....S"]
    state = position(rows, {0: (2, 0), 1: (0, 0), 2: (4, 4)}, players=3, flocks={1: [C.SHEEP5]})
    step(state, RIGHT)
    events = block(state, 0, 1)
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert state.pending == STEAL and state.to_move == 0 and state.steal_queue == [1]


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


def test_a_second_bomb_in_the_blast_is_removed_without_going_off() -> None:
    """Kowalski: "If you stand on this action card, all adjacent cards explode ...
    The exploded cards, including the bomb, are removed from the game for this
    round." A bomb goes off when a dog stands on it: a second bomb among the
    exploded cards is removed like any of them, and the cards and the dog around
    it but outside the first blast stay (with 5 or 6 players the meadow holds two
    bombs)."""
    rows = ["S.1..", "SX.1.", "..X2.", "..3S1", "....."]
    state = position(rows, {0: (1, 0), 1: (3, 3)})
    events = step(state, RIGHT)
    assert payloads(events, BombExploded) == [BombExploded(0, 0, 1, 1, 5)]
    assert sorted(state.removed) == sorted([C.SHEPHERD, C.SHEPHERD, C.SHEEP1, C.BOMB, C.BOMB])
    assert [(d.dog, d.reason) for d in payloads(events, DogOut)] == [(0, "bomb")]
    assert not state.out[1] and state.bonus_player == 1
    for (row, col), card in {(1, 3): C.SHEEP1, (2, 3): C.SHEEP2, (3, 2): C.SHEEP3}.items():
        assert state.card_at(row, col) == card


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


@pytest.mark.parametrize(
    ("players", "double_trouble", "size", "dogs"),
    [
        (2, False, 7, 2),
        (3, False, 7, 3),
        (4, False, 7, 4),
        (2, True, 7, 4),
        (5, False, 9, 5),
        (6, False, 9, 6),
    ],
)
def test_every_dog_gets_its_own_shepherd_card_at_every_table(
    players: int, double_trouble: bool, size: int, dogs: int
) -> None:
    """Contents: "6 x Shepherd", and "Cards needed for 2-4 players (7 x 7 grid)":
    "5 x Shepherd"; 5-6 players "Use all 81 cards". Ready to Go: "The first player
    places their dog on a shepherd card ... Dogs cannot be on the same card."
    Double Trouble (2 players, on the 7x7 meadow): "both players have two dogs".
    Each placing offers exactly the shepherd cards no dog is on yet: 5 on 7x7 and
    6 on 9x9 at first, one fewer for each dog placed, so six players on 9x9 leave
    the last of them a single card."""
    shepherds = 5 if size == 7 else 6
    for seed in range(5):
        state = GAME.new_state(players, seed, {"double_trouble": double_trouble})
        assert state.size == size and sorted(state.grid) == sorted(C.deck(size))
        assert state.grid.count(C.SHEPHERD) == shepherds
        offered = []
        while state.pending == PLACE:
            free = {cell for cell, card in enumerate(state.grid) if card == C.SHEPHERD} - {
                cell for cell in state.pos if cell >= 0
            }
            actions = state.legal_actions()
            assert {a.row * size + a.col for a in actions} == free
            offered.append(len(actions))
            state.apply(actions[seed % len(actions)])
        assert offered == [shepherds - placed for placed in range(dogs)]
        assert len(set(state.pos)) == dogs
        assert all(state.grid[cell] == C.SHEPHERD for cell in state.pos)


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


def test_a_round_in_which_no_dog_can_step_ends_at_once_and_the_next_is_dealt() -> None:
    """ "The round is played until only one player can still move freely": when
    no dog can step at the start, nobody plays a turn. The round ends at once,
    its flocks score, and the next round is dealt; the player with the fewest
    points places first and the other moves first."""
    rows = ["S" + "." * 6, *["." * 7] * 6]
    state = position(rows, {0: (0, 0), 1: (6, 6)}, rounds=2, flocks={0: [C.SHEEP5], 1: [C.SHEEP1]})
    seen = state.observation(0)
    assert seen.round == 2 and seen.round_scores == ((5, 1),) and seen.totals == (5, 1)
    assert seen.first_player == 1 and seen.decision == "place_dog" and seen.to_move == 1


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


def test_double_trouble_the_last_players_wolf_pushes_nobody() -> None:
    """Seat 1 is out, so seat 0 makes the two last moves. The wolf seat 0 takes
    must move "an opponent's dog": none is left in, so it moves nothing, not even
    seat 0's other dog, which could step; the wolf's move is one of the two."""
    rows = ["W1...", "11...", ".....", "...11", "...1S"]
    dogs = {0: (1, 0), 1: (0, 1), 2: (3, 3), 3: (4, 4)}
    state = position(rows, dogs, double_trouble=True, out_dogs=(2, 3))
    assert state.observation(0).last_player == 0
    choose_dog(state, 0)
    events = step(state, UP)
    assert payloads(events, WolfNoTarget) == [WolfNoTarget(0)] and state.flocks[0] == [C.WOLF]
    assert where(state, 1) == (0, 1) and state.observation(0).last_steps_left == 1


def test_placing_a_blocking_sheep_can_be_the_games_last_action() -> None:
    """The last player's second move lands on a blocking sheep: placing it is
    part of that move, and the game ends once it is placed."""
    rows = ["B1...", "1....", ".....", ".....", "....2"]
    state = position(rows, {0: (1, 1), 1: (4, 4)}, out_dogs=(1,))
    step(state, LEFT)
    step(state, UP)
    assert state.pending == BLOCKER and [(a.row, a.col) for a in state.legal_actions()] == [(0, 1)]
    events = block(state, 0, 1)
    assert [e.reason for e in payloads(events, RoundEnded)] == ["last_steps"]
    assert state.terminal and state.result().scores == (1.0, 0.0)


def test_a_steal_can_be_the_last_action_of_the_final_round() -> None:
    """Round 3 of 3: seat 0 takes the 2 that was seat 1's only way out and is
    stuck itself, so the round and the game end once seat 0 has decided the
    steal; the card taken counts in seat 0's final total."""
    state = position(
        [".2.", "...", "..."],
        {0: (1, 1), 1: (0, 0)},
        flocks={1: [C.SHEEP5]},
        rounds=3,
        round=3,
        totals=[10, 12],
    )
    step(state, UP)
    assert not state.terminal and state.pending == STEAL and state.to_move == 0
    events = steal(state, take=True)
    assert [e.reason for e in payloads(events, RoundEnded)] == ["nobody_left"]
    assert state.terminal and state.result().scores == (17.0, 12.0)
    assert [len(p["rounds"]) for p in state.result().details["players"]] == [3, 3]


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


def test_double_trouble_a_bomb_that_takes_the_movers_other_dog_ends_the_movers_round() -> None:
    """Seat 0's dog 0 sets off a bomb beside its own dog 1 and seat 1's dog 2. All
    three are out: seat 0 has no dog left, and may steal for seat 1's dog only,
    never for its own; seat 1 plays on with dog 3 as the last player."""
    rows = ["X....", ".....", ".....", "...11", "1..1."]
    dogs = {0: (1, 0), 1: (0, 1), 2: (1, 1), 3: (4, 4)}
    state = position(rows, dogs, double_trouble=True, flocks={1: [C.SHEEP2]})
    choose_dog(state, 0)
    events = step(state, UP)
    assert sorted(d.dog for d in payloads(events, DogOut)) == [0, 1, 2]
    assert state.legal_actions() == (Steal(1, True), Steal(1, False))
    steal(state, take=False)
    seen = state.observation(1)
    assert seen.players_in == (False, True) and seen.last_player == 1 and seen.last_steps_left == 2


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


def test_the_next_first_player_among_three_or_four_tied_comes_clockwise_after_the_last() -> None:
    """ "The player who scored the fewest points gets to start the next round";
    with three or four seats level, the tied seat first clockwise after the
    previous first player starts, which passes over the previous first player
    itself unless no other is tied. Seat 0 scores 1 this round."""
    rows = [".1.....", *["......."] * 6]
    dogs = {0: (0, 0), 1: (6, 6), 2: (6, 4), 3: (6, 2)}
    for previous, totals, expected in (
        (1, [9, 0, 0, 0], 2),
        (3, [0, 1, 9, 1], 0),
        (2, [4, 5, 5, 5], 3),
    ):
        state = position(
            rows,
            dogs,
            players=4,
            out_dogs=(1, 2, 3),
            rounds=3,
            first_player=previous,
            totals=totals,
        )
        step(state, RIGHT)
        seen = state.observation(0)
        assert seen.round == 2 and seen.first_player == expected, (previous, seen.totals)
        assert seen.decision == "place_dog" and seen.to_move == expected


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
