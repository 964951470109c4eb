"""The end trigger, refills from the stock, the shrinking market and the final round."""

from __future__ import annotations

import pytest

from games.sheep_n_sheep.actions import BeginFree, Discard, Place, TakeSet
from games.sheep_n_sheep.events import (
    CardDrawn,
    EndTriggered,
    GameEnded,
    SetFormed,
    SetTaken,
    TurnEnded,
)
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker


def _state(players: int, pick: Picker, deck: list[int], stock: list[int], **kw) -> SheepNSheepState:
    hands = kw.pop("hands", None) or [pick.filler(2) for _ in range(players)]
    market = kw.pop("market", None) or [tuple(pick.filler(2)) for _ in range(4)]
    return SheepNSheepState.from_position(
        players, hands=hands, market=market, deck=deck, stock=stock, **kw
    )


def _take_turns(state: SheepNSheepState, count: int) -> list[int]:
    """Play `count` turns (take set 0 when possible, else the last legal action
    until the turn is over); return the seats that moved."""
    seats = []
    for _ in range(count):
        seat = state.to_move
        seats.append(seat)
        turn = state.turn
        while state.to_move is not None and state.turn == turn:
            legal = state.legal_actions()
            state.apply(TakeSet(0) if TakeSet(0) in legal else legal[-1])
    return seats


def _about_to_trigger(players: int, seat: int, turn: int) -> SheepNSheepState:
    """Empty hands and an empty deck at `seat`'s turn `turn`: its set taken
    triggers the end (2-3 players refill from a stock, 4 players have none)."""
    pick = Picker()
    return _state(
        players,
        pick,
        deck=[],
        stock=pick.filler(40) if players < 4 else [],
        hands=[[] for _ in range(players)],
        seat=seat,
        turn=turn,
    )


def test_trigger_when_the_deck_cannot_form_a_set_two_players_refill_from_stock() -> None:
    """'When you are unable to form the 4th set in the replenishing area from the
    deck (i.e. the deck is empty), the game end is triggered. In a 2-3 player
    game, draw cards from the stock to replenish the sets for the rest of the game.'"""
    pick = Picker()
    stock = pick.filler(6)
    state = _state(2, pick, deck=[], stock=stock)
    events = [e.payload for e in state.apply(TakeSet(1))]
    assert EndTriggered(0, 3) in events
    assert SetFormed(1, (stock[-1], stock[-2]), 2) in events
    assert state.market[1] == (stock[-1], stock[-2]) and len(state.stock) == 4
    assert state.observation(None).end_triggered and state.last_turn == 3


def test_trigger_with_one_card_left_uses_it_then_the_stock() -> None:
    """Notes: 'the first time a refill finds fewer than 2 cards in the deck. From
    then on, 2-3 players refill from what is left of the deck and then the stock.'"""
    pick = Picker()
    deck, stock = pick.filler(1), pick.filler(4)
    state = _state(3, pick, deck=deck, stock=stock)
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert any(isinstance(e, EndTriggered) for e in events)
    assert state.market[0] == (deck[0], stock[-1])
    assert SetFormed(0, (deck[0], stock[-1]), 1) in events


def test_no_trigger_while_the_deck_still_forms_a_set() -> None:
    """The deck with exactly 2 cards still forms the set: no trigger yet."""
    pick = Picker()
    state = _state(2, pick, deck=pick.filler(2), stock=pick.filler(4))
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert not any(isinstance(e, EndTriggered) for e in events)
    assert state.last_turn is None and state.deck == ()


def test_four_players_market_shrinks_after_the_trigger() -> None:
    """'In a 4 player game, carry on the game without replenishing the sets.'"""
    pick = Picker()
    market = [tuple(pick.filler(2)) for _ in range(4)]
    state = _state(4, pick, deck=pick.filler(1), stock=[], market=market)
    state.apply(TakeSet(1))
    assert state.market == (market[0], market[2], market[3])
    assert len(state.deck) == 1  # the odd card forms no set
    state.apply(TakeSet(0))
    assert state.market == (market[2], market[3])


def test_a_set_is_only_formed_with_two_cards() -> None:
    """Notes: 'A set is only formed with 2 cards.' Deck and stock hold one card."""
    pick = Picker()
    market = [tuple(pick.filler(2)) for _ in range(4)]
    state = _state(2, pick, deck=[], stock=pick.filler(1), market=market)
    state.apply(TakeSet(0))
    assert state.market == tuple(market[1:]) and len(state.stock) == 1


@pytest.mark.parametrize(
    ("players", "trigger_seat", "expected_seats"),
    [
        (3, 0, [0, 1, 2, 0, 1, 2]),
        (3, 1, [1, 2, 0, 1, 2]),
        (2, 0, [0, 1, 0, 1]),
        (4, 0, [0, 1, 2, 3, 0, 1, 2, 3]),
        (4, 2, [2, 3, 0, 1, 2, 3]),
    ],
)
def test_equal_turns_then_one_more_turn_each(
    players: int, trigger_seat: int, expected_seats: list[int]
) -> None:
    """'When the end condition of the game is satisfied, play continues to the last
    player (such that all players have had an equal number of turns), then all
    players will perform one more turn.' Notes: 'every player takes exactly one
    more turn, seat 0 first; then the game ends.'"""
    state = _about_to_trigger(players, seat=trigger_seat, turn=4 * players + trigger_seat)
    seats = _take_turns(state, len(expected_seats))
    assert seats == expected_seats
    assert state.terminal and state.to_move is None and state.legal_actions() == ()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_trigger_during_the_last_seat_starts_the_final_round_at_once(players: int) -> None:
    """Notes: 'If the trigger happens during seat N-1's turn, the final round
    starts right after that turn.' With every player count: everybody has had
    the same number of turns already, so each takes exactly one more."""
    last = players - 1
    state = _about_to_trigger(players, seat=last, turn=2 * players + last)
    assert _take_turns(state, players + 1) == [last, *range(players)]
    assert state.terminal and state.last_turn == 4 * players - 1


def test_game_end_reports_scores_and_a_result() -> None:
    """The last turn's events end with GameEnded, and result() is available."""
    pick = Picker()
    state = _state(2, pick, deck=[], stock=[], hands=[[], []], seat=1, turn=7, last_turn=7)
    with pytest.raises(ValueError):
        state.result()
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert isinstance(events[-1], GameEnded)
    assert state.terminal and len(state.result().scores) == 2


def test_a_free_placement_can_end_the_game() -> None:
    """A turn that places cards counts the same as a turn that takes a set."""
    pick = Picker()
    a, b = pick("grey", 1), pick("grey", 2)
    state = _state(
        2, pick, deck=[], stock=[], hands=[pick.filler(1), [a, b]], seat=1, turn=3, last_turn=3
    )
    state.apply(BeginFree())
    state.apply(Discard(a))
    state.apply(Place(b, 0, 0))
    assert state.terminal
    assert state.pasture(1) == {(0, 0): b}


def test_the_events_of_a_set_taken_at_the_trigger_come_in_the_order_things_happen() -> None:
    """The guide: taking a set gives SetTaken, EndTriggered (if this refill triggers
    the end), SetFormed, one CardDrawn per extra card, then TurnEnded. Two players,
    one card in the deck, a set with a draw icon: the refill finds 1 card (the
    trigger), forms the set from it and the stock's top card, and the draw icon
    takes the stock's next; the other seat sees the draw without its card."""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    deck, stock = pick.filler(1), pick.filler(3)
    state = _state(2, pick, deck=deck, stock=stock, market=market, hands=[[], pick.filler(1)])
    events = state.apply(TakeSet(0))
    assert [e.payload for e in events] == [
        SetTaken(0, 0, draw_set),
        EndTriggered(0, 3),
        SetFormed(0, (deck[0], stock[-1]), 1),
        CardDrawn(0, stock[-2], True),
        TurnEnded(0, 0),
    ]
    drawn = events[3]
    assert drawn.seat == 0 and drawn.redacted == CardDrawn(0, None, True)
