"""Hidden information: no hand, deck or stock card reaches another seat, in
observations, events, the legal actions or their protobuf form; the spectator
sees no hand.

Notes: 'Hands are private (others see their size). Deck and stock order are
hidden; their sizes are public. Market, pastures and the discard pile are public.'
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_n_sheep.actions import BeginRun, BeginSame, Discard, Place, Stop, TakeSet
from games.sheep_n_sheep.cards import DECK_SIZE, FACE, NUMBER
from games.sheep_n_sheep.events import CardDrawn, TurnEnded
from games.sheep_n_sheep.observation import SheepNSheepObservation
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker
from .play import GAME, play

CODEC = GAME.codec


def proto_card_ids(message: Message) -> list[int]:
    """Every SheepNSheepCard id anywhere inside `message`."""
    found: list[int] = []
    if message.DESCRIPTOR.name == "SheepNSheepCard":
        return [message.id]
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        values = value if field.is_repeated else [value]
        for item in values:
            found.extend(proto_card_ids(item))
    return found


def payload_card_ids(payload: object) -> list[int]:
    ids: list[int] = []
    for f in dataclasses.fields(payload):  # type: ignore[arg-type]
        value = getattr(payload, f.name)
        if f.name == "card" and value is not None:
            ids.append(value)
        elif f.name == "cards":
            ids.extend(value)
    return ids


def observation_card_ids(obs: SheepNSheepObservation) -> list[int]:
    ids = list(obs.hand) + [c for pair in obs.market for c in pair] + list(obs.discard)
    ids += [card for pasture in obs.pastures for _, _, card in pasture]
    return ids


def _public(state: SheepNSheepState) -> set[int]:
    cards = {c for pair in state.market for c in pair} | set(state.discard)
    for seat in range(state.players):
        cards |= set(state.pasture(seat).values())
    return cards


class Watcher:
    """Checks every observation and event for every viewer after each action."""

    def __init__(self, state: SheepNSheepState) -> None:
        self.seen_public = _public(state)  # every card that was ever face up
        self.viewers = (None, *range(state.players))
        self.private_draws = 0

    def __call__(self, state: SheepNSheepState, action: object, events: list) -> None:
        public_now = _public(state)
        allowed_public = self.seen_public | public_now
        hands = [set(state.hand(seat)) for seat in range(state.players)]
        pile = set(state.deck) | set(state.stock)
        for viewer in self.viewers:
            own = set() if viewer is None else hands[viewer]
            hidden = pile.union(*(h for seat, h in enumerate(hands) if seat != viewer))
            obs = state.observation(viewer)
            assert obs.hand == (() if viewer is None else state.hand(viewer))
            assert not set(observation_card_ids(obs)) & hidden
            msg = CODEC.observation_to_proto(obs)
            assert not set(proto_card_ids(msg)) & hidden
            assert sorted(c.id for c in msg.hand) == sorted(own)
            for event in events:
                payload = event.visible_to(viewer)
                if payload is None:
                    continue
                cards = set(payload_card_ids(payload))
                if not cards:
                    continue
                wire = set(proto_card_ids(CODEC.event_to_proto(payload)))
                assert cards == wire
                assert cards <= allowed_public | own, (viewer, payload)
        self.seen_public = allowed_public
        if state.to_move is not None:
            self.check_legal(state)
        for event in events:
            if isinstance(event.payload, CardDrawn):
                self.private_draws += 1
                assert event.seat == event.payload.seat
                redacted = CardDrawn(event.payload.seat, None, event.payload.from_stock)
                assert event.redacted == redacted

    @staticmethod
    def check_legal(state: SheepNSheepState) -> None:
        """The seat to move is offered only cards of its own hand (and starts on
        its own pasture): the list, sent to that seat alone, must not name a card
        of another hand, the deck or the stock either."""
        seat = state.to_move
        assert seat is not None
        own = set(state.hand(seat))
        pasture = set(state.pasture(seat))
        for action in state.legal_actions():
            if isinstance(action, Place | Discard):
                assert action.card in own, (seat, action)
            if isinstance(action, BeginSame | BeginRun) and action.start is not None:
                assert action.start in pasture, (seat, action)
            assert set(proto_card_ids(CODEC.action_to_proto(action))) <= own, (seat, action)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_no_hidden_card_reaches_another_seat(players: int, seed: int) -> None:
    state = GAME.new_state(players, seed)
    watcher = Watcher(state)  # type: ignore[arg-type]
    play(players, seed, each=watcher)


def test_private_draws_happen_and_are_redacted() -> None:
    """The check above must meet real private events: draw icons do fire in
    random games, and their public version has no card."""
    drawn = [
        event
        for seed in range(10)
        for event in play(3, seed).events
        if isinstance(event.payload, CardDrawn)
    ]
    assert drawn
    for event in drawn:
        assert event.payload.card is not None and event.seat == event.payload.seat
        assert event.visible_to(None).card is None
        assert event.visible_to((event.seat + 1) % 3).card is None
        assert event.visible_to(event.seat) is event.payload
        assert not CODEC.event_to_proto(event.redacted).card_drawn.HasField("card")


class _LeakyState(SheepNSheepState):
    """A broken engine that shows seat 1's hand to everybody."""

    def observation(self, seat: int | None) -> SheepNSheepObservation:
        obs = super().observation(seat)
        return dataclasses.replace(obs, hand=self.hand(1))


def test_the_watcher_catches_a_leak() -> None:
    """The hidden-information check can fail: a leaky observation is caught."""
    state = _LeakyState(2, seed=1)
    with pytest.raises(AssertionError):
        Watcher(state)(state, None, [])


class _LeakyLegalState(SheepNSheepState):
    """A broken engine that offers the seat to move a discard of seat 1's card."""

    def legal_actions(self) -> tuple:
        return (*super().legal_actions(), Discard(self.hand(1)[0]))


def test_the_watcher_catches_a_leak_in_the_legal_actions() -> None:
    """The legal-action check can fail: another seat's card in the list is caught."""
    state = _LeakyLegalState(2, seed=1)
    with pytest.raises(AssertionError):
        Watcher(state)(state, None, [])


def test_spectator_sees_sizes_but_no_hand() -> None:
    """'Hands are private (others see their size).'"""
    state = GAME.new_state(4, seed=11)
    obs = state.observation(None)
    assert obs.hand == () and obs.seat is None
    assert obs.hand_sizes == (2, 2, 2, 2)
    msg = CODEC.observation_to_proto(obs)
    assert not msg.HasField("seat") and len(msg.hand) == 0
    assert list(msg.hand_sizes) == [2, 2, 2, 2] and msg.deck_size == 84


def test_every_seat_sees_each_hand_size_and_only_its_own_cards() -> None:
    """'Hands are private (others see their size).' Three hands of different sizes
    (1, 4 and 0 cards): every seat and a spectator see the three sizes, each at
    its own seat, in the observation and on the wire; only the holder sees cards."""
    pick = Picker()
    hands = [pick.filler(1), pick.filler(4), []]
    state = SheepNSheepState.from_position(
        3,
        hands=hands,
        market=[tuple(pick.filler(2)) for _ in range(4)],
        deck=pick.filler(6),
        stock=pick.filler(3),
    )
    for viewer in (None, 0, 1, 2):
        obs = state.observation(viewer)
        assert obs.hand_sizes == (1, 4, 0), viewer
        assert sorted(obs.hand) == ([] if viewer is None else sorted(hands[viewer]))
        msg = CODEC.observation_to_proto(obs)
        assert list(msg.hand_sizes) == [1, 4, 0], viewer
        assert sorted(c.id for c in msg.hand) == sorted(obs.hand)


def test_observation_carries_no_deck_or_stock_contents() -> None:
    """'Deck and stock order are hidden; their sizes are public.' The observation
    has sizes only: no field holds more than the viewer's cards and public cards."""
    state = GAME.new_state(2, seed=5)
    obs = state.observation(0)
    names = {f.name for f in dataclasses.fields(obs)}
    assert "deck" not in names and "stock" not in names
    assert (obs.deck_size, obs.stock_size) == (38, 50)
    wire_names = {f.name for f in CODEC.observation_to_proto(obs).DESCRIPTOR.fields}
    assert "deck" not in wire_names and "stock" not in wire_names


def _placed_one_same(rest: int) -> tuple[SheepNSheepState, list]:
    """Seat 0 holds a 3 and `rest`, begins a same-number placement from the 3 on
    its pasture and places its 3: what the other seats then see."""
    threes = [card for card in range(DECK_SIZE) if NUMBER[card] == 3]
    start, placed = threes[0], threes[1]
    # No 2 or 3 in the market or the deck: they hold no card of the position.
    others = [card for card in range(DECK_SIZE) if NUMBER[card] not in (2, 3)]
    state = SheepNSheepState.from_position(
        2,
        hands=[[placed, rest], [threes[3], threes[4]]],
        market=[(others[i], others[i + 1]) for i in range(0, 8, 2)],
        deck=others[8:],
        pastures=[{(0, 0): start}, {}],
    )
    events = state.apply(BeginSame((0, 0)))
    place = next(a for a in state.legal_actions() if isinstance(a, Place) and a.card == placed)
    events += state.apply(place)
    return state, events


def test_a_placement_does_not_end_by_itself_on_what_only_the_hand_knows() -> None:
    """Whether the hand still holds a card that fits is the hand's secret. A
    placement that ended by itself when it did not told every other seat (an
    event `turn_ended` in the same move, the next seat to move) which numbers
    the hand lacks. The other seats' view must be the same either way."""
    lacking = next(card for card in range(8, DECK_SIZE) if NUMBER[card] == 2)
    holding = [card for card in range(DECK_SIZE) if NUMBER[card] == 3][2]
    seen = []
    for rest in (lacking, holding):
        state, events = _placed_one_same(rest)
        assert state.hand(0) == (rest,)
        seen.append(
            {
                viewer: (
                    CODEC.observation_bytes(state.observation(viewer)),
                    [
                        CODEC.event_to_proto(p).SerializeToString()
                        for p in (e.visible_to(viewer) for e in events)
                        if p is not None
                    ],
                )
                for viewer in (None, 1)
            }
        )
    assert seen[0] == seen[1]
    # The seat that cannot go on is asked, and may only stop.
    state, _ = _placed_one_same(lacking)
    assert state.to_move == 0 and state.legal_actions() == (Stop(),)


def _could_any_card_follow(before: SheepNSheepState, place: Place) -> bool:
    """Whether, after `place`, some card could continue the placement had the seat
    held every card not yet on its pasture (the same face as `place` only once)."""
    seat = before.to_move
    assert seat is not None
    hypothetical = before.clone()
    on_pasture = set(before.pasture(seat).values())
    face = FACE[place.card]
    hypothetical._hands[seat] = [
        card
        for card in range(DECK_SIZE)
        if card not in on_pasture and (FACE[card] != face or card == place.card)
    ]
    hypothetical._legal = None
    hypothetical.apply(place)
    return any(isinstance(action, Place) for action in hypothetical.legal_actions())


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_placement_ends_by_itself_only_on_public_facts(players: int, seed: int) -> None:
    """After each same-number or run card, the placement ends by itself exactly
    when the hand is empty (its size is public) or no card at all, in anybody's
    hand or not, could follow: never on what only the hand holds."""
    state = GAME.new_state(players, seed)
    assert isinstance(state, SheepNSheepState)
    rng = random.Random(seed)
    while not state.terminal:
        legal = state.legal_actions()
        placing = [a for a in legal if not isinstance(a, TakeSet)]
        action = rng.choice(placing if placing and rng.random() < 0.8 else legal)
        if not (isinstance(action, Place) and state.phase in ("same", "run")):
            state.apply(action)
            continue
        seat = state.to_move
        before = state.clone()
        events = state.apply(action)
        ended = any(isinstance(event.payload, TurnEnded) for event in events)
        assert ended == (not state.hand(seat) or not _could_any_card_follow(before, action)), (
            before.render()
        )
        if not ended:
            assert Stop() in state.legal_actions()


def _redealt(state: SheepNSheepState, holder: int) -> SheepNSheepState:
    """`state` with what only `holder` could tell apart dealt again: each card of
    its hand nobody saw it take traded for a deck or stock card (any face), and
    the deck and the stock in reverse order."""
    other = state.clone()
    hand, piles = other._hands[holder], (other._deck, other._stock)
    for i, card in enumerate(hand):
        pile = next((p for p in piles if p), None)
        if pile is None or card in other._revealed:
            continue
        hand[i], pile[0] = pile[0], card
        pile.append(pile.pop(0))  # the next trade takes another card
    hand.sort()
    other._deck.reverse()
    other._stock.reverse()
    other._legal = None
    return other


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_another_hand_and_the_deck_order_change_nothing_a_seat_is_sent(
    players: int, seed: int
) -> None:
    """Whatever one seat holds and however the deck and stock lie, every other
    seat and a spectator get the same observation, and the seat to move the
    same legal actions: nothing they are sent depends on what they may not see."""
    holders = iter(range(10**6))

    def check(state: SheepNSheepState, action: object, events: list) -> None:
        if state.terminal:
            return
        holder = next(holders) % players
        other = _redealt(state, holder)
        assert [other.hand(s) for s in range(players) if s != holder] == [
            state.hand(s) for s in range(players) if s != holder
        ]
        for viewer in (None, *range(players)):
            if viewer != holder:
                assert CODEC.observation_bytes(other.observation(viewer)) == (
                    CODEC.observation_bytes(state.observation(viewer))
                )
        if state.to_move != holder:
            assert other.legal_actions() == state.legal_actions()

    play(players, seed, each=check)


def test_a_redeal_changes_what_the_holder_sees() -> None:
    """The check above can fail: the holder's own view does change."""
    state = GAME.new_state(3, seed=2)
    assert isinstance(state, SheepNSheepState)
    other = _redealt(state, 1)
    assert other.hand(1) != state.hand(1) and other.deck != state.deck
    assert CODEC.observation_bytes(other.observation(1)) != (
        CODEC.observation_bytes(state.observation(1))
    )
