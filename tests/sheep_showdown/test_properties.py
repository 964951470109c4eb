"""Property tests over random legal games (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.state import PLACE, SheepShowdownState

from .helpers import random_game

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, dict[str, object]]:
    players = draw(st.integers(2, 6))
    dt = players == 2 and draw(st.booleans())
    rounds = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    return players, seed, {"double_trouble": dt, "rounds": rounds}


def check_invariants(state: SheepShowdownState) -> None:
    deck = C.deck(state.size)
    # cards are conserved: grid (a blocked cell holds two) + flocks + removed
    assert Counter(state.all_cards()) == Counter(deck), state.render()
    # flocks only ever hold sheep and wolves
    assert all(C.is_sheep(card) or card == C.WOLF for flock in state.flocks for card in flock)
    # dogs: distinct cells, occupancy agrees
    placed = [cell for cell in state.pos if cell >= 0]
    assert len(placed) == len(set(placed))
    for cell, dog in enumerate(state.occ):
        assert dog < 0 or state.pos[dog] == cell
    if state.pending != PLACE:
        assert all(cell >= 0 for cell in state.pos) or state.terminal
    # players in <=> some dog not out
    for seat in range(state.players):
        alive = any(
            not state.out[d] for d in range(seat * state.dogs_per, (seat + 1) * state.dogs_per)
        )
        assert (state.out_at[seat] is None) == alive or state.terminal
    obs = state.observation(None)
    assert obs.flock_sizes == tuple(len(f) for f in state.flocks)
    assert obs.own_flock == ()
    for seat in range(state.players):
        assert state.observation(seat).own_flock == tuple(sorted(state.flocks[seat]))
    assert state.clock <= state.cap


@SETTINGS
@given(setups())
def test_random_games_end_and_conserve_cards(setup: tuple[int, int, dict[str, object]]) -> None:
    """Games always end; every decision has a legal action; cards are conserved;
    the observation agrees with the state."""
    players, seed, options = setup
    state = GAME.new_state(players, seed, options)
    chooser = random.Random(seed)
    decisions = 0
    while not state.terminal:
        actions = state.legal_actions()
        assert actions, state.render()
        assert len(set(actions)) == len(actions)
        assert all(action.label for action in actions)
        state.apply(chooser.choice(actions))
        check_invariants(state)
        decisions += 1
        assert decisions < 50_000
    assert state.legal_actions() == ()
    result = state.result()
    assert len(result.scores) == players and min(result.ranks) == 1
    assert len(result.details["players"][0]["rounds"]) == options["rounds"]


@SETTINGS
@given(setups())
def test_replay_from_seed_and_indices_is_identical(
    setup: tuple[int, int, dict[str, object]],
) -> None:
    """Same seed, options and action indices give the same game, bit for bit."""
    players, seed, options = setup
    first, indices, history = random_game(players, seed, options)
    replay = GAME.new_state(players, seed, options)
    replayed = [replay.apply(replay.legal_actions()[index]) for index in indices]
    assert replayed == history
    assert replay.result() == first.result()
    assert replay.render() == first.render()


@SETTINGS
@given(setups(), st.integers(0, 400))
def test_clone_is_independent(setup: tuple[int, int, dict[str, object]], cut: int) -> None:
    """A clone plays on without touching the original, and plays exactly like
    the original would (the generator is copied too)."""
    players, seed, options = setup
    state = GAME.new_state(players, seed, options)
    chooser = random.Random(seed)
    for _ in range(cut):
        if state.terminal:
            break
        state.apply(chooser.choice(state.legal_actions()))
    before = (state.render(), [state.observation(s) for s in range(players)], state.legal_actions())
    twin = state.clone()
    copy = state.clone()
    moves = random.Random(seed + 1)
    trail = []
    while not copy.terminal:
        index = moves.randrange(len(copy.legal_actions()))
        trail.append(index)
        copy.apply(copy.legal_actions()[index])
    assert (
        state.render(),
        [state.observation(s) for s in range(players)],
        state.legal_actions(),
    ) == before
    for index in trail:
        twin.apply(twin.legal_actions()[index])
    assert twin.render() == copy.render()
    assert twin.result() == copy.result()
