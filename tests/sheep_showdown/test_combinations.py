"""Rule sentences at the meadow's edges, with every player count, and a wolf
chain in Double Trouble: situations the other scenario files leave out."""

from __future__ import annotations

import pytest

from games.sheep_showdown import cards as C
from games.sheep_showdown.events import BombExploded, DogOut
from games.sheep_showdown.state import WOLF_DOG, WOLF_STEP

from .helpers import (
    DOWN,
    RIGHT,
    UP,
    choose_dog,
    directions,
    payloads,
    position,
    steal,
    step,
    wolf_dog,
)


def test_a_bomb_on_the_edge_explodes_only_the_cards_next_to_it() -> None:
    """Kowalski: "all adjacent cards explode, including diagonal cards". A bomb on
    the right edge has five neighbours; the cards that follow it in reading order
    at the start of the next row (1,0) and (2,0) are not next to it, and the dog
    standing on (2,0) stays in."""
    rows = ["1111S", "1111X", "S1111", "11111", "11111"]
    state = position(rows, {0: (0, 4), 1: (2, 0)})
    events = step(state, DOWN)
    assert payloads(events, BombExploded) == [BombExploded(0, 0, 1, 4, 6)]
    gone = {(0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)}
    for row in range(5):
        for col in range(5):
            assert (state.card_at(row, col) == C.EMPTY) == ((row, col) in gone), (row, col)
    assert [(d.dog, d.reason) for d in payloads(events, DogOut)] == [(0, "bomb")]
    assert not state.out[1] and state.to_move == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ties_on_points_rank_by_who_lasted_longest_with_any_player_count(players: int) -> None:
    """ "In case of a tie, the player who lasted the longest in the meadow during
    the final round wins" (the quick game: "the player who survived the longest").
    Every seat but 0 ends on 2 points. The last seat, blocked by seat 0 in turn 1,
    lasted longer than the seats already out when the round began, which share
    the rank after it (out in the same turn); seat 0 has most points and wins."""
    rows = ["S1S..", ".1...", ".1...", ".....", "....."]
    last = players - 1
    dogs = {0: (0, 0), last: (0, 2)}
    dogs.update({seat: (4, seat - 1) for seat in range(1, last)})
    flocks = {seat: [C.SHEEP2] for seat in range(1, players)}
    state = position(rows, dogs, players=players, out_dogs=tuple(range(1, last)), flocks=flocks)
    events = step(state, RIGHT)
    assert [(d.dog, d.reason) for d in payloads(events, DogOut)] == [(last, "blocked")]
    steal(state, take=False)
    assert state.bonus_player == 0
    step(state, DOWN)
    step(state, DOWN)
    assert state.terminal
    result = state.result()
    assert result.scores == (3.0,) + (2.0,) * (players - 1)
    assert result.ranks == (1,) + (3,) * (players - 2) + (2,)


def test_double_trouble_a_second_wolf_pushes_either_dog_of_the_first_player() -> None:
    """Scar: "if the dog ends up on another wolf card, the player of the moved dog
    must immediately move another opponent's dog". In Double Trouble seat 0's dog
    takes a wolf and pushes seat 1's dog onto another: seat 1 may push either of
    seat 0's dogs, and never its own other dog."""
    rows = ["SW1..", ".....", ".SW..", "1...1", "S...S"]
    dogs = {0: (0, 0), 1: (4, 0), 2: (2, 1), 3: (4, 4)}
    state = position(rows, dogs, double_trouble=True)
    choose_dog(state, 0)
    step(state, RIGHT)
    assert state.pending == WOLF_DOG and [a.dog for a in state.legal_actions()] == [2, 3]
    wolf_dog(state, 2)
    assert directions(state) == {RIGHT}
    step(state, RIGHT)
    assert state.flocks == [[C.WOLF], [C.WOLF]]
    assert state.pending == WOLF_DOG and state.to_move == 1
    assert [a.dog for a in state.legal_actions()] == [0, 1]
    wolf_dog(state, 1)
    assert state.pending == WOLF_STEP and state.to_move == 1
    step(state, UP)  # onto the 1-sheep: seat 0's dog takes it for seat 0
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.WOLF]
