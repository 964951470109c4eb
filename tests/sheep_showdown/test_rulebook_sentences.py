"""Rulebook sentences that had no scenario of their own: diagonal shepherd cards
stay where they are dealt, and the cards a bomb or a blocking sheep took out of
a round are dealt again in the next one.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-showdown.md).
"""

from __future__ import annotations

from games.sheep_showdown import cards as C
from games.sheep_showdown.events import BombExploded, RoundEnded, RoundStarted
from games.sheep_showdown.state import PLACE

from .helpers import LEFT, RIGHT, payloads, position, step


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
