"""Every position of a random game, rebuilt with `from_position` from its own
parts (landscape, display, deck, objective slots, seat to move), shows every
viewer the same observation, offers the same actions and plays on the same."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_and_garden import GAME
from games.sheep_and_garden.state import SheepAndGardenState


def _rebuilt(state: SheepAndGardenState) -> SheepAndGardenState:
    again = SheepAndGardenState.from_position(
        state.players,
        [(tile.tile, tile.x, tile.y, tile.rotation) for tile in state.placed],
        list(state.display),
        list(state._deck),
        slots=state.slots,
        to_move=state.to_move,
        end_reason=state.end_reason,
    )
    # A later reshuffle draws on the generator: carry it over, as a clone does.
    again._rng.setstate(state._rng.getstate())
    return again


def _same(first: SheepAndGardenState, second: SheepAndGardenState) -> None:
    assert second.to_move == first.to_move
    assert second.legal_actions() == first.legal_actions()
    for seat in (None, *range(first.players)):
        assert second.observation(seat) == first.observation(seat)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_every_position_of_a_game_rebuilds_and_plays_on_the_same(players: int, seed: int) -> None:
    state = GAME.new_state(players, seed)
    assert isinstance(state, SheepAndGardenState)
    rng = random.Random(seed)
    rebuilt = 0
    while state.to_move is not None:
        again = _rebuilt(state)
        _same(state, again)
        legal = state.legal_actions()
        choice = rng.randrange(len(legal))
        assert again.apply(again.legal_actions()[choice]) == state.apply(legal[choice])
        _same(state, again)
        rebuilt += 1
    _same(state, _rebuilt(state))
    assert rebuilt > 0
