"""Rulebook sentences of the game's end that had no scenario of their own: a draw
icon after the 4-player trigger, a 3-player draw icon at the trigger drawing from
the stock, a 4-player market running out in the final round, a last turn that
places several cards, two draw icons at the 4-player trigger with one card left,
a failed refill in the final round that does not move the end, 2-player refills
from the stock after the trigger, for the rest of the game, a last turn ended by
placing the hand's last card or by a draw icon, and the odd card a 4-player
trigger leaves for a later draw.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-n-sheep.md).
"""

from __future__ import annotations

from games.sheep_n_sheep.actions import BeginSame, Pass, Place, Stop, TakeSet
from games.sheep_n_sheep.events import CardDrawn, EndTriggered, GameEnded, Passed, SetFormed
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker


def test_four_players_a_draw_icon_at_the_trigger_still_draws_the_decks_last_card() -> None:
    """'In a 4 player game, carry on the game without replenishing the sets', but a
    draw icon still says 'add the card from your deck to your hand': taking a set
    with a draw icon when one card is left, the refill forms no set (the end is
    triggered, the market shrinks to 3) and the extra draw takes that last card."""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    last = pick("blue", 3)
    state = SheepNSheepState.from_position(
        4, hands=[[], *[pick.filler(2) for _ in range(3)]], market=market, deck=[last]
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert EndTriggered(0, 7) in events
    assert state.market == tuple(market[1:])
    assert CardDrawn(0, last, False) in events
    assert sorted(state.hand(0)) == sorted([*draw_set, last]) and state.deck == ()


def test_three_players_a_draw_icon_at_the_trigger_draws_from_the_stock() -> None:
    """'In a 2-3 player game, draw cards from the stock to replenish the sets for
    the rest of the game', and a draw icon still adds a card: taking a set with a
    draw icon when the deck holds 1 card triggers the end, the new set is that
    card and the stock's top card, and the extra card is the stock's next."""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    last, stock = pick("blue", 3), pick.filler(3)
    state = SheepNSheepState.from_position(
        3, hands=[[], pick.filler(2), pick.filler(2)], market=market, deck=[last], stock=stock
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert EndTriggered(0, 5) in events
    assert SetFormed(0, (last, stock[-1]), 1) in events
    assert CardDrawn(0, stock[-2], True) in events
    assert sorted(state.hand(0)) == sorted([*draw_set, stock[-2]])
    assert state.deck == () and state.stock == (stock[0],)


def test_four_players_the_market_runs_out_in_the_final_round_and_the_rest_do_nothing() -> None:
    """'In a 4 player game, carry on the game without replenishing the sets' and
    'In the unlikely event that there are no sets left to carry out action A, do
    not draw any cards and do nothing instead': with 2 sets left in the final
    round and every hand empty, seats 0 and 1 take them, seats 2 and 3 (who must
    take with 0 cards) can only do nothing, and the game ends after seat 3."""
    pick = Picker()
    market = [tuple(pick.filler(2)) for _ in range(2)]
    state = SheepNSheepState.from_position(
        4, hands=[[], [], [], []], market=market, deck=[], turn=4, last_turn=7
    )
    state.apply(TakeSet(1))
    assert state.market == (market[0],)
    state.apply(TakeSet(0))
    assert state.market == () and state.hand(1) == tuple(sorted(market[0]))
    for seat in (2, 3):
        assert state.to_move == seat and state.legal_actions() == (Pass(),)
        events = [e.payload for e in state.apply(Pass())]
        assert Passed(seat) in events
    assert state.terminal and [len(state.hand(s)) for s in range(4)] == [2, 2, 0, 0]


def test_a_last_turn_placing_several_cards_ends_the_game_only_when_it_stops() -> None:
    """'all players now take one last action', and action B places 'one or more
    cards' one by one: on the game's last turn the game ends when the placement
    does (at stop), not after its first card."""
    pick = Picker()
    start = pick("white", 3)
    threes = [pick("grey", 3), pick("blue", 3), pick("pink", 3)]
    state = SheepNSheepState.from_position(
        2,
        hands=[pick.filler(1), threes],
        market=[tuple(pick.filler(2))],
        deck=[],
        pastures=[{}, {(0, 0): start}],
        seat=1,
        turn=3,
        last_turn=3,
    )
    state.apply(BeginSame((0, 0)))
    state.apply(Place(threes[0], 1, 0))
    assert not state.terminal and state.to_move == 1
    state.apply(Place(threes[1], 2, 0))
    assert not state.terminal and Stop() in state.legal_actions()
    events = [e.payload for e in state.apply(Stop())]
    assert isinstance(events[-1], GameEnded) and state.terminal
    assert state.pasture(1) == {(0, 0): start, (1, 0): threes[0], (2, 0): threes[1]}


def test_four_players_two_draw_icons_at_the_trigger_share_the_decks_last_card() -> None:
    """'add 1 card for each card with this icon, and add the card from your deck to
    your hand', with 'In a 4 player game, carry on the game without replenishing
    the sets': a set with two draw icons taken when the deck holds one card forms
    no new set (the end is triggered), the first draw takes that card and the
    second finds the deck empty (4 players have no stock) and adds nothing."""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("blue", 4, "draw"))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    last = pick("pink", 3)
    state = SheepNSheepState.from_position(
        4, hands=[[], *[pick.filler(2) for _ in range(3)]], market=market, deck=[last]
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert EndTriggered(0, 7) in events and state.market == tuple(market[1:])
    assert [e for e in events if isinstance(e, CardDrawn)] == [CardDrawn(0, last, False)]
    assert sorted(state.hand(0)) == sorted([*draw_set, last]) and state.deck == ()


def test_a_second_failed_refill_does_not_move_the_end() -> None:
    """'When the end condition of the game is satisfied, play continues to the last
    player (such that all players have had an equal number of turns), then all
    players will perform one more turn': the end is triggered once. In the final
    round of a 2-player game, with deck and stock both empty, a set taken is not
    replaced, yet no second trigger comes and the last turn stays where it was."""
    pick = Picker()
    market = [tuple(pick.filler(2)) for _ in range(3)]
    state = SheepNSheepState.from_position(
        2, hands=[[], []], market=market, deck=[], stock=[], seat=0, turn=4, last_turn=5
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert not any(isinstance(e, (EndTriggered, SetFormed)) for e in events)
    assert state.market == tuple(market[1:]) and state.last_turn == 5
    state.apply(TakeSet(0))
    assert state.terminal and state.market == (market[2],)


def test_two_players_refill_from_the_stock_for_the_rest_of_the_game() -> None:
    """'In a 2-3 player game, draw cards from the stock to replenish the sets for
    the rest of the game.' Not only the refill that triggers the end: every set
    taken after it, in the final round too, is replaced from the stock, while the
    end stays where the trigger put it."""
    pick = Picker()
    market = [tuple(pick.filler(2)) for _ in range(4)]
    stock = pick.filler(6)
    state = SheepNSheepState.from_position(
        2, hands=[[], []], market=market, deck=[], stock=stock, seat=1, turn=3
    )
    state.apply(TakeSet(0))  # seat 1 triggers: the final round is turns 4 and 5
    assert state.last_turn == 5 and state.market[0] == (stock[-1], stock[-2])
    events = [e.payload for e in state.apply(TakeSet(2))]  # seat 0, final round
    assert SetFormed(2, (stock[-3], stock[-4]), 2) in events
    assert not any(isinstance(e, EndTriggered) for e in events)
    events = [e.payload for e in state.apply(TakeSet(3))]  # seat 1, the last turn
    assert SetFormed(3, (stock[-5], stock[-6]), 2) in events
    assert state.stock == () and state.terminal and state.last_turn == 5


def test_a_last_turn_placement_that_empties_the_hand_ends_the_game_at_once() -> None:
    """'all players now take one last action': a placement on the game's last
    turn that places the hand's last card ends by itself (nothing is left to
    place), and with it the turn and the game, in the same step."""
    pick = Picker()
    start, three = pick("white", 3), pick("grey", 3)
    state = SheepNSheepState.from_position(
        2,
        hands=[[], [three]],
        market=[],
        deck=[],
        pastures=[{}, {(0, 0): start}],
        seat=1,
        turn=3,
        last_turn=3,
    )
    state.apply(BeginSame((0, 0)))
    events = [e.payload for e in state.apply(Place(three, 1, 0, ""))]
    assert [type(e).__name__ for e in events] == ["CardPlaced", "TurnEnded", "GameEnded"]
    assert state.terminal and state.hand(1) == ()


def test_four_players_the_odd_card_left_at_the_trigger_goes_to_a_later_draw_icon() -> None:
    """'In a 4 player game, carry on the game without replenishing the sets', and a
    draw icon 'add[s] the card from your deck to your hand': the odd card the
    trigger left in the deck forms no set, and a draw icon taken in the final
    round draws it; no set is formed and the end does not move."""
    pick = Picker()
    odd = pick("pink", 3)
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set, tuple(pick.filler(2))]
    state = SheepNSheepState.from_position(
        4,
        hands=[[], *[pick.filler(2) for _ in range(3)]],
        market=market,
        deck=[odd],
        turn=4,
        last_turn=7,
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert [type(e).__name__ for e in events] == ["SetTaken", "CardDrawn", "TurnEnded"]
    assert CardDrawn(0, odd, False) in events
    assert state.market == (market[1],) and state.deck == () and state.last_turn == 7


def test_a_draw_icon_on_the_last_turn_draws_and_the_card_drawn_scores_nothing() -> None:
    """'add 1 card for each card with this icon' still holds on the game's last
    action: the card comes (from the stock, with 2 players), then the turn and
    the game end; it stays in the hand, where it scores nothing."""
    pick = Picker()
    draw_set = (pick(None, None, "draw"), pick(None, None, "bell"))
    heart = pick(None, None, "heart")
    state = SheepNSheepState.from_position(
        2,
        hands=[[], []],
        market=[draw_set],
        deck=[],
        stock=[heart],
        pastures=[{(0, 0): pick("black", None)}, {}],
        seat=1,
        turn=3,
        last_turn=3,
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert [type(e).__name__ for e in events] == ["SetTaken", "CardDrawn", "TurnEnded", "GameEnded"]
    assert CardDrawn(1, heart, True) in events and heart in state.hand(1)
    assert state.result().scores == (0.0, 0.0)
