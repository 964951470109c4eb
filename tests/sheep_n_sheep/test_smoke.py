"""A first check that random games of every player count run to the end."""

from __future__ import annotations

import random

import pytest

import games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_a_result(players: int) -> None:
    game = games.get("sheep-n-sheep")
    for seed in range(5):
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        steps = 0
        while not state.terminal:
            actions = state.legal_actions()
            assert actions, state.render()
            state.apply(actions[rng.randrange(len(actions))])
            steps += 1
            assert steps < 2000, state.render()
        result = state.result()
        assert len(result.scores) == players
        assert min(result.ranks) == 1
