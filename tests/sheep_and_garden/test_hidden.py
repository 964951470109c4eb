"""Hidden information: face-down objectives reach only their holders, in observations,
events and protobuf; no deck order anywhere (rules notes "Hidden information")."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import OBJECTIVE_BY_ID, OBJECTIVES

from .helpers import play_random


def _visible(slot, seat):
    return slot.face_up or (seat is not None and seat in slot.holders)


def test_two_players_see_own_cards_and_the_other_face_up_one() -> None:
    """2 players: "1 of them face up and the rest face down"; "each player can check
    their own objective cards at any time.\""""
    state = GAME.new_state(2, 5)
    for seat in (0, 1):
        views = state.observation(seat).objectives
        seen = [v.card for v in views]
        mine = [s.card for s in state.slots if seat in s.holders]
        assert set(mine) <= set(seen)
        other_up = [s.card for s in state.slots if seat not in s.holders and s.face_up]
        assert len(other_up) == 1 and other_up[0] in seen
        assert sum(card is None for card in seen) == 2
    spectator = [v.card for v in state.observation(None).objectives]
    assert sum(card is not None for card in spectator) == 2


def test_four_players_see_own_and_shared_cards_only() -> None:
    """3-4 players: cards are face down; a seat sees its own and the two it shares."""
    state = GAME.new_state(4, 8)
    for seat in range(4):
        views = state.observation(seat).objectives
        assert sum(v.card is not None for v in views) == 3
        for view, slot in zip(views, state.slots, strict=True):
            assert (view.card is not None) == (seat in slot.holders)
            assert view.holders == slot.holders  # who shares a card is public
    assert all(v.card is None for v in state.observation(None).objectives)


def test_solo_sees_every_card() -> None:
    """Solo: "Place 3 objective cards in front of you, and the other 3 cards on the
    opposite side, marked as the enemy's objectives" (all face up)."""
    views = GAME.new_state(1, 2).observation(0).objectives
    assert all(v.card is not None for v in views)
    assert sum(v.enemy for v in views) == 3


def test_memoised_objective_views_follow_the_seat_and_the_deal() -> None:
    """Observations share memoised objective views: a seat must never get another
    seat's, nor those of the deal before its slots were replaced (as a search
    bot's sampled world replaces a face-down card)."""
    state = GAME.new_state(2, 5)
    first = {seat: state.observation(seat).objectives for seat in (None, 0, 1)}
    hidden = next(i for i, slot in enumerate(state.slots) if not slot.face_up)
    dealt = {slot.card for slot in state.slots}
    unused = next(card.id for card in OBJECTIVES if card.id not in dealt)
    slots = list(state.slots)
    slots[hidden] = dataclasses.replace(slots[hidden], card=unused)
    other = state.clone()
    other.slots = tuple(slots)
    for seat in (None, 0, 1):
        for one in (state, other):
            views = one.observation(seat).objectives
            for view, slot in zip(views, one.slots, strict=True):
                assert view.card == (slot.card if _visible(slot, seat) else None)
        assert state.observation(seat).objectives == first[seat]
    holder = state.slots[hidden].holders[0]
    assert other.observation(holder).objectives[hidden].card == unused
    assert state.observation(holder).objectives[hidden].card == state.slots[hidden].card


@settings(max_examples=50, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 2**31))
def test_no_hidden_card_or_deck_order_reaches_a_viewer(players: int, seed: int) -> None:
    """Over a random game: observations (dataclass and protobuf) carry a viewer's
    visible cards only and no deck tile; all events are public and name no hidden
    card and no face-down tile."""
    codec = GAME.codec
    state = GAME.new_state(players, seed)
    hidden_names = {
        seat: {OBJECTIVE_BY_ID[s.card].name for s in state.slots if not _visible(s, seat)}
        for seat in [None, *range(players)]
    }
    events = list(state.setup_events)
    step = 0
    while True:
        deck = set(state._deck)
        for viewer in [None, *range(players)]:
            obs = state.observation(viewer)
            assert obs.seat == viewer
            field_names = {f.name for f in dataclasses.fields(obs)}
            assert not {"deck", "deck_order", "slots"} & field_names
            shown_tiles = {p.tile for p in obs.placed} | set(obs.display)
            assert not shown_tiles & deck
            for view, slot in zip(obs.objectives, state.slots, strict=True):
                assert view.card == (slot.card if _visible(slot, viewer) else None)
            message = codec.observation_to_proto(obs)
            assert {face.tile for face in message.faces} == shown_tiles
            assert message.deck_size == len(deck)
            for entry, slot in zip(message.objectives, state.slots, strict=True):
                if _visible(slot, viewer):
                    assert entry.card == slot.card
                else:
                    assert (entry.card, entry.name, entry.text) == ("", "", "")
            assert message.HasField("seat") == (viewer is not None)
        if state.to_move is None or step > 8:
            break
        action = state.legal_actions()[seed % len(state.legal_actions())]
        events.extend(state.apply(action))
        step += 1
    for event in events:
        assert event.seat is None and event.redacted is None
        text = event.payload.text
        for names in hidden_names.values():
            assert not any(name in text for name in names)


def test_finished_game_observation_still_hides_face_down_cards() -> None:
    """The result reveals the cards; the observation keeps following the table rule."""
    state, _, _ = play_random(3, 4)
    assert all(v.card is None for v in state.observation(None).objectives)
