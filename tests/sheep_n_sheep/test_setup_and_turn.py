"""Setup, the choice between A and B, taking a set, draw icons and PASS.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-n-sheep.md).
"""

from __future__ import annotations

import pytest

import games
from games.errors import IllegalAction
from games.sheep_n_sheep.actions import (
    BeginFree,
    BeginRun,
    BeginSame,
    Pass,
    Place,
    TakeSet,
)
from games.sheep_n_sheep.cards import CARDS
from games.sheep_n_sheep.events import CardDrawn, Passed, SetFormed, SetTaken, TurnEnded
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker, two_player_position

GAME = games.get("sheep-n-sheep")


@pytest.mark.parametrize(("players", "deck", "stock"), [(2, 38, 50), (3, 61, 25), (4, 84, 0)])
def test_setup_deck_stock_deal_and_market(players: int, deck: int, stock: int) -> None:
    """'2 players: 50 form the deck, 50 the stock. 3 players: 75 deck, 25 stock.
    4 players: all 100 deck, no stock. Deal 2 cards to each player, then lay 4
    face-up sets of 2 (the market).'"""
    state = GAME.new_state(players, seed=7)
    obs = state.observation(None)
    assert obs.hand_sizes == (2,) * players
    assert len(obs.market) == 4 and all(len(s) == 2 for s in obs.market)
    assert (obs.deck_size, obs.stock_size) == (deck, stock)
    everything = [c for h in range(players) for c in state.hand(h)]
    everything += [c for s in state.market for c in s] + list(state.deck) + list(state.stock)
    assert sorted(everything) == list(range(100))


@pytest.mark.parametrize(("players", "deck"), [(2, 38), (3, 61), (4, 84)])
def test_a_draw_icon_dealt_at_setup_draws_nothing(players: int, deck: int) -> None:
    """'The start player deals two cards from the deck to each player': two, even
    when one has the draw icon, which works only for 'the cards added to your hand'
    by taking a set (A). Seed 0 deals a draw icon at every player count."""
    state = GAME.new_state(players, seed=0)
    dealt = [card for seat in range(players) for card in state.hand(seat)]
    assert any(CARDS[card].icon == "draw" for card in dealt)
    assert [len(state.hand(seat)) for seat in range(players)] == [2] * players
    assert len(state.deck) == deck


def test_start_player_is_seat_0_and_turns_go_clockwise() -> None:
    """'Seat 0 is the start player'; 'performing turns clockwise'."""
    state = GAME.new_state(3, seed=1)
    seats = []
    for _ in range(7):
        seats.append(state.to_move)
        turn = state.turn
        while state.turn == turn:  # play one whole turn: the first legal action each time
            state.apply(state.legal_actions()[0])
    assert seats == [0, 1, 2, 0, 1, 2, 0]


def test_different_seeds_shuffle_differently_and_same_seed_identically() -> None:
    """'Shuffle all 100' with the state's one seeded generator."""
    a, b, c = (GAME.new_state(2, seed) for seed in (3, 3, 4))
    assert a.deck == b.deck and a.stock == b.stock and a.market == b.market
    assert a.deck != c.deck


def test_hand_of_zero_must_take_a_set() -> None:
    """'When a player has 0 cards, they must carry out option A.'"""
    pick = Picker()
    state = two_player_position([], pick, pastures=[{(0, 0): pick("grey", 3)}, {}])
    assert state.legal_actions() == tuple(TakeSet(i) for i in range(4))


def test_hand_of_six_or_more_must_place() -> None:
    """'if they have 6 or more cards, they must carry out option B.'"""
    pick = Picker()
    hand = [pick("grey", n) for n in (1, 2, 3, 4, 5)] + [pick("blue", 1)]
    state = two_player_position(hand, pick, pastures=[{(0, 0): pick("white", 3)}, {}])
    actions = state.legal_actions()
    assert not any(isinstance(a, TakeSet) for a in actions)
    assert BeginFree() in actions and BeginSame((0, 0)) in actions
    assert BeginRun((0, 0)) in actions


def test_hand_between_one_and_five_may_choose() -> None:
    """'The player on turn must do ONE of the following two actions' (A or B)."""
    pick = Picker()
    state = two_player_position([pick("grey", 3), pick("pink", 4)], pick)
    actions = state.legal_actions()
    assert actions[:4] == tuple(TakeSet(i) for i in range(4))
    assert BeginSame(None) in actions and BeginRun(None) in actions and BeginFree() in actions
    assert Pass() not in actions


def test_take_set_adds_both_cards_and_refills_from_the_deck() -> None:
    """'Choose one of the sets of 2 cards from the replenishment area and add that
    set of 2 cards to your hand. After that, draw two cards from the deck to form
    a new set in the replenishment area.' The new set takes the taken set's place."""
    pick = Picker()
    market = [tuple(pick.filler(2)) for _ in range(4)]
    deck = pick.filler(6)
    state = two_player_position([pick("grey", 3)], pick, market=market, deck=deck)
    events = [e.payload for e in state.apply(TakeSet(2))]
    assert set(market[2]) <= set(state.hand(0)) and len(state.hand(0)) == 3
    assert state.market[2] == (deck[-1], deck[-2])
    assert state.market[:2] == tuple(market[:2]) and state.market[3] == market[3]
    assert state.deck == tuple(deck[:-2])
    assert events[0] == SetTaken(0, 2, market[2])
    assert events[1] == SetFormed(2, (deck[-1], deck[-2]), 0)
    assert isinstance(events[-1], TurnEnded) and state.to_move == 1


def test_draw_icon_draws_one_extra_card_after_the_refill() -> None:
    """'If there is a card with an icon that draws one card among the cards added
    to your hand, add 1 card for each card with this icon' — notes: 'Then refill
    ... Then, for each draw-icon card among the 2 taken, draw 1 extra card.'"""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    deck = pick.filler(5)
    state = two_player_position([], pick, market=market, deck=deck)
    events = state.apply(TakeSet(0))
    assert state.market[0] == (deck[-1], deck[-2])
    assert sorted(state.hand(0)) == sorted([*draw_set, deck[-3]])
    drawn = [e for e in events if isinstance(e.payload, CardDrawn)]
    assert len(drawn) == 1 and drawn[0].payload.card == deck[-3]


def test_two_draw_icons_draw_two_and_extra_cards_never_draw_again() -> None:
    """'add 1 card for each card with this icon'; notes: 'Extra cards never
    trigger further draws.'"""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("blue", 4, "draw"))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    extra_with_draw = pick("pink", 3, "draw")
    deck = [*pick.filler(3), extra_with_draw, *pick.filler(3)]
    state = two_player_position([], pick, market=market, deck=deck)
    state.apply(TakeSet(0))
    # refill takes deck[-1], deck[-2]; the draws take deck[-3] then deck[-4], which
    # has a draw icon itself and draws nothing more
    assert sorted(state.hand(0)) == sorted([*draw_set, deck[-3], deck[-4]])
    assert len(state.deck) == len(deck) - 4


def test_extra_draw_comes_from_the_stock_once_the_deck_is_empty() -> None:
    """Notes: 'draw 1 extra card (deck first; in 2-3 players the stock once the
    deck is empty; nothing if both are empty).'"""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    deck = pick.filler(2)
    stock = pick.filler(3)
    state = two_player_position([], pick, market=market, deck=deck, stock=stock)
    events = state.apply(TakeSet(0))
    assert state.deck == () and stock[-1] in state.hand(0)
    drawn = [e.payload for e in events if isinstance(e.payload, CardDrawn)]
    assert drawn == [CardDrawn(0, stock[-1], True)]


def test_extra_draw_with_deck_and_stock_empty_draws_nothing() -> None:
    """Notes: '... nothing if both are empty'."""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    state = two_player_position([], pick, market=market, deck=[], stock=[])
    events = state.apply(TakeSet(0))
    assert sorted(state.hand(0)) == sorted(draw_set)
    assert not any(isinstance(e.payload, CardDrawn) for e in events)


def test_four_players_extra_draw_with_the_deck_empty_draws_nothing() -> None:
    """Notes: 'in 2-3 players the stock once the deck is empty' — 4 players have
    none (a 4-player position with one is refused, see test_positions), so a draw
    icon taken with the deck empty draws nothing."""
    pick = Picker()
    draw_set = (pick("grey", 1, "draw"), pick("grey", 2))
    market = [draw_set] + [tuple(pick.filler(2)) for _ in range(3)]
    state = SheepNSheepState.from_position(
        4, hands=[[], *[pick.filler(2) for _ in range(3)]], market=market, deck=[]
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert sorted(state.hand(0)) == sorted(draw_set)
    assert not any(isinstance(e, CardDrawn) for e in events)


def test_pass_only_when_no_set_and_no_placement() -> None:
    """Notes: 'If A is impossible (no set in the market) and no placement is legal,
    the only legal action is PASS.' Rulebook: 'there are no sets left to carry
    out action A, do not draw any cards and do nothing instead.'"""
    pick = Picker()
    state = two_player_position([], pick, market=[], deck=[], last_turn=1)
    assert state.legal_actions() == (Pass(),)
    events = [e.payload for e in state.apply(Pass())]
    assert events[0] == Passed(0) and state.to_move == 1 and state.hand(0) == ()


def test_pass_with_one_unplaceable_card() -> None:
    """A single card that fits no start (number differs by 2+ from every pasture
    card) and no set to take: PASS. FREE needs 2+ cards."""
    pick = Picker()
    pasture = {(0, 0): pick("grey", 1)}
    state = two_player_position(
        [pick("blue", 5)], pick, market=[], deck=[], pastures=[pasture, {}], last_turn=1
    )
    assert state.legal_actions() == (Pass(),)


def test_a_hand_that_may_take_may_do_nothing_when_no_set_is_left() -> None:
    """Rulebook: the player on turn does A or B, and with 'no sets left to carry
    out action A, do not draw any cards and do nothing instead'. So a hand of 1-5
    may pass even where a card fits (the notes' 'PASS is never legal otherwise'
    gives way to the rulebook here). PASS comes last: the other actions keep
    their indices."""
    pick = Picker()
    pasture = {(0, 0): pick("grey", 4)}
    state = two_player_position(
        [pick("blue", 5)], pick, market=[], deck=[], pastures=[pasture, {}], last_turn=1
    )
    assert state.legal_actions() == (BeginRun((0, 0)), Pass())
    before = state.pasture(0)
    events = [e.payload for e in state.apply(Pass())]
    assert events[0] == Passed(0) and state.to_move == 1
    assert state.pasture(0) == before and len(state.hand(0)) == 1


def test_a_hand_of_six_must_place_even_with_no_set_left() -> None:
    """Rulebook: 'if they have 6 or more cards, they must carry out option B':
    no PASS while a placement is legal."""
    pick = Picker()
    pasture = {(0, 0): pick("grey", 4)}
    hand = [pick("blue", 5), *pick.filler(5)]
    state = two_player_position(hand, pick, market=[], deck=[], pastures=[pasture, {}], last_turn=1)
    assert Pass() not in state.legal_actions()
    assert state.legal_actions()


def test_pass_is_not_legal_while_a_set_is_left() -> None:
    """A set in the market: A is possible, so choosing it takes the set; no PASS."""
    pick = Picker()
    pasture = {(0, 0): pick("grey", 4)}
    market = [tuple(pick.filler(2))]
    state = two_player_position(
        [pick("blue", 5)], pick, market=market, deck=[], pastures=[pasture, {}], last_turn=1
    )
    assert Pass() not in state.legal_actions()


def test_illegal_action_raises_and_leaves_the_state_unchanged() -> None:
    """The contract: IllegalAction and no change."""
    state = GAME.new_state(2, seed=3)
    before = state.render(), state.observation(0), state.observation(1)
    for bad in (TakeSet(4), Place(0, 5, 5), Pass(), BeginSame((3, 3)), "nonsense"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert (state.render(), state.observation(0), state.observation(1)) == before


def test_prompt_and_render_describe_the_position() -> None:
    state = GAME.new_state(2, seed=3)
    assert "seat 0" in state.prompt()
    assert "market" in state.render() and "seat 1" in state.render()


def test_render_counts_a_hand_of_one_card_in_the_singular() -> None:
    state = SheepNSheepState.from_position(
        2, hands=[[3], [1, 2]], market=[(4, 5)], deck=[6], last_turn=1
    )
    assert "seat 0: hand 1 card\n" in state.render()
    assert "seat 1: hand 2 cards\n" in state.render()


def test_a_hand_of_five_may_still_take_a_set_or_do_nothing_without_one() -> None:
    """'if they have 6 or more cards, they must carry out option B': 5 is under
    the limit, so A stays open (and with no set left, doing nothing instead)."""
    pick = Picker()
    pasture = {(0, 0): pick("grey", 4)}
    hand = [pick("blue", 5), *pick.filler(4)]
    state = two_player_position(hand, pick, pastures=[pasture, {}])
    assert len(state.hand(0)) == 5
    assert state.legal_actions()[:4] == tuple(TakeSet(i) for i in range(4))
    state.apply(TakeSet(0))
    assert len(state.hand(0)) == 7
    pick = Picker()
    pasture = {(0, 0): pick("grey", 4)}
    hand = [pick("blue", 5), *pick.filler(4)]
    state = two_player_position(hand, pick, market=[], deck=[], pastures=[pasture, {}], last_turn=1)
    assert state.legal_actions()[-1] == Pass() and BeginFree() in state.legal_actions()
