"""A Sheep 'n' Sheep hand holding two copies of a face: the game offers the
copy everybody saw the hand take, which the observation does not say, so a
sample may offer the other copy. The search bots refused every such sample and
played a random action instead (38 of 24,432 random decisions with a choice)."""

from __future__ import annotations

import random

import games
from clients.bots.search import GreedyBot
from clients.sdk import DecisionView
from games.ai import get_ai
from games.contract import State
from tests.clients.search_views import decision_view

GAME = "sheep-n-sheep"


def _view(state: State) -> DecisionView:
    return decision_view(GAME, state)


def _first_copy_mismatch(seed: int) -> DecisionView:
    """The first decision of a random 2-player game whose sample offers
    another copy of a card than the game does."""
    ai = get_ai(GAME)
    state = games.get(GAME).new_state(2, seed)
    rng = random.Random(seed)
    while not state.terminal:
        actions = state.legal_actions()
        view = _view(state)
        sample = ai.from_observation(view.observation, view.seat, random.Random(0))
        if [action.label for action in sample.legal_actions()] != view.labels:
            return view
        state.apply(actions[rng.randrange(len(actions))])
    raise AssertionError(f"seed {seed}: no decision offered another copy")


def test_a_sample_offering_another_copy_of_the_same_card_is_used() -> None:
    view = _first_copy_mismatch(18)
    ai = get_ai(GAME)
    sample = ai.from_observation(view.observation, view.seat, random.Random(0))
    offered = [action.label for action in sample.legal_actions()]
    assert len(offered) == len(view.labels)
    differing = [(a, b) for a, b in zip(offered, view.labels, strict=True) if a != b]
    assert differing and all(a.split("#")[0] == b.split("#")[0] for a, b in differing)
    bot = GreedyBot(seed=1)
    bot._reseed(view)
    assert bot._sample(ai, view) is not None
