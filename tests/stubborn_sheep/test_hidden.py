"""Hidden information: hands and the order of every pile never reach another seat.

The strongest check: change everything a seat may not know (other hands, the fence
draw pile and the removed fences, the order of the sheep pile) and the seat's
observation, in engine form and on the wire, must not change at all.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.stubborn_sheep import GAME
from games.stubborn_sheep.actions import Bump, MoveSheep, PickSheep, PlaceFence, Score, TurnFence
from games.stubborn_sheep.events import FenceDrawn
from games.stubborn_sheep.state import StubbornSheepState
from games.stubborn_sheep.wire import StubbornSheepCodec

CODEC = StubbornSheepCodec()
OPTION_SETS = [{}, {"wolf": True}, {"bonus_actions": True}, {"wolf": True, "bonus_actions": True}]
# Any player count, option set and seed: what the random games below are drawn from.
ANY_GAME = {
    "players": st.integers(min_value=1, max_value=5),
    "options": st.sampled_from(OPTION_SETS),
    "seed": st.integers(min_value=0, max_value=2**32 - 1),
}


def _scramble(
    state: StubbornSheepState, seat: int | None, rng: random.Random
) -> StubbornSheepState:
    """A copy where every card hidden from `seat` is dealt differently."""
    other = state.clone()
    hidden = list(other.fence_pile) + list(other.fence_box)
    hidden_hands = [s for s in range(other.players) if s != seat]
    for s in hidden_hands:
        hidden += other.hands[s]
    rng.shuffle(hidden)
    for s in hidden_hands:
        size = len(other.hands[s])
        other.hands[s] = hidden[:size]
        hidden = hidden[size:]
    pile = len(other.fence_pile)
    other.fence_pile = hidden[:pile]
    other.fence_box = hidden[pile:]
    rng.shuffle(other.sheep_pile)
    rng.shuffle(other.discard)
    return other


def _wire(state: StubbornSheepState, seat: int | None) -> bytes:
    return CODEC.observation_to_proto(state.observation(seat)).SerializeToString()


@settings(max_examples=40, deadline=None)
@given(**ANY_GAME)
def test_observations_do_not_depend_on_hidden_cards(players, options, seed) -> None:
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    while not state.terminal:
        if rng.random() < 0.2:
            for seat in [None, *range(state.players)]:
                twin = _scramble(state, seat, rng)
                assert twin.observation(seat) == state.observation(seat)
                assert _wire(twin, seat) == _wire(state, seat)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=5),
    options=st.sampled_from(OPTION_SETS),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_events_and_observations_show_no_other_hand(players, options, seed) -> None:
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    drawn = 0
    while not state.terminal:
        for seat in [None, *range(players)]:
            obs = state.observation(seat)
            seen = {f.card for f in obs.fences} | set(obs.hand)
            for other in range(players):
                if other != seat:
                    assert not seen & set(state.hands[other])
            assert not seen & set(state.fence_pile) and not seen & set(state.fence_box)
            msg = CODEC.observation_to_proto(obs)
            assert [c.id for c in msg.hand] == (list(state.hands[seat]) if seat is not None else [])
            assert msg.HasField("seat") == (seat is not None)
        legal = state.legal_actions()
        for event in state.apply(legal[rng.randrange(len(legal))]):
            payload = event.payload
            if isinstance(payload, FenceDrawn):
                drawn += 1
                assert event.seat == payload.seat and payload.card >= 0
                assert event.redacted == FenceDrawn(payload.seat, -1)
                for viewer in [None, *range(players)]:
                    seen = event.visible_to(viewer)
                    msg = CODEC.event_to_proto(seen)
                    assert msg.fence_drawn.HasField("card") == (viewer == payload.seat)
            else:
                assert event.seat is None  # everything else happens in the open
    assert drawn > 0


def test_spectator_sees_no_hand_at_all() -> None:
    state = GAME.new_state(4, 5)
    obs = state.observation(None)
    assert obs.hand == () and obs.seat is None
    assert obs.hand_sizes == (1, 1, 1, 1)
    assert len(CODEC.observation_to_proto(obs).hand) == 0


def _cards_named(action: object) -> tuple[list[int], list[int]]:
    """(fence cards, sheep cards) an action names."""
    if isinstance(action, PlaceFence):
        return [action.card], []
    if isinstance(action, Score):
        return [], [*action.scored, *action.discarded]
    if isinstance(action, PickSheep | Bump | MoveSheep):
        return [], [action.card]
    return [], []


@settings(max_examples=40, deadline=None)
@given(**ANY_GAME)
def test_legal_actions_name_only_cards_the_seat_to_move_sees(players, options, seed) -> None:
    """Rules README: a player never sees another player's hidden cards nor the order
    of any deck, through the actions offered either: every fence card an action
    names is in the hand of the seat to move, every sheep is on the table, and
    every decision of a turn goes to the player whose turn it is."""
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    while not state.terminal:
        seat = state.to_move
        assert seat is not None
        if not isinstance(state.legal_actions()[0], TurnFence):
            assert seat == state.current
        on_table = {card for area in state.areas for card in area}
        for action in state.legal_actions():
            fences, sheep = _cards_named(action)
            assert set(fences) <= set(state.hands[seat]), action
            assert set(sheep) <= on_table, action
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
