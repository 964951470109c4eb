"""A game played at random with every position rebuilt beside it: the rebuilt
state must show every viewer the same observation, offer the same actions and
play on the same. Each game's test says how to rebuild its positions
(`from_position` from the state's own parts)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from games.contract import State

S = TypeVar("S", bound=State)


def assert_same(first: State, second: State) -> None:
    """`second` shows every viewer what `first` does and offers the same actions."""
    assert second.to_move == first.to_move
    assert second.legal_actions() == first.legal_actions()
    for seat in (None, *range(first.players)):
        assert second.observation(seat) == first.observation(seat)


def play_rebuilding(state: S, rebuilt: Callable[[S], S], seed: int) -> S:
    """Play `state` to its end at random (`seed`), each position rebuilt and
    checked before and after the same move is applied to both; the last state."""
    rng = random.Random(seed)
    moves = 0
    while state.to_move is not None:
        again = rebuilt(state)
        assert_same(state, again)
        legal = state.legal_actions()
        choice = rng.randrange(len(legal))
        assert again.apply(again.legal_actions()[choice]) == state.apply(legal[choice])
        assert_same(state, again)
        moves += 1
    assert moves > 0
    return state
