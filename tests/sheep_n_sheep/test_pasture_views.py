"""The observation's pastures are kept between decisions and rebuilt only after
a card is placed: what a seat sees must always be the pasture as it is now,
in the original and in clones that play on from it."""

from __future__ import annotations

import random

import games
from games.sheep_n_sheep.state import SheepNSheepState


def _plain(state: SheepNSheepState) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    return tuple(
        tuple((x, y, card) for (x, y), card in sorted(state.pasture(seat).items()))
        for seat in range(state.players)
    )


def _play(state: SheepNSheepState, rng: random.Random, clones: list[SheepNSheepState]) -> int:
    checked = 0
    while not state.terminal:
        for seat in (None, *range(state.players)):
            assert state.observation(seat).pastures == _plain(state)
            checked += 1
        if rng.random() < 0.05:
            clones.append(state.clone())
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert state.observation(None).pastures == _plain(state)
    return checked


def test_observed_pastures_follow_every_placement_in_originals_and_clones() -> None:
    checked = 0
    for players in (2, 3, 4):
        for seed in range(8):
            state = games.get("sheep-n-sheep").new_state(players, seed, {})
            assert isinstance(state, SheepNSheepState)
            clones: list[SheepNSheepState] = []
            rng = random.Random(seed)
            checked += _play(state, rng, clones)
            for clone in clones:  # each plays on differently from the original
                checked += _play(clone, rng, [])
    assert checked > 1000
