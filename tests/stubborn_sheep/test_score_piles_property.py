"""Score piles over random games, as the rulebook builds them: "If you have 3,
score 1 sheep and discard the other 2. If you have 4, score 2 sheep ... Place
scored sheep face up in separate score piles by colour. Place each newly scored
sheep on top of its pile." A scored sheep never leaves its pile, so a score
never goes down, and only the player whose turn it is scores."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.stubborn_sheep import GAME
from games.stubborn_sheep.data import SHEEP_COLOUR
from games.stubborn_sheep.state import StubbornSheepState

OPTION_SETS = [
    {},
    {"wolf": True},
    {"bonus_actions": True},
    {"wolf": True, "bonus_actions": True},
]


def _piles(state: StubbornSheepState) -> list[list[list[int]]]:
    return [[list(pile) for pile in piles] for piles in state.scored]


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(1, 5),
    options=st.sampled_from(OPTION_SETS),
    seed=st.integers(0, 2**32 - 1),
)
def test_scored_sheep_go_on_top_of_their_colours_pile_and_stay(
    players: int, options: dict[str, bool], seed: int
) -> None:
    state = GAME.new_state(players, seed, options)
    assert isinstance(state, StubbornSheepState)
    rng = random.Random(seed)
    while not state.terminal:
        before, mover = _piles(state), state.current
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        after = _piles(state)
        for seat in range(players):
            added = []
            for colour, (old, new) in enumerate(zip(before[seat], after[seat], strict=True)):
                assert new[: len(old)] == old, state.render()  # nothing taken off a pile
                assert all(SHEEP_COLOUR[card] == colour for card in new[len(old) :])
                added += new[len(old) :]
            if seat != mover:
                assert added == [], state.render()
            assert len(added) <= 2, state.render()  # one group of 3 or 4 scores 1 or 2
    assert [sum(map(len, piles)) for piles in state.scored] == list(state.result().scores)
