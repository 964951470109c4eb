"""Rule sentences at the meadow's edges, with every player count (six
included), a bomb on a last move, and a wolf chain in Double Trouble:
situations the other scenario files leave out."""

from __future__ import annotations

import pytest

from games.sheep_showdown import cards as C
from games.sheep_showdown.events import BombExploded, DogOut, RoundEnded
from games.sheep_showdown.state import STEAL, STEP, WOLF_DOG, WOLF_STEP

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


def test_six_players_two_blocked_at_once_and_a_stuck_one_left_for_its_own_turn() -> None:
    """With the largest player count: FAQ "It is also possible to block multiple
    players simultaneously, in which case you get to take a card from each of the
    blocked players!", while a player who was already stuck when the turn began was
    not blocked by it: no steal, and it stays in until its own turn ("If you cannot
    move to a new card on your turn, the round ends for you"), since seats 4 and 5
    can still move. Play then goes on clockwise past the two blocked seats."""
    rows = ["S1S..", ".S...", ".....", "...S1", "S..1S"]
    dogs = {0: (1, 1), 1: (0, 0), 2: (0, 2), 3: (4, 0), 4: (3, 3), 5: (4, 4)}
    flocks = {1: [C.SHEEP2], 2: [C.SHEEP3], 3: [C.SHEEP5]}
    state = position(rows, dogs, players=6, flocks=flocks)
    events = step(state, UP)
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [
        (1, "blocked", 0),
        (2, "blocked", 0),
    ]
    assert state.pending == STEAL and state.steal_queue == [1, 2]
    steal(state)
    assert state.pending == STEAL and state.steal_queue == [2]
    events = steal(state)
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP2, C.SHEEP3]
    assert state.flocks[3] == [C.SHEEP5]  # kept: nobody blocked seat 3
    # Seats 1 and 2 are skipped; seat 3's turn starts and ends at once.
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(3, "no_step", None)]
    out_at = state.out_at
    assert out_at[1] == out_at[2] is not None and out_at[3] is not None and out_at[3] > out_at[1]
    assert state.bonus_player is None
    assert state.pending == STEP and state.to_move == 4


def test_the_last_player_blown_up_on_a_last_move_ends_the_round_and_lasted_longest() -> None:
    """End of the round: "The round ends when those moves are completed or if the
    player can no longer move." A last player whose first last move sets off a
    bomb is out at once: no second move, the round is over. Tied on points with
    the player who went out before, they still lasted longer in the meadow and win
    ("In the case of a tie, the player who survived the longest in the meadow
    wins!")."""
    state = position(
        [".X1..", ".....", ".....", ".....", "....S"],
        {0: (0, 0), 1: (4, 4)},
        out_dogs=(1,),
        flocks={0: [C.SHEEP2], 1: [C.SHEEP2]},
    )
    assert state.bonus_player == 0 and state.bonus_left == 2
    events = step(state, RIGHT)
    assert [(d.dog, d.reason) for d in payloads(events, DogOut)] == [(0, "bomb")]
    assert payloads(events, RoundEnded)[0].reason == "nobody_left"
    assert state.terminal and state.out_at[0] is not None
    result = state.result()
    assert result.scores == (2.0, 2.0)
    assert result.ranks == (1, 2)
