"""Copies of one face: which id a seat shows when it places or discards one.

Cards with the same colour, number and icon are interchangeable, but each has
its own id, and ids are public once a card is face up. Showing the lowest id
of the face in the hand told the other seats what else the hand held: a seat
everybody saw take card 11 from the market that then showed 10 held 10 too,
and one showing 11 held no 10. The id shown must depend on public facts only:
a copy everybody saw enter the hand if there is one, else the lowest copy of
the face whose place nobody knows (traded with the copy the hand holds).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import Event
from games.sheep_n_sheep.actions import BeginFree, Discard, Place
from games.sheep_n_sheep.cards import COPIES, DECK_SIZE, FACE
from games.sheep_n_sheep.events import CardDiscarded, CardPlaced, SetFormed, SetTaken
from games.sheep_n_sheep.state import SheepNSheepState

from .play import GAME, all_cards

W4 = COPIES[FACE[10]]  # cards 10 and 11: white 4s with no icon
MARKET = [(0, 1), (2, 3), (4, 5), (6, 7)]
CODEC = GAME.codec


def _position(
    hand: list[int], *, others: list[int], seen: list[int] | None = None
) -> SheepNSheepState:
    """Seat 0 to move with `hand`; seat 1 holds `others`; the rest is the deck."""
    used = set(hand) | set(others) | {c for pair in MARKET for c in pair}
    return SheepNSheepState.from_position(
        2,
        hands=[hand, others],
        market=MARKET,
        deck=[card for card in range(DECK_SIZE) if card not in used],
        seen_in_hands=[seen or [], []],
    )


def _discard_w4(state: SheepNSheepState) -> list[Event]:
    events = state.apply(BeginFree())
    discard = next(a for a in state.legal_actions() if FACE[a.card] == FACE[W4[0]])
    assert isinstance(discard, Discard)
    return events + state.apply(discard)


def _shown(events: list[Event]) -> int:
    return next(e.payload.card for e in events if isinstance(e.payload, CardDiscarded))


def _what_seat_1_sees(state: SheepNSheepState, events: list[Event]) -> tuple[bytes, list[bytes]]:
    seen = [e.visible_to(1) for e in events]
    return (
        CODEC.observation_bytes(state.observation(1)),
        [CODEC.event_to_proto(p).SerializeToString() for p in seen if p is not None],
    )


def test_a_copy_seen_entering_the_hand_is_the_one_offered_and_shown() -> None:
    state = _position([10, 11, 60], others=[50, 61], seen=[11])
    state.apply(BeginFree())
    assert Discard(11) in state.legal_actions() and Discard(10) not in state.legal_actions()
    state = _position([10, 11, 60], others=[50, 61], seen=[11])
    assert _shown(_discard_w4(state)) == 11
    assert state.hand(0) == (10, 60)


def test_a_seen_copy_shows_the_same_whether_or_not_the_hand_holds_another() -> None:
    """The helper's reproduction: seat 0 took 11 in view of all; holding 10 as
    well or not, seat 1 sees the same events and the same observation."""
    views = []
    for hand in ([11, 50, 60], [10, 11, 60]):
        state = _position(hand, others=[61, 62], seen=[11])
        events = _discard_w4(state)
        assert _shown(events) == 11
        views.append(_what_seat_1_sees(state, events))
    assert views[0] == views[1]


@pytest.mark.parametrize("where", ["hand", "deck", "other hand"])
def test_a_hidden_copy_shows_the_lowest_hidden_id_wherever_the_copies_are(where: str) -> None:
    """No copy seen: the lowest id nobody has placed is shown, and the copy the
    hand held takes its place, so the deck and the hands keep their faces."""
    hand = {"hand": [10, 11, 60], "deck": [11, 50, 60], "other hand": [11, 50, 60]}[where]
    others = [10, 61] if where == "other hand" else [50, 61] if where == "hand" else [61, 62]
    state = _position(hand, others=others)
    faces_before = {seat: sorted(FACE[c] for c in state.hand(seat)) for seat in (0, 1)}
    deck_faces_before = [FACE[c] for c in state.deck]
    events = _discard_w4(state)
    assert _shown(events) == 10 and state.discard == (10,)
    assert sorted(all_cards(state)) == list(range(DECK_SIZE))
    assert [FACE[c] for c in state.deck] == deck_faces_before
    assert sorted(FACE[c] for c in state.hand(1)) == faces_before[1]
    faces_before[0].remove(FACE[10])
    assert sorted(FACE[c] for c in state.hand(0)) == faces_before[0]
    if where == "other hand":
        assert 11 in state.hand(1)
    if where == "deck":
        assert 11 in state.deck


def test_a_hidden_copy_shows_the_same_whether_the_hand_holds_one_copy_or_two() -> None:
    """Holding 10 and 11 or only 11 (10 in the deck), seat 1 sees the same."""
    views = []
    for hand in ([10, 11, 60], [11, 50, 60]):
        state = _position(hand, others=[61, 62])
        events = _discard_w4(state)
        views.append(_what_seat_1_sees(state, events))
    assert views[0] == views[1]


class _PublicRecord:
    """What every seat knows from the public events alone: which ids are face up
    or were seen going into a hand, and which seen ids each hand still holds."""

    def __init__(self, state: SheepNSheepState) -> None:
        self.placed_somewhere: set[int] = {c for pair in state.market for c in pair}
        self.seen_in_hand: list[set[int]] = [set() for _ in range(state.players)]
        self.checked = 0

    def expected(self, seat: int, card: int) -> int:
        face = FACE[card]
        seen = sorted(c for c in self.seen_in_hand[seat] if FACE[c] == face)
        if seen:
            return seen[0]
        return next(c for c in COPIES[face] if c not in self.placed_somewhere)

    def __call__(self, state: SheepNSheepState, action: object, events: list[Event]) -> None:
        for event in events:
            payload = event.visible_to(None)
            if isinstance(payload, SetTaken):
                self.seen_in_hand[payload.seat].update(payload.cards)
            elif isinstance(payload, SetFormed):
                self.placed_somewhere.update(payload.cards)
            elif isinstance(payload, CardPlaced | CardDiscarded):
                assert payload.card == self.expected(payload.seat, payload.card)
                self.seen_in_hand[payload.seat].discard(payload.card)
                self.placed_somewhere.add(payload.card)
                self.checked += len(COPIES[FACE[payload.card]]) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_id_shown_follows_from_public_events_alone(players: int, seed: int) -> None:
    """In random games, every card placed or discarded is the copy a spectator
    predicts from the public events alone; no card is lost or doubled by the
    trades."""
    state = GAME.new_state(players, seed)
    assert isinstance(state, SheepNSheepState)
    record = _PublicRecord(state)
    rng = random.Random(seed)
    while not state.terminal:
        legal = state.legal_actions()
        placing = [a for a in legal if isinstance(a, Place | Discard | BeginFree)]
        action = rng.choice(placing if placing and rng.random() < 0.7 else legal)
        record(state, action, state.apply(action))
        assert sorted(all_cards(state)) == list(range(DECK_SIZE))
    assert record.checked > 0


def test_a_position_with_some_cards_out_of_the_game_shows_a_copy_in_play() -> None:
    """A position built by hand may leave cards out of every zone (a puzzle, a
    rulebook scenario): they are out of the game, and everybody knows it. Card 10
    is such a card, so the white 4 placed from the hand shows as 11, the copy in
    play, instead of failing to find 10 to trade with."""
    state = SheepNSheepState.from_position(
        2, hands=[[W4[1], 40], [41, 42]], market=[(50, 51)], deck=[60], last_turn=1
    )
    state.apply(BeginFree())
    state.apply(Discard(40))
    events = state.apply(Place(W4[1], 0, 0))
    assert events[0].payload == CardPlaced(0, W4[1], 0, 0, "")
    assert state.pasture(0) == {(0, 0): W4[1]} and state.hand(0) == ()
