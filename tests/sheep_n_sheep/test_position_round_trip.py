"""Every position of a random game, rebuilt with `from_position` from its own
parts (hands, market, deck, stock, pastures, discard, turn, phase and the
placement in progress, the cards seen entering each hand), shows every viewer
the same observation, offers the same actions and plays on the same."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_n_sheep.state import SheepNSheepState
from tests.position_round_trip import play_rebuilding

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


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_position_of_a_game_rebuilds_and_plays_on_the_same(players: int, seed: int) -> None:
    state = GAME.new_state(players, seed)
    assert isinstance(state, SheepNSheepState)
    play_rebuilding(state, _rebuilt, seed)
