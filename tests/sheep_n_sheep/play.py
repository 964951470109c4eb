"""Random play for the property, hidden-information and codec tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import games
from games.contract import Event
from games.sheep_n_sheep.state import SheepNSheepState

GAME = games.get("sheep-n-sheep")
MAX_DECISIONS = 5000


@dataclass
class Played:
    state: SheepNSheepState
    indices: list[int]
    events: list[Event]


def play(
    players: int,
    seed: int,
    choice_seed: int | None = None,
    each: Callable[[SheepNSheepState, object, list[Event]], None] | None = None,
) -> Played:
    """A full random game; `each(state, action, events)` runs after every action."""
    state = GAME.new_state(players, seed)
    assert isinstance(state, SheepNSheepState)
    rng = random.Random(seed if choice_seed is None else choice_seed)
    indices: list[int] = []
    log: list[Event] = []
    while not state.terminal:
        legal = state.legal_actions()
        assert legal, state.render()
        index = rng.randrange(len(legal))
        indices.append(index)
        events = state.apply(legal[index])
        log.extend(events)
        if each is not None:
            each(state, legal[index], events)
        assert len(indices) < MAX_DECISIONS, state.render()
    return Played(state, indices, log)


def all_cards(state: SheepNSheepState) -> list[int]:
    """Every card in every zone."""
    cards = [c for seat in range(state.players) for c in state.hand(seat)]
    cards += [c for pair in state.market for c in pair]
    cards += [c for seat in range(state.players) for c in state.pasture(seat).values()]
    cards += list(state.discard) + list(state.deck) + list(state.stock)
    return cards
