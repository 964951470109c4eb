"""The codecs and `server.encoding` memoise encodings (pastures, areas, tile
faces, legal actions...): what a seat receives must not depend on what the
memos hold. Every decision of interleaved random games is encoded with warm
memos (shared by both games, as matches share them) and again from empty
memos; the bytes must be the same."""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Iterator

import pytest

import games
from games.contract import Event, State
from games.memo import Memo
from server import convert, encoding


class _AllMemos:
    """Every memo of the codecs and the server: lru caches, and the legal-action
    memo of each game."""

    def __init__(self) -> None:
        modules = [convert, encoding] + [
            importlib.import_module(f"games.{name.replace('-', '_')}.wire")
            for name in games.names()
        ]
        self.caches = [
            value
            for module in modules
            for value in vars(module).values()
            if isinstance(value, functools._lru_cache_wrapper)
        ]
        self.memos = [
            value
            for module in modules
            for value in vars(module).values()
            if isinstance(value, Memo)
        ]
        assert len(self.caches) >= 6, "the memos this test empties were not found"
        assert self.memos, "the boards and faces memos were not found"

    def clear(self) -> None:
        for cache in self.caches:
            cache.cache_clear()
        for memo in self.memos:
            memo.clear()
        for name in games.names():
            encoding._action_memo(games.get(name).codec).clear()
            encoding._event_memo(games.get(name).codec).clear()


def _encode(game_name: str, position: tuple[State, int, list[Event]], players: int) -> list[bytes]:
    """A position's observations and legal actions, and the events that led to it."""
    state, move, events = position
    codec = games.get(game_name).codec
    out = [
        encoding.event_response(encoding.event_message(codec, move, payload))
        for event in events
        for seat in range(players)
        if (payload := event.visible_to(seat)) is not None
    ]
    for seat in [None, *range(players)]:
        observation = convert.observation(codec, state.observation(seat))
        out.append(observation.SerializeToString(deterministic=True))
    out.extend(encoding.legal_actions_bytes(codec, state.legal_actions()))
    return out


def _positions(game_name: str, players: int, seed: int) -> Iterator[tuple[State, int, list[Event]]]:
    state = games.get(game_name).new_state(players, seed, {})
    rng = random.Random(seed)
    move, events = 0, []
    while not state.terminal:
        yield state, move, events
        actions = state.legal_actions()
        events = state.apply(actions[rng.randrange(len(actions))])
        move += 1


@pytest.mark.parametrize("game_name", games.names())
def test_encodings_do_not_depend_on_what_the_memos_hold(game_name: str) -> None:
    players = 2
    memos = _AllMemos()
    warm: list[list[bytes]] = []
    # Two matches at once: each one's conversions run between the other's.
    for first, second in zip(
        _positions(game_name, players, 1), _positions(game_name, players, 2), strict=False
    ):
        warm.append(_encode(game_name, first, players))
        warm.append(_encode(game_name, second, players))
    cold: list[list[bytes]] = []
    for first, second in zip(
        _positions(game_name, players, 1), _positions(game_name, players, 2), strict=False
    ):
        for position in (first, second):
            memos.clear()
            cold.append(_encode(game_name, position, players))
    assert len(warm) > 10
    assert warm == cold


@pytest.mark.parametrize("game_name", games.names())
def test_every_match_of_a_game_shares_the_legal_action_memo(game_name: str) -> None:
    """A codec made anew for each match would key the memo on an object no other
    match has: the memo would then start empty with every match."""
    game = games.get(game_name)
    first = game.new_state(2, 1, {}).legal_actions()
    second = game.new_state(2, 1, {}).legal_actions()
    memo = encoding._action_memo(game.codec)
    memo.clear()
    encoding.legal_actions_bytes(game.codec, first)
    misses = memo.misses
    encoding.legal_actions_bytes(games.get(game_name).codec, second)
    assert memo.misses == misses and len(memo) == len(set(first))
