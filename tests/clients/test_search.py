"""The search bots' machinery (clients/bots/search.py) on a real game: the fast
valuation path agrees with applying each action, greedy rollouts play greedy's
action, `tree_depth` bounds the tree, and every root action is searched on the
same sequence of sampled worlds."""

from __future__ import annotations

import dataclasses
import random

import pytest

import games
from clients.bots.search import (
    PRIOR_VISITS,
    MCTSBot,
    _Node,
    _Rollout,
    action_values,
    greedy_index,
)
from clients.sdk import DecisionView
from games.ai import get_ai
from games.contract import State
from tests.clients.search_views import decision_view

GAME = "sheep-and-garden"


def _position(players: int, seed: int, moves: int) -> State:
    state = games.get(GAME).new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _view(state: State) -> DecisionView:
    return decision_view(GAME, state)


@pytest.mark.parametrize(("players", "moves"), [(1, 5), (2, 9), (2, 35), (4, 20)])
def test_fast_action_values_equal_applying_each_action(players: int, moves: int) -> None:
    ai = get_ai(GAME)
    assert ai.evaluate_after is not None
    slow_ai = dataclasses.replace(ai, evaluate_after=None)
    state = _position(players, 40 + moves, moves)
    seat = state.to_move
    assert seat is not None
    fast = action_values(state, ai, seat, 0.0)
    slow = action_values(state, slow_ai, seat, 0.0)
    assert fast == pytest.approx(slow, abs=1e-8)
    assert len(set(fast)) > 1  # the positions give the comparison something to tell apart


def test_greedy_index_is_one_of_the_best_valued() -> None:
    ai = get_ai(GAME)
    state = _position(2, 7, 10)
    seat = state.to_move
    assert seat is not None
    values = action_values(state, ai, seat, 0.0)
    best = {a for a, v in zip(state.legal_actions(), values, strict=True) if v == max(values)}
    actions = state.legal_actions()
    chosen = {actions[greedy_index(state, ai, seat, 0.0, random.Random(k))] for k in range(10)}
    assert chosen <= best


class _Recording(MCTSBot):
    """Records, for each iteration, the root action searched, how often it had
    been searched before, the deck of the world it was searched in, and how
    deep the tree path went."""

    def __init__(self, **settings: object) -> None:
        super().__init__(seed=3, **settings)  # type: ignore[arg-type]
        self.calls: list[tuple[int, int, tuple[int, ...], int]] = []

    def _iterate(
        self, path: list[_Node], state: State, ai: object, tree_depth: int, rollout: _Rollout
    ) -> None:
        child = path[1]
        before = child.visits - PRIOR_VISITS
        deck = tuple(state._deck)  # type: ignore[attr-defined]
        super()._iterate(path, state, ai, tree_depth, rollout)  # type: ignore[arg-type]
        self.calls.append((id(child), before, deck, len(path)))


def test_tree_depth_one_searches_only_the_root_actions() -> None:
    view = _view(_position(2, 11, 6))
    shallow = _Recording(iterations=60, milliseconds=10_000, tree_depth=1, rollout_depth=1)
    shallow.decide(view)
    assert len(shallow.calls) == 60
    assert {depth for *_, depth in shallow.calls} == {2}
    deep = _Recording(iterations=60, milliseconds=10_000, tree_depth=1_000, rollout_depth=1)
    deep.decide(view)
    assert max(depth for *_, depth in deep.calls) > 2


def test_every_root_action_meets_the_same_worlds_in_the_same_order() -> None:
    view = _view(_position(2, 12, 8))
    bot = _Recording(iterations=80, milliseconds=10_000, tree_depth=1, rollout_depth=0)
    bot.decide(view)
    decks: dict[int, set[tuple[int, ...]]] = {}
    for _, before, deck, _ in bot.calls:
        decks.setdefault(before, set()).add(deck)
    indices = [k for k in decks if k < 8]  # 8 worlds: the 9th search reuses the first
    assert len(indices) >= 2
    # The k-th search of any action ran in world k: one deck per k (the worlds
    # differ, so the decks of different k do too).
    assert all(len(decks[k]) == 1 for k in indices)
    assert len({next(iter(decks[k])) for k in indices}) == len(indices)
