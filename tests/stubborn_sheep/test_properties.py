"""Property tests over random seeded games: 1-5 players, all four option combinations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import IllegalAction
from games.stubborn_sheep import GAME
from games.stubborn_sheep.actions import PickSheep
from games.stubborn_sheep.state import StubbornSheepState

from .helpers import random_game

OPTION_SETS = [
    {},
    {"wolf": True},
    {"bonus_actions": True},
    {"wolf": True, "bonus_actions": True},
]
players_st = st.integers(min_value=1, max_value=5)
options_st = st.sampled_from(OPTION_SETS)
seeds_st = st.integers(min_value=0, max_value=2**32 - 1)


def _sheep_count(state: StubbornSheepState) -> list[int]:
    cards = [card for area in state.areas for card in area]
    cards += state.sheep_pile + state.discard
    cards += [card for piles in state.scored for pile in piles for card in pile]
    return sorted(cards)


def _fence_count(state: StubbornSheepState) -> list[int]:
    cards = [card for stack in state.stacks for card in stack]
    cards += [card for hand in state.hands for card in hand]
    return sorted(cards + state.fence_pile + state.fence_box)


def _check_observation(state: StubbornSheepState) -> None:
    for seat in [None, *range(state.players)]:
        obs = state.observation(seat)
        assert obs.to_move == state.to_move
        assert [list(a.sheep) for a in obs.areas] == state.areas
        assert [f.card for f in obs.fences] == [s[-1] for s in state.stacks]
        assert obs.hand == (tuple(state.hands[seat]) if seat is not None else ())
        assert obs.hand_sizes == tuple(len(h) for h in state.hands)
        assert obs.sheep_pile == len(state.sheep_pile)
        assert obs.fence_pile == len(state.fence_pile)


@settings(max_examples=150, deadline=None)
@given(players=players_st, options=options_st, seed=seeds_st)
def test_random_games_end_and_conserve_every_card(players, options, seed) -> None:
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    everything_sheep = list(range(78))
    everything_fence = list(range(35))
    steps = 0
    while not state.terminal:
        legal = state.legal_actions()
        assert legal, state.render()
        assert len(set(legal)) == len(legal)
        assert all(action.label for action in legal)
        assert state.prompt()
        if steps % 7 == 0:
            _check_observation(state)
        state.apply(legal[rng.randrange(len(legal))])
        assert _sheep_count(state) == everything_sheep
        assert _fence_count(state) == everything_fence
        if state.wolf_option:
            assert state.area_owner[state.wolf] < 0
        steps += 1
        assert steps < 20_000
    assert state.legal_actions() == ()
    assert state.fence_pile == [] and all(hand == [] for hand in state.hands)
    result = state.result()
    assert result.scores == tuple(float(state.points(s)) for s in range(players))
    assert min(result.ranks) == 1
    assert len(result.details["players"]) == players
    _check_observation(state)


@settings(max_examples=60, deadline=None)
@given(players=players_st, options=options_st, seed=seeds_st)
def test_replay_from_seed_and_indices_is_identical(players, options, seed) -> None:
    state, indices, events = random_game(players, seed, options)
    again = GAME.new_state(players, seed, options)
    replayed = []
    for index in indices:
        replayed.extend(again.apply(again.legal_actions()[index]))
    assert replayed == events
    assert again.result() == state.result()
    assert again.render() == state.render()


@settings(max_examples=40, deadline=None)
@given(players=players_st, options=options_st, seed=seeds_st)
def test_clone_is_independent(players, options, seed) -> None:
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    while not state.terminal:
        legal = state.legal_actions()
        if rng.random() < 0.05:
            before = (state.observation(None), state.render(), legal, state.rng.getstate())
            twin = state.clone()
            twin_rng = random.Random(seed + 1)
            while not twin.terminal:
                options_now = twin.legal_actions()
                twin.apply(options_now[twin_rng.randrange(len(options_now))])
            after = (state.observation(None), state.render(), state.legal_actions())
            assert after == before[:3] and state.rng.getstate() == before[3]
            # The same choices from a fresh clone give the same events.
            a, b = state.clone(), state.clone()
            choice = legal[rng.randrange(len(legal))]
            assert a.apply(choice) == b.apply(choice)
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_illegal_actions_are_refused_and_change_nothing(players: int) -> None:
    state = GAME.new_state(players, 99, {"bonus_actions": True, "wolf": True})
    rng = random.Random(3)
    refused = 0
    while not state.terminal:
        legal = state.legal_actions()
        before = (state.render(), state.observation(None), legal)
        for bad in (PickSheep(-1), "place", None):
            with pytest.raises(IllegalAction):
                state.apply(bad)
            refused += 1
        assert (state.render(), state.observation(None), state.legal_actions()) == before
        state.apply(legal[rng.randrange(len(legal))])
    with pytest.raises(IllegalAction):
        state.apply(PickSheep(0))
    assert refused > 0
