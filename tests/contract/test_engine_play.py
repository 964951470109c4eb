"""The engine contract as an outside caller sees it, for every game, player
count and option combination: the same seed and actions always play the same
game, nothing an engine returns aliases its state, and the result exists only
at the end and stays put."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from games import IllegalAction
from tests.contract.engines import (
    CONFIGS,
    IDS,
    Config,
    random_game,
    random_game_from,
    rebuilt,
    snapshot,
)

ROOT = Path(__file__).resolve().parents[2]


def _mutate(value: Any, depth: int = 0) -> None:
    """Scribble over every mutable container reachable from `value`."""
    if depth > 8:
        return
    if isinstance(value, list):
        for item in value:
            _mutate(item, depth + 1)
        value.append("scribble")
        value.reverse()
    elif isinstance(value, dict):
        for item in list(value.values()):
            _mutate(item, depth + 1)
        value["scribble"] = 1
    elif isinstance(value, set):
        value.add("scribble")
    elif isinstance(value, bytearray):
        value.extend(b"x")
    elif isinstance(value, tuple):
        for item in value:
            _mutate(item, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _mutate(getattr(value, f.name), depth + 1)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_same_seed_and_actions_play_the_same_game(config: Config) -> None:
    """Replaying the seed with the recorded actions (rebuilt) gives the same
    observations, events and result at every step; so does a clone taken half way."""
    seen: list[str] = []
    happened: list[str] = []
    actions: list[Any] = []
    for state, action in random_game(config, seed=7):
        seen.append(snapshot(state))
        if action is not None:
            happened.append(repr(state.clone().apply(action)))
            actions.append(action)
    replay = config.new_state(7)
    half = replay
    middle = len(actions) // 2
    for index, action in enumerate(actions):
        if index == middle:
            half = replay.clone()
        assert snapshot(replay) == seen[index], f"{config} step {index}"
        assert repr(replay.apply(rebuilt(action))) == happened[index], f"{config} step {index}"
    assert snapshot(replay) == seen[-1]
    for index in range(middle, len(actions)):
        assert snapshot(half) == seen[index], f"{config} clone, step {index}"
        assert repr(half.apply(actions[index])) == happened[index]
    assert snapshot(half) == seen[-1]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_nothing_returned_aliases_the_state(config: Config) -> None:
    for step, (state, action) in enumerate(random_game(config, seed=3)):
        if step % 4 and action is not None:
            continue
        before = snapshot(state)
        legal = state.legal_actions()
        assert list(state.legal_actions()) == list(legal), "legal_actions() changed by asking"
        if isinstance(legal, list):
            legal.clear()
        for seat in (None, *range(state.players)):
            _mutate(state.observation(seat))
        if state.terminal:
            _mutate(state.result().details)
        assert snapshot(state) == before, f"{config} step {step}: a returned value aliases state"


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_result_only_at_the_end_and_stable_after(config: Config) -> None:
    for state, action in random_game(config, seed=5):
        if action is not None:
            assert state.to_move is not None and not state.terminal
            assert state.legal_actions(), "no legal action while the game goes on"
            for item in state.legal_actions():
                hash(item)
                assert isinstance(item.label, str) and item.label
            with pytest.raises(ValueError):
                state.result()
            continue
        assert state.to_move is None and state.terminal
        assert list(state.legal_actions()) == []
        result = state.result()
        assert result == state.result() == state.clone().result()
        assert len(result.scores) == len(result.ranks) == config.players
        assert sorted(result.ranks)[0] == 1


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@pytest.mark.parametrize("seed", range(3))
def test_apply_after_the_end_raises_and_changes_nothing(config: Config, seed: int) -> None:
    """Every action of the last decisions, played again once the game is over,
    raises IllegalAction and the game stays over, its result unchanged."""
    recent: list[Any] = []
    for state, action in random_game(config, seed):
        if action is not None:
            recent = [*state.legal_actions()[:20], *recent][:60]
            continue
        before = snapshot(state)
        for late in (*recent, None, [], mock.ANY):
            with pytest.raises(IllegalAction):
                state.apply(late)
            assert snapshot(state) == before, f"{config}: {late!r} after the end"


def test_the_guide_and_the_proto_promise_one_label_per_action() -> None:
    """What the test below holds the engines to, a bot in any language is told."""
    guide = " ".join((ROOT / "docs" / "writing-a-bot.md").read_text(encoding="utf-8").split())
    proto = (ROOT / "proto" / "sheepfold" / "v1" / "arena.proto").read_text(encoding="utf-8")
    assert "(no two actions of one decision share one)" in guide
    assert "No two\n  // actions of one decision share a label" in proto


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_decisions_events_and_ranks_are_well_formed(config: Config) -> None:
    """No decision lists an action twice; every event is public or private to a
    seat that exists; ranks are competition ranks (1, 1, 3)."""
    for state, action in random_game(config, seed=9):
        if action is None:
            ranks = state.result().ranks
            assert all(r == 1 + sum(o < r for o in ranks) for r in ranks), ranks
            break
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal), f"{config}: an action listed twice"
        assert len({a.label for a in legal}) == len(legal), f"{config}: two actions, one label"
        copy = state.clone()
        for event in copy.apply(action):
            assert event.seat is None or 0 <= event.seat < config.players, event


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_clone_played_to_the_end_leaves_the_original_alone(config: Config) -> None:
    for step, (state, _action) in enumerate(random_game(config, seed=4)):
        if step % 10:
            continue
        before = snapshot(state)
        for _, _ in random_game_from(state.clone(), seed=step):
            pass
        assert snapshot(state) == before, f"{config} step {step}"


_FINGERPRINTS = """
import hashlib, sys
from tests.contract.engines import CONFIGS, random_game, snapshot
for config in CONFIGS:
    digest = hashlib.sha256()
    for state, action in random_game(config, seed=11):
        digest.update(snapshot(state).encode())
        if action is not None:
            digest.update(repr(state.clone().apply(action)).encode())
    print(config, digest.hexdigest())
"""


def test_the_same_game_in_processes_with_other_string_hashes() -> None:
    """Python salts str hashes per process: an engine that iterates a set of
    strings would play another game after a restart, and a replay would differ."""
    outputs = []
    for salt in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": salt}
        done = subprocess.run(
            [sys.executable, "-c", _FINGERPRINTS],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0].count("\n") == len(CONFIGS)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_observation_of_a_seat_that_does_not_exist_is_refused(config: Config) -> None:
    """-1 would index the last seat's private view (its hand), True seat 1's."""
    for step, (state, action) in enumerate(random_game(config, seed=2)):
        if step % 25 and action is not None:
            continue
        before = snapshot(state)
        for seat in (-1, -config.players, config.players, 99, True, False, 0.0, "0"):
            with pytest.raises(ValueError, match="seat"):
                state.observation(seat)
        assert snapshot(state) == before
