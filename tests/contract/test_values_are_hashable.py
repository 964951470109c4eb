"""Actions and event payloads are frozen values with hashable fields: the server
memoises their encodings by value alone, one memo per game (legal actions,
events), so a payload with a list in it would stop a match, and two values of
different classes that compare equal (named tuples of the same fields) would
be sent each other's encoding. Every value of random games of every game and
player count is checked."""

from __future__ import annotations

import random

import pytest

import games


@pytest.mark.parametrize("name", games.names())
def test_every_action_and_event_payload_hashes(name: str) -> None:
    game = games.get(name)
    checked = 0
    seen: dict[str, dict[object, object]] = {"action": {}, "event": {}}  # one memo each

    def check(memo: str, value: object) -> None:
        hash(value)
        first = seen[memo].setdefault(value, value)
        assert type(first) is type(value), f"{first!r} == {value!r}: one memo entry for both"

    for players in range(game.min_players, game.max_players + 1):
        for seed in range(3):
            state = game.new_state(players, seed, {})
            rng = random.Random(seed)
            while not state.terminal:
                actions = state.legal_actions()
                for action in actions:
                    check("action", action)
                for event in state.apply(actions[rng.randrange(len(actions))]):
                    for viewer in (None, *range(players)):
                        payload = event.visible_to(viewer)
                        if payload is not None:
                            check("event", payload)
                            checked += 1
    assert checked > 100
