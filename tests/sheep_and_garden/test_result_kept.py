"""A finished game's result is worked out once (final scoring is the costliest
step of Sheep & Garden) and handed out as copies: every call answers the same,
and what one caller does to its copy changes nothing for the next."""

from __future__ import annotations

import random

import games


def _finished(players: int, seed: int):  # type: ignore[no-untyped-def]
    state = games.get("sheep-and-garden").new_state(players, seed, {})
    rng = random.Random(seed)
    while not state.terminal:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def test_every_call_answers_the_same_and_copies_do_not_leak() -> None:
    for players in (1, 2, 4):
        state = _finished(players, players)
        first = state.result()
        first.details["tampered"] = True
        second = state.result()
        assert "tampered" not in second.details
        assert (second.scores, second.ranks) == (first.scores, first.ranks)
        assert second.details == state.score_details()


def test_a_clone_of_a_finished_game_answers_the_same() -> None:
    state = _finished(2, 9)
    assert state.clone().result() == state.result()
