"""The built-in bots answer a decision from (their seed, the decision) only: a
decision the server sends again (a rejoin, a restart) gets the same answer,
whatever the bot decided in between."""

from __future__ import annotations

import dataclasses
import random

import pytest
from sheepfold.v1 import arena_pb2

import games
from clients.bots import load_bot
from clients.sdk import DecisionView
from server import convert


def _views(game_name: str, players: int, seed: int, count: int) -> list[DecisionView]:
    """The first `count` decisions with more than one action of a random game."""
    game = games.get(game_name)
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    views = []
    while len(views) < count and not state.terminal:
        seat = state.to_move
        assert seat is not None
        actions = state.legal_actions()
        if len(actions) > 1:
            views.append(
                DecisionView(
                    decision_id=len(views) + 1,
                    seat=seat,
                    game=game_name,
                    prompt=state.prompt(),
                    observation=game.codec.observation_to_proto(state.observation(seat)),
                    actions=convert.legal_actions(game.codec, actions),
                    clock=arena_pb2.Clock(decision_seconds=5),
                )
            )
        state.apply(actions[rng.randrange(len(actions))])
    assert len(views) == count, "the game ended before enough decisions"
    return views


@pytest.mark.parametrize("game_name", games.names())
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_a_resent_decision_gets_the_same_answer(game_name: str, spec: str) -> None:
    views = _views(game_name, 2, 11, 12)
    bot = load_bot(spec, 5)
    first = [bot.decide(view) for view in views]
    # The same decisions again, in another order, with a new id and clock (as a
    # restarted server sends them), and from a fresh bot with the same seed.
    for view in reversed(views):
        again = dataclasses.replace(view, decision_id=99, clock=arena_pb2.Clock())
        assert bot.decide(again) == first[views.index(view)]
    fresh = load_bot(spec, 5)
    assert [fresh.decide(view) for view in views] == first


def test_mcts_with_an_iteration_budget_answers_a_resent_decision_the_same() -> None:
    views = _views("stubborn-sheep", 2, 3, 4)
    bot = load_bot("clients.bots.search:MCTSBot", 7)
    bot.overrides.update(iterations=40, milliseconds=60_000)
    first = [bot.decide(view) for view in views]
    assert [bot.decide(view) for view in reversed(views)] == first[::-1]


def test_different_seeds_still_play_differently() -> None:
    views = _views("sheep-n-sheep", 2, 5, 30)
    answers = {tuple(load_bot("random", seed).decide(v) for v in views) for seed in range(4)}
    assert len(answers) == 4
