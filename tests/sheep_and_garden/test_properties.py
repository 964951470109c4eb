"""Property tests over random seeded games, 1 to 4 players: games end, tiles are
conserved, the landscape always obeys the matching rule, replays are identical and
clones independent (DESIGN.md "Quality bar")."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import TILE_COUNT

from .helpers import mismatches, play_random

players_st = st.integers(min_value=1, max_value=4)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=100, deadline=None)


@FAST
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_games_end_and_conserve_tiles(players: int, seed: int, choice_seed: int) -> None:
    state = GAME.new_state(players, seed)
    rng = random.Random(choice_seed)
    decisions = 0
    while state.to_move is not None:
        actions = state.legal_actions()
        assert actions, state.render()
        assert len(actions) == len(set(actions))
        tiles = [p.tile for p in state.placed] + list(state.display) + list(state._deck)
        assert sorted(tiles) == list(range(TILE_COUNT)), state.render()
        obs = state.observation(state.to_move)
        assert len(obs.placed) + len(obs.display) + obs.deck_size == TILE_COUNT
        assert obs.to_move == state.to_move and not obs.finished
        state.apply(actions[rng.randrange(len(actions))])
        decisions += 1
    assert decisions <= TILE_COUNT - 1
    assert mismatches(state.board) == [], state.render()
    assert len(state.board) == len(state.placed) == decisions + 1
    obs = state.observation(None)
    assert obs.finished and obs.to_move is None and obs.end_reason == state.end_reason
    result = state.result()
    assert len(result.scores) == len(result.ranks) == players
    floor = GAME.lowest_score(players)
    assert floor is None or min(result.scores) >= floor


@FAST
@given(players=players_st, seed=seed_st, choice_seed=seed_st)
def test_replay_from_seed_and_indices_is_identical(
    players: int, seed: int, choice_seed: int
) -> None:
    state, indices, events = play_random(players, seed, choice_seed)
    again = GAME.new_state(players, seed)
    replayed = list(again.setup_events)
    for index in indices:
        replayed.extend(again.apply(again.legal_actions()[index]))
    assert replayed == events
    assert again.result() == state.result()
    assert again.render() == state.render()


@FAST
@given(players=players_st, seed=seed_st, steps=st.integers(min_value=0, max_value=30))
def test_clone_is_independent(players: int, seed: int, steps: int) -> None:
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.to_move is None:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    if state.to_move is None:
        return
    copy = state.clone()
    before = (state.render(), state.observation(None), state.legal_actions(), state.deck_size)
    while copy.to_move is not None:
        copy.apply(copy.legal_actions()[-1])
    assert (state.render(), state.observation(None), state.legal_actions(), state.deck_size) == (
        before
    )
    # The clone carries the generator too: the same moves give the same game.
    twin = state.clone()
    action = state.legal_actions()[0]
    assert state.apply(action) == twin.apply(action)
    assert state.render() == twin.render()
