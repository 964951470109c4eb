"""Hidden information: flock contents are face down; nothing shows a deck order."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.events import CardStolen
from games.sheep_showdown.state import SheepShowdownObservation, SheepShowdownState

from .helpers import random_game

CASES = [(2, {}), (2, {"double_trouble": True}), (3, {}), (4, {}), (5, {}), (6, {})]
OBS_FIELDS = {
    "seat", "players", "double_trouble", "size", "round", "rounds", "first_player", "to_move",
    "turn_player", "decision", "decision_dog", "grid", "dogs", "flock_sizes", "own_flock",
    "totals", "round_scores", "players_in", "turn", "turn_cap", "last_player",
    "last_steps_left", "out_at_turn", "used_rockets",
    # public: which dogs could step at turn start, pending steal victims, a push direction
    "free_at_turn_start", "steal_from", "entered_direction",
}  # fmt: skip


def test_observation_has_no_field_for_other_flocks() -> None:
    """The observation's fields are exactly the public ones plus the own flock;
    a new field must be reviewed here."""
    assert {f.name for f in dataclasses.fields(SheepShowdownObservation)} == OBS_FIELDS
    codec = GAME.codec
    msg = codec.observation_to_proto(GAME.new_state(3, 1).observation(0))
    assert {f.name for f in msg.DESCRIPTOR.fields} == OBS_FIELDS


def scramble_others(state: SheepShowdownState, seat: int | None, seed: int) -> SheepShowdownState:
    """The same position with every other flock's contents replaced (same sizes)
    and a different generator: what `seat` may not know."""
    other = state.clone()
    rng = random.Random(seed)
    for owner, flock in enumerate(other.flocks):
        if owner != seat:
            other.flocks[owner] = [rng.choice([C.SHEEP1, C.SHEEP5, C.WOLF]) for _ in flock]
    other.rng = random.Random(seed)
    return other


@pytest.mark.parametrize(("players", "options"), CASES)
def test_observations_do_not_depend_on_hidden_cards_or_the_generator(
    players: int, options: dict[str, object]
) -> None:
    """A seat's observation (and its protobuf) is the same whatever the other
    flocks hold and whatever the generator would deal next; a spectator's does
    not depend on any flock."""
    codec = GAME.codec
    for seed in range(4):
        state = GAME.new_state(players, seed, {**options, "rounds": 2})
        chooser = random.Random(seed)
        step = 0
        while not state.terminal:
            if step % 7 == 0:
                for seat in [None, *range(players)]:
                    twin = scramble_others(state, seat, seed * 1000 + step)
                    assert twin.observation(seat) == state.observation(seat)
                    left = codec.observation_to_proto(state.observation(seat))
                    right = codec.observation_to_proto(twin.observation(seat))
                    assert left.SerializeToString() == right.SerializeToString()
                    if seat is None:
                        assert len(left.own_flock) == 0
                    else:
                        assert sorted(left.own_flock) == sorted(state.flocks[seat])
            state.apply(chooser.choice(state.legal_actions()))
            step += 1


@pytest.mark.parametrize(("players", "options"), CASES)
def test_events_show_stolen_cards_only_to_thief_and_victim(
    players: int, options: dict[str, object]
) -> None:
    """Every event is public except the steal: its card goes only to the thief
    and the victim; everyone else (spectators too) sees a card-less version."""
    codec = GAME.codec
    steals = 0
    for seed in range(6):
        _, _, history = random_game(players, seed, options)
        for events in history:
            stolen = [e for e in events if isinstance(e.payload, CardStolen)]
            for event in events:
                if not isinstance(event.payload, CardStolen):
                    assert event.seat is None, event
            # each steal is a pair: the thief's event (public version without the
            # card) and the victim's private copy (nothing for the others)
            for thief_event, victim_event in zip(stolen[::2], stolen[1::2], strict=True):
                steals += 1
                payload = thief_event.payload
                assert payload == victim_event.payload and payload.card is not None
                assert thief_event.seat == payload.thief
                assert victim_event.seat == payload.victim
                for viewer in [None, *range(players)]:
                    seen = [thief_event.visible_to(viewer), victim_event.visible_to(viewer)]
                    cards = [s.card for s in seen if s is not None]
                    if viewer in (payload.thief, payload.victim):
                        assert payload.card in cards
                    else:
                        assert cards == [None]
                        wire = codec.event_to_proto(thief_event.visible_to(viewer))
                        assert not wire.card_stolen.HasField("card")
    assert steals > 0


def test_no_deck_order_before_a_round_is_dealt() -> None:
    """The next round's meadow comes from the generator only when the round
    starts: nothing seen during round 1 tells round 2's layout."""
    state = GAME.new_state(4, 9, {"rounds": 2})
    chooser = random.Random(9)
    while state.round == 1:
        twin = state.clone()
        twin.rng = random.Random(12345)
        for seat in [None, 0, 1, 2, 3]:
            assert twin.observation(seat) == state.observation(seat)
        action_index = chooser.randrange(len(state.legal_actions()))
        state.apply(state.legal_actions()[action_index])
    assert state.round == 2
