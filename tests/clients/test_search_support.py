"""What every game gives the search bots (games/ai.py), checked the same way for
all four: its own ai module is registered, and a sampled state depends only on
the random generator the bot passes in."""

from __future__ import annotations

import random

import pytest

import games
from games.ai import get_ai


@pytest.mark.parametrize("name", games.names())
def test_each_game_registers_its_own_search_support(name: str) -> None:
    package = type(games.get(name).new_state(2, 1)).__module__.rsplit(".", 1)[0]
    ai = get_ai(name)
    assert ai.from_observation.__module__ == ai.evaluate.__module__ == f"{package}.ai"


@pytest.mark.parametrize(
    ("name", "options"),
    [*((name, {}) for name in games.names()), ("stubborn-sheep", {"wolf": True})],
)
def test_a_sample_depends_only_on_the_given_rng(name: str, options: dict[str, object]) -> None:
    """The real seed is unknown: everything hidden in a sample, and its own
    generator, come from `rng`, so the same rng state gives the same game and
    another gives another (compared by playing both out the same way)."""
    game = games.get(name)
    state = game.new_state(2, 3, options)
    moves = random.Random(3)
    for _ in range(6):
        actions = state.legal_actions()
        state.apply(actions[moves.randrange(len(actions))])
    seat = state.to_move
    assert seat is not None
    observation = game.codec.observation_to_proto(state.observation(seat))

    def play_out(sample_seed: int) -> list[str]:
        sample = get_ai(name).from_observation(observation, seat, random.Random(sample_seed))
        choices = random.Random(0)
        seen = []
        while not sample.terminal:
            actions = sample.legal_actions()
            events = sample.apply(actions[choices.randrange(len(actions))])
            seen += [repr(event.payload) for event in events]
        return [*seen, repr(sample.result().scores)]

    assert play_out(1) == play_out(1)
    assert play_out(1) != play_out(2)
