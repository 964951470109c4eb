"""The incremental landscape analysis (games/sheep_and_garden/analysis.py): the
stats it predicts for every legal placement are the stats of the board with
that tile placed, and `evaluate_after` is `evaluate` of each next position."""

from __future__ import annotations

import random

import pytest

from games.ai import get_ai
from games.sheep_and_garden import GAME
from games.sheep_and_garden.ai import evaluate, evaluate_after, soft_stats
from games.sheep_and_garden.analysis import LandscapeAnalysis
from games.sheep_and_garden.state import SheepAndGardenState


def _random_game(players: int, seed: int) -> list[SheepAndGardenState]:
    """Every position of one random game, the finished one aside."""
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    positions = []
    while state.to_move is not None:
        positions.append(state.clone())
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return positions


def _close(got: dict[str, float], expected: dict[str, float]) -> list[str]:
    assert got.keys() == expected.keys()
    return [k for k in expected if got[k] != pytest.approx(expected[k], abs=1e-9)]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("hope", [0.0, 0.6])
def test_stats_after_every_placement_match_the_placed_board(players: int, hope: float) -> None:
    checked = 0
    for seed in range(2):
        for state in _random_game(players, 500 + 10 * players + seed):
            analysis = LandscapeAnalysis(state.board)
            assert not _close(analysis.stats(hope), soft_stats(state.board, hope))
            for action in state.legal_actions():
                board = dict(state.board)
                board[(action.x, action.y)] = (action.tile, action.rotation)
                got = analysis.stats_after(action.tile, action.x, action.y, action.rotation, hope)
                wrong = _close(got, soft_stats(board, hope))
                assert not wrong, (action, wrong)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("players", [1, 2, 4])
def test_evaluate_after_is_evaluate_of_each_next_position(players: int) -> None:
    seen_last_tile = False
    for state in _random_game(players, 700 + players):
        for action, values in zip(state.legal_actions(), evaluate_after(state), strict=True):
            after = state.clone()
            after.apply(action)
            if values is None:
                # Only the last tile is left to the game's own result.
                assert after.to_move is None and after.deck_size + len(after.display) == 0
                seen_last_tile = True
            elif after.to_move is not None:
                assert values == pytest.approx(evaluate(after), abs=1e-9)
    assert seen_last_tile


def test_registered_for_the_search_bots() -> None:
    assert get_ai("sheep-and-garden").evaluate_after is evaluate_after
