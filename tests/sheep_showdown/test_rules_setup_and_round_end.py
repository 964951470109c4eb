"""Rulebook sentences of the set-up and of a round's end that had no scenario of
their own: diagonal shepherd cards stay where they are dealt; every dog gets a
shepherd card of its own at every table (5 shepherd cards on 7x7, 6 on 9x9); the
cards a bomb or a blocking sheep took out of a round are dealt again in the next
one; a blown-up player's flock still scores; the last player's move through a
shepherd card is one of the two; a round in which no dog can step ends at once;
the last player's wolf pushes nobody; placing a blocker or a steal can be the
game's last action; the next first player among three or four tied.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-showdown.md).
"""

from __future__ import annotations

import pytest

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.events import BombExploded, RoundEnded, RoundStarted, WolfNoTarget
from games.sheep_showdown.state import BLOCKER, PLACE, SHEPHERD, STEAL

from .helpers import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    block,
    choose_dog,
    payloads,
    position,
    shepherd,
    steal,
    step,
    where,
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


def test_double_trouble_the_last_players_wolf_pushes_nobody() -> None:
    """Seat 1 is out, so seat 0 makes the two last moves. The wolf seat 0 takes
    must move "an opponent's dog": none is left in, so it moves nothing, not even
    seat 0's other dog, which could step; the wolf's move is one of the two."""
    rows = ["W1...", "11...", ".....", "....1", "...1S"]
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
    rows = ["B1...", "1....", ".....", ".....", "....."]
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
