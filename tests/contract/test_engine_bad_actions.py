"""The engine contract as an outside caller sees it, for every game, player
count and option combination: a bad action of any kind raises IllegalAction
and changes nothing, and an action equal to a listed one acts exactly like it."""

from __future__ import annotations

import collections
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

import games
from games import IllegalAction, State
from tests.contract.engines import (
    CONFIGS,
    IDS,
    Config,
    fields,
    random_game,
    rebuilt,
    snapshot,
    with_field,
)


def _foreign_actions(own: str) -> list[Any]:
    """The first decisions of every other game."""
    out = []
    for name in games.names():
        if name != own:
            game = games.get(name)
            out.extend(game.new_state(game.min_players, 0, {}).legal_actions()[:3])
    return out


def _is_legal(state: State, candidate: Any) -> bool:
    """Whether `candidate` is a legal action now: equal to one of the same class."""
    return any(type(a) is type(candidate) and a == candidate for a in state.legal_actions())


def _bad_inputs(state: State, history: list[Any], foreign: list[Any]) -> Iterator[Any]:
    legal = state.legal_actions()
    first = legal[0]
    yield from (None, 0, -1, 1.5, "stop", b"", object(), [], {}, set(), mock.ANY)
    yield from ([first], {"action": first}, first.label)
    yield from foreign
    for action in {type(a): a for a in legal}.values():
        values = fields(action)
        yield tuple(values.values())  # a tuple shaped like the action
        yield dict(values)
        if values:
            yield collections.namedtuple(type(action).__name__, list(values))(**values)
        for name in values:
            for value in (-1, 10**6, None, "0", (0,), [0]):
                yield with_field(action, name, value)
    stale = [a for a in dict.fromkeys(reversed(history)) if not _is_legal(state, a)]
    yield from stale[:4]


def _equal_twins(action: Any) -> Iterator[Any]:
    """Actions equal to `action` but not identical: rebuilt, or with a field of
    another type that compares equal (1.0 or True for 1)."""
    yield rebuilt(action)
    for name, value in fields(action).items():
        if type(value) is bool:
            yield with_field(action, name, int(value))
        elif type(value) is int:
            yield with_field(action, name, float(value))
            if value in (0, 1):
                yield with_field(action, name, bool(value))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_bad_actions_raise_illegal_action_and_change_nothing(config: Config) -> None:
    """At the first decision of every kind and every eighth one of a game: each
    bad input raises IllegalAction and leaves everything a caller sees as it was."""
    foreign = _foreign_actions(config.game)
    history: list[Any] = []
    kinds: set[tuple[str, ...]] = set()
    seed = len(str(config))  # a different game per configuration, the same every run
    for step, (state, action) in enumerate(random_game(config, seed)):
        if action is None:
            break
        kind = tuple(sorted({type(a).__name__ for a in state.legal_actions()}))
        if step % 8 == 0 or kind not in kinds:
            kinds.add(kind)
            before = snapshot(state)
            for bad in _bad_inputs(state, history, foreign):
                if _is_legal(state, bad):
                    continue
                with pytest.raises(IllegalAction):
                    state.apply(bad)
                assert snapshot(state) == before, f"{config} step {step}: {bad!r} changed the state"
        history.extend(state.legal_actions())


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_equal_actions_act_like_the_listed_one(config: Config) -> None:
    """A rebuilt action is accepted; one with a field of another type that
    compares equal (1.0 or True for 1) is refused cleanly or acts exactly
    like the listed one (the same events and state, down to their reprs)."""
    for step, (state, action) in enumerate(random_game(config, seed=1)):
        if action is None or step % 2:
            continue
        expected = state.clone()
        expected_events = repr(expected.apply(action))
        after = snapshot(expected)
        trial = state.clone()
        assert repr(trial.apply(rebuilt(action))) == expected_events, f"{config} step {step}"
        assert snapshot(trial) == after
        for twin in _equal_twins(action):
            trial = state.clone()
            untouched = snapshot(trial)
            try:
                events = trial.apply(twin)
            except IllegalAction:
                assert snapshot(trial) == untouched, f"{config} step {step}: {twin!r}"
                continue
            assert repr(events) == expected_events, f"{config} step {step}: {twin!r}"
            assert snapshot(trial) == after, f"{config} step {step}: {twin!r}"
