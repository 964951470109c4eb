"""More rule scenarios: an extra draw that empties the deck, the final round of a
3-player game triggered with one card left in the deck, and the ends of a run.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

from games.sheep_n_sheep.actions import BeginRun, Place, TakeSet
from games.sheep_n_sheep.cards import CARDS
from games.sheep_n_sheep.events import CardDrawn, EndTriggered, GameEnded, SetFormed, TurnEnded
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker


def _places(state: SheepNSheepState) -> set[tuple[int, str]]:
    """(number, branch) of every Place action offered now."""
    return {(CARDS[a.card].number, a.branch) for a in state.legal_actions() if isinstance(a, Place)}


# ------------------------------------------------------------------ the end trigger


def test_extra_draw_that_empties_the_deck_does_not_trigger_the_end() -> None:
    """Notes: 'End trigger: the first time a refill finds fewer than 2 cards in the
    deck.' An extra draw for a draw icon is not a refill: it may take the deck's last
    card without triggering the end; the next refill, finding no cards, does."""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    deck, stock = pick.filler(3), pick.filler(4)
    state = SheepNSheepState.from_position(
        2, hands=[pick.filler(1), pick.filler(1)], market=market, deck=deck, stock=stock
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    # the refill takes deck[-1] and deck[-2]; the extra draw takes the last card
    assert SetFormed(0, (deck[-1], deck[-2]), 0) in events
    assert CardDrawn(0, deck[0], False) in events
    assert state.deck == ()
    assert not any(isinstance(e, EndTriggered) for e in events)
    assert state.last_turn is None and not state.observation(None).end_triggered

    events = [e.payload for e in state.apply(TakeSet(1))]
    assert EndTriggered(1, 3) in events
    assert SetFormed(1, (stock[-1], stock[-2]), 2) in events
    assert state.last_turn == 3 and state.observation(None).end_triggered


def test_three_players_final_round_after_a_trigger_that_used_the_stock() -> None:
    """'When the end condition of the game is satisfied, play continues to the last
    player (such that all players have had an equal number of turns), then all
    players will perform one more turn.' Here the trigger comes during seat 1's
    turn, when the refill finds 1 card in the deck and completes the set from the
    stock: seat 2 finishes the round, then seats 0, 1 and 2 each play exactly one
    more turn and the game ends."""
    pick = Picker()
    deck, stock = pick.filler(1), pick.filler(12)
    state = SheepNSheepState.from_position(
        3,
        hands=[pick.filler(2) for _ in range(3)],
        market=[tuple(pick.filler(2)) for _ in range(4)],
        deck=deck,
        stock=stock,
        seat=1,
        turn=4,
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert EndTriggered(1, 8) in events
    assert SetFormed(0, (deck[0], stock[-1]), 1) in events
    assert state.deck == () and state.last_turn == 8

    ended: list[tuple[int, int]] = []
    payloads = []
    while not state.terminal:
        legal = state.legal_actions()
        for event in state.apply(TakeSet(0) if TakeSet(0) in legal else legal[-1]):
            payloads.append(event.payload)
            if isinstance(event.payload, TurnEnded):
                ended.append((event.payload.seat, event.payload.turn))
    # (seat, turn): seat 2 ends the round, then one more turn each, seat 0 first
    assert ended == [(2, 5), (0, 6), (1, 7), (2, 8)]
    assert isinstance(payloads[-1], GameEnded)
    assert state.to_move is None and state.legal_actions() == ()


# ------------------------------------------------------------------ the ends of a run


def test_run_from_a_1_offers_no_down_branch() -> None:
    """'From this card, place a card string of consecutive numbers (1-2-3, 2-3-4-5,
    4-3-2-1 etc.)'; notes: 'Numbers stay within 1..5.' From a 1 only the ascending
    branch is offered: a 5 in hand never continues below the 1."""
    pick = Picker()
    start = pick("white", 1)
    c2, c3, c5 = pick("grey", 2), pick("blue", 3), pick("pink", 5)
    state = SheepNSheepState.from_position(
        2,
        hands=[[c2, c3, c5], pick.filler(2)],
        market=[tuple(pick.filler(2)) for _ in range(4)],
        deck=pick.filler(10),
        pastures=[{(0, 0): start}, {}],
    )
    assert BeginRun((0, 0)) in state.legal_actions()
    state.apply(BeginRun((0, 0)))
    assert _places(state) == {(2, "up")}
    assert state.observation(0).placement.down_next is None
    state.apply(Place(c2, 1, 0, "up"))
    assert _places(state) == {(3, "up")}

    # with only the 5 next to numbers in hand, a run from the 1 is not offered at all
    pick = Picker()
    start = pick("white", 1)
    state = SheepNSheepState.from_position(
        2,
        hands=[[pick("pink", 5), pick("grey", 4)], pick.filler(2)],
        market=[tuple(pick.filler(2)) for _ in range(4)],
        deck=pick.filler(10),
        pastures=[{(0, 0): start}, {}],
    )
    assert not any(isinstance(a, BeginRun) for a in state.legal_actions())


def test_run_from_a_5_offers_no_up_branch() -> None:
    """'From this card, place a card string of consecutive numbers (1-2-3, 2-3-4-5,
    4-3-2-1 etc.)'; notes: 'Numbers stay within 1..5.' From a 5 only the descending
    branch is offered: a 1 in hand never continues above the 5."""
    pick = Picker()
    start = pick("white", 5)
    c4, c3, c1 = pick("grey", 4), pick("blue", 3), pick("pink", 1)
    state = SheepNSheepState.from_position(
        2,
        hands=[[c4, c3, c1], pick.filler(2)],
        market=[tuple(pick.filler(2)) for _ in range(4)],
        deck=pick.filler(10),
        pastures=[{(0, 0): start}, {}],
    )
    assert BeginRun((0, 0)) in state.legal_actions()
    state.apply(BeginRun((0, 0)))
    assert _places(state) == {(4, "down")}
    assert state.observation(0).placement.up_next is None
    state.apply(Place(c4, 1, 0, "down"))
    assert _places(state) == {(3, "down")}
