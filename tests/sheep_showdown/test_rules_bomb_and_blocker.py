"""Rulebook sentences of the bomb and the blocking sheep that had no scenario of
their own: a bomb does not blow up a Double Trouble dog already lying flat; a
bomb's blast that leaves an opponent's dog stuck has blocked it; a second bomb
in a blast is removed without going off; a bomb that takes the mover's other dog
ends the mover's round; a blocking sheep can block; the victims of one blast
are asked about in the blast's reading order.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-showdown.md).
"""

from __future__ import annotations

from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import Steal
from games.sheep_showdown.events import BombExploded, DogOut
from games.sheep_showdown.state import STEAL, STEP

from .helpers import RIGHT, UP, block, choose_dog, payloads, position, steal, step, where


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


def test_a_bombs_victims_are_asked_about_in_the_blasts_reading_order() -> None:
    """Stealing Cards: "You can steal cards from your opponents by ... making them
    explode!" With two opponents in one blast, the mover is asked about each in the
    order their dogs went out: the blast's cells row by row, left to right, not by
    dog number. Dog 2 stands above the bomb, dog 1 below it, so seat 2 is asked
    first."""
    rows = ["11111", "1.111", "1X111", "11.11", "22222"]
    state = position(rows, {0: (2, 0), 1: (3, 2), 2: (1, 1)}, players=3, flocks={1: [1], 2: [2]})
    events = step(state, RIGHT)
    assert [d.dog for d in payloads(events, DogOut)] == [2, 0, 1]
    assert state.pending == STEAL and state.to_move == 0
    asked = []
    while state.pending == STEAL:
        asked.append(state.steal_queue[0])
        steal(state, take=False)
    assert asked == [2, 1]
