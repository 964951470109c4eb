"""What a seat is asked depends only on what it may see, in every game.

The games' own hidden-information tests check observations and events; this one
checks the decision itself. At sampled decisions of random games, everything the
deciding seat may not see is dealt again (other hands or flocks, the deck and
other piles in any order, face-down objectives it does not hold, the engine's
generator): the legal actions (values and order), the prompt and the seat's
observation must not change. An engine that offered an action, or ordered or
worded its options, by another seat's cards or by the order of a pile would
fail here. Stubborn Sheep works its options out while it applies the action
before, so the hands are also dealt again before that action.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

import games
from games.sheep_and_garden.data import OBJECTIVES
from games.sheep_and_garden.state import SheepAndGardenState
from games.sheep_n_sheep.state import SheepNSheepState
from games.sheep_showdown.state import SheepShowdownState
from games.stubborn_sheep.state import StubbornSheepState

Deal = Callable[[Any, frozenset[int], random.Random, bool], Any]


def _deal_sheep_n_sheep(
    state: SheepNSheepState, seen_by: frozenset[int], rng: random.Random, piles: bool
) -> SheepNSheepState:
    """Other hands (but the cards everybody saw them take), deck and stock."""
    other = state.clone()
    revealed = other._revealed
    pool = other._deck + other._stock if piles else []
    kept: dict[int, list[int]] = {}
    for seat, hand in enumerate(other._hands):
        if seat not in seen_by:
            kept[seat] = [card for card in hand if card in revealed]
            pool += [card for card in hand if card not in revealed]
    rng.shuffle(pool)
    for seat, known in kept.items():
        count = len(other._hands[seat]) - len(known)
        other._hands[seat] = sorted(known + pool[:count])
        pool = pool[count:]
    if piles:
        other._deck, other._stock = pool[: len(other._deck)], pool[len(other._deck) :]
        other._rng = random.Random(rng.random())
    other._legal = None
    return other


def _deal_sheep_showdown(
    state: SheepShowdownState, seen_by: frozenset[int], rng: random.Random, piles: bool
) -> SheepShowdownState:
    """Other flocks (same sizes, any cards) and the generator (steals, later rounds)."""
    other = state.clone()
    cards = sorted({card for flock in other.flocks for card in flock} or {0})
    for seat, flock in enumerate(other.flocks):
        if seat not in seen_by:
            other.flocks[seat] = [rng.choice(cards) for _ in flock]
    if piles:
        other.rng = random.Random(rng.random())
    other._cache = None
    return other


def _deal_stubborn_sheep(
    state: StubbornSheepState, seen_by: frozenset[int], rng: random.Random, piles: bool
) -> StubbornSheepState:
    """Other hands, the fence pile and the removed fences (the piles of sheep,
    drawn face up, are checked in tests/stubborn_sheep)."""
    other = state.clone()
    pool = other.fence_pile + other.fence_box if piles else list(other.fence_box)
    others = [seat for seat in range(other.players) if seat not in seen_by]
    for seat in others:
        pool += other.hands[seat]
    rng.shuffle(pool)
    for seat in others:
        count = len(other.hands[seat])
        other.hands[seat], pool = pool[:count], pool[count:]
    if piles:
        other.fence_pile, pool = pool[: len(other.fence_pile)], pool[len(other.fence_pile) :]
    other.fence_box = pool
    return other


def _deal_sheep_and_garden(
    state: SheepAndGardenState, seen_by: frozenset[int], rng: random.Random, piles: bool
) -> SheepAndGardenState:
    """The deck's order, the face-down objectives the seat does not see (from
    those and the unused cards) and the generator."""
    other = state.clone()
    if piles:
        rng.shuffle(other._deck)
        other._rng = random.Random(rng.random())
    hidden = [
        i
        for i, slot in enumerate(other.slots)
        if not any(slot.visible_to(seat) for seat in seen_by)
    ]
    used = {slot.card for slot in other.slots}
    pool = [other.slots[i].card for i in hidden] + [c.id for c in OBJECTIVES if c.id not in used]
    rng.shuffle(pool)
    slots = list(other.slots)
    for i, card in zip(hidden, pool, strict=False):
        slots[i] = dataclasses.replace(slots[i], card=card)
    other.slots = tuple(slots)
    other._legal = None
    return other


DEALS: dict[str, Deal] = {
    "sheep-n-sheep": _deal_sheep_n_sheep,
    "sheep-showdown": _deal_sheep_showdown,
    "stubborn-sheep": _deal_stubborn_sheep,
    "sheep-and-garden": _deal_sheep_and_garden,
}
# The engines that work out a decision's options while they apply the action
# before it (the others, when asked for them).
POSED_EARLY = {"stubborn-sheep"}
# Every player count of every game (the largest tables with every option):
# Sheep & Garden hides other things at 2 (a face-up card each), 3 and 4 (cards
# shared between two seats) and nothing but the deck solo.
CASES = [
    ("sheep-n-sheep", 2, {}),
    ("sheep-n-sheep", 3, {}),
    ("sheep-n-sheep", 4, {}),
    ("sheep-showdown", 2, {"double_trouble": True, "rounds": 2}),
    ("sheep-showdown", 3, {"rounds": 2}),
    ("sheep-showdown", 4, {"rounds": 1}),
    ("sheep-showdown", 5, {"rounds": 1}),
    ("sheep-showdown", 6, {"rounds": 2}),
    ("stubborn-sheep", 1, {"wolf": True, "bonus_actions": True}),
    ("stubborn-sheep", 2, {"bonus_actions": True}),
    ("stubborn-sheep", 3, {"wolf": True, "bonus_actions": True}),
    ("stubborn-sheep", 4, {"wolf": True}),
    ("stubborn-sheep", 5, {"wolf": True, "bonus_actions": True}),
    ("sheep-and-garden", 1, {}),
    ("sheep-and-garden", 2, {}),
    ("sheep-and-garden", 3, {}),
    ("sheep-and-garden", 4, {}),
]


def _asked(state: Any, seat: int) -> tuple[Any, ...]:
    return (tuple(state.legal_actions()), state.prompt(), state.observation(seat))


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_decision_does_not_depend_on_what_the_seat_cannot_see(
    name: str, players: int, options: dict[str, object]
) -> None:
    deal = DEALS[name]
    checked = 0
    for seed in range(2):
        state = games.get(name).new_state(players, seed, options)
        rng = random.Random(seed)
        move = 0
        while not state.terminal:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            if move % 3 == 0:
                mover = state.to_move
                twin = deal(state, frozenset({mover}), rng, True)
                assert _asked(twin, mover) == _asked(state, mover), (seed, move)
                # Dealt again before the action that poses the next decision:
                # what neither its mover nor the next seat to decide may see,
                # but the piles (that action may draw from them).
                after = state.clone()
                after.apply(action)
                if name in POSED_EARLY and after.to_move is not None:
                    twin = deal(state, frozenset({mover, after.to_move}), rng, False)
                    twin.apply(action)
                    assert twin.to_move == after.to_move, (seed, move)
                    assert _asked(twin, after.to_move) == _asked(after, after.to_move), (
                        seed,
                        move,
                    )
                checked += 1
            state.apply(action)
            move += 1
    assert checked > 20
