"""A finished game's result is worked out once (final scoring is the costliest
step of Sheep & Garden) and handed out as copies: every call answers the same,
and what one caller does to its copy changes nothing for the next."""

from __future__ import annotations

import dataclasses
import random

import games
from games.sheep_and_garden.data import OBJECTIVE_BY_ID, OBJECTIVES


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


def test_a_clone_given_other_cards_scores_its_own_cards() -> None:
    """A finished game's result is kept, and a clone starts with it. A search
    bot's sampled world replaces a clone's face-down cards: the clone must then
    score the cards it holds, and the original keep its own result."""
    state = _finished(2, 9)
    before = state.result()
    stats = before.details["stats"]
    dealt = {slot.card for slot in state.slots}
    swapped = max(
        (card for card in OBJECTIVES if card.id not in dealt),
        key=lambda card: card.score(stats)[1],
    )
    hidden = next(i for i, slot in enumerate(state.slots) if not slot.face_up)
    slots = list(state.slots)
    old_points = OBJECTIVE_BY_ID[slots[hidden].card].score(stats)[1]
    assert swapped.score(stats)[1] != old_points  # the swap changes the score
    slots[hidden] = dataclasses.replace(slots[hidden], card=swapped.id)
    other = state.clone()
    other.slots = tuple(slots)
    after = other.result()
    holder = slots[hidden].holders[0]
    expected = before.scores[holder] - old_points + swapped.score(stats)[1]
    assert after.scores[holder] == expected
    assert after.details == other.score_details()
    assert state.result() == before
    # Replacing the slots of the game itself is seen the same way.
    state.slots = tuple(slots)
    assert state.result() == after
