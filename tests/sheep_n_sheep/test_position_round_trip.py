"""Every position of a random game, rebuilt with `from_position` from its own
parts (hands, market, deck, stock, pastures, discard, turn, phase and the
placement in progress, the cards seen entering each hand), shows every viewer
the same observation, offers the same actions and plays on the same."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_n_sheep.state import SheepNSheepState

from .play import GAME


def _rebuilt(state: SheepNSheepState) -> SheepNSheepState:
    players = state.players
    shown = state.observation(None)
    seat = state.to_move if state.to_move is not None else (state.turn % players)
    return SheepNSheepState.from_position(
        players,
        hands=[list(state.hand(s)) for s in range(players)],
        market=list(state.market),
        deck=list(state.deck),
        stock=list(state.stock),
        pastures=[state.pasture(s) for s in range(players)],
        discard=list(state.discard),
        seat=seat,
        turn=state.turn,
        last_turn=state.last_turn,
        phase=state.phase,
        placement=shown.placement,
        seen_in_hands=[sorted(set(state.hand(s)) & state._revealed) for s in range(players)],
    )


def _same(first: SheepNSheepState, second: SheepNSheepState) -> None:
    assert second.to_move == first.to_move
    assert second.legal_actions() == first.legal_actions()
    for seat in (None, *range(first.players)):
        assert second.observation(seat) == first.observation(seat)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_position_of_a_game_rebuilds_and_plays_on_the_same(players: int, seed: int) -> None:
    state = GAME.new_state(players, seed)
    assert isinstance(state, SheepNSheepState)
    rng = random.Random(seed)
    rebuilt = 0
    while not state.terminal:
        again = _rebuilt(state)
        _same(state, again)
        legal = state.legal_actions()
        choice = rng.randrange(len(legal))
        assert again.apply(again.legal_actions()[choice]) == state.apply(legal[choice])
        _same(state, again)
        rebuilt += 1
    assert rebuilt > 0
