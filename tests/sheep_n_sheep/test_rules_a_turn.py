"""Rulebook sentences of a turn (take a set, or place cards) that had no scenario
of their own: no card on top of another in a run, draw icons only on the set
taken, a hand over six, a run whose first card takes the start's last free side,
no set left with a card still in the deck, and a run begun on an empty pasture
with a 5.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-n-sheep.md).
"""

from __future__ import annotations

from games.sheep_n_sheep.actions import BeginFree, BeginRun, BeginSame, Pass, Place, Stop, TakeSet
from games.sheep_n_sheep.events import CardDrawn, Passed
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker, two_player_position


def test_a_run_never_lays_a_card_on_top_of_another() -> None:
    """'You cannot lay a card on top of another card.' A run from the 3 at (0, 0),
    whose east and south neighbours are taken: the 4 (up) and the 2 (down) are offered
    only on the two free cells next to it."""
    pick = Picker()
    start = pick("white", 3)
    pasture = {(0, 0): start, (1, 0): pick("pink", 1), (0, 1): pick("brown", 5)}
    c4, c2 = pick("grey", 4), pick("blue", 2)
    state = two_player_position([c4, c2], pick, pastures=[pasture, {}])
    state.apply(BeginRun((0, 0)))
    places = {(a.card, a.x, a.y, a.branch) for a in state.legal_actions() if isinstance(a, Place)}
    free = [(-1, 0), (0, -1)]
    assert places == {(c4, x, y, "up") for x, y in free} | {(c2, x, y, "down") for x, y in free}


def test_only_the_draw_icons_of_the_set_taken_draw() -> None:
    """'If there is a card with an icon that draws one card among the cards added to
    your hand, add 1 card for each card with this icon.' A draw icon already in the
    hand, or in the new set formed in the market, draws nothing."""
    pick = Picker()
    in_hand = pick("grey", 1, "draw")
    taken = (pick("grey", 2), pick("blue", 3))
    market = [taken] + [tuple(pick.filler(2)) for _ in range(3)]
    deck = [*pick.filler(3), pick("blue", 4, "draw"), pick("brown", 2, "draw")]
    state = two_player_position([in_hand], pick, market=market, deck=deck)
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert state.market[0] == (deck[-1], deck[-2])  # both draw icons, now in the market
    assert not any(isinstance(e, CardDrawn) for e in events)
    assert sorted(state.hand(0)) == sorted([in_hand, *taken])
    assert state.deck == tuple(deck[:-2])


def test_a_hand_of_seven_must_place() -> None:
    """'if they have 6 or more cards, they must carry out option B': also with 7 (a
    set of 2 taken with 5 in hand, or draw icons, can make 7 or more)."""
    pick = Picker()
    hand = [pick("grey", n) for n in (1, 2, 3, 4, 5)] + [pick("blue", 1), pick("blue", 2)]
    state = two_player_position(hand, pick, pastures=[{(0, 0): pick("white", 3)}, {}])
    actions = state.legal_actions()
    assert not any(isinstance(a, TakeSet) for a in actions)
    assert {BeginSame((0, 0)), BeginRun((0, 0)), BeginFree()} <= set(actions)


def test_a_run_branch_on_the_starts_last_free_side_leaves_the_other_branch_none() -> None:
    """'From a 4, you may choose to play a 5 and/or 3-2-1', each next to its own
    end of the string, and 'You cannot lay a card on top of another card': both
    branches grow from the start card, so when the 4 (up) takes the start 3's only
    free side, the 2 (down) has nowhere to go, while the 5 still may follow the 4."""
    pick = Picker()
    pasture = {(0, 0): pick("white", 3)}
    pasture.update(zip(((-1, 0), (0, 1), (0, -1)), pick.filler(3), strict=True))
    c4, c5, c2 = pick("grey", 4), pick("grey", 5), pick("blue", 2)
    state = two_player_position([c4, c5, c2], pick, pastures=[pasture, {}])
    state.apply(BeginRun((0, 0)))
    assert {(a.card, a.branch) for a in state.legal_actions() if isinstance(a, Place)} == {
        (c4, "up"),
        (c2, "down"),
    }
    state.apply(Place(c4, 1, 0, "up"))
    places = {(a.card, a.x, a.y, a.branch) for a in state.legal_actions() if isinstance(a, Place)}
    assert places == {(c5, x, y, "up") for x, y in ((2, 0), (1, 1), (1, -1))}
    assert state.to_move == 0 and Stop() in state.legal_actions()


def test_no_set_left_draws_nothing_even_with_a_card_in_the_deck() -> None:
    """'In the unlikely event that there are no sets left to carry out action A, do
    not draw any cards and do nothing instead': in a 4-player game the deck may
    still hold the odd card that formed no set; a seat with an empty hand and an
    empty market does nothing, and that card stays in the deck."""
    pick = Picker()
    odd = pick("pink", 3)
    state = SheepNSheepState.from_position(
        4,
        hands=[[], *[pick.filler(2) for _ in range(3)]],
        market=[],
        deck=[odd],
        turn=4,
        last_turn=7,
    )
    assert state.legal_actions() == (Pass(),)
    events = [e.payload for e in state.apply(Pass())]
    assert Passed(0) in events and not any(isinstance(e, CardDrawn) for e in events)
    assert state.hand(0) == () and state.deck == (odd,) and state.to_move == 1


def test_a_run_begun_on_an_empty_pasture_with_a_5_ends_at_once() -> None:
    """'the starting card will be the smallest card in the sequence': a run whose
    first card on an empty pasture is a 5 can have no other card (nothing above
    5, nothing below the smallest), so it ends by itself; begun with a 4 it may
    still take a 5, and a hand without one is asked to stop."""
    pick = Picker()
    c5, c4, c1 = pick(None, 5), pick(None, 4), pick(None, 1)
    state = two_player_position([c5, c1], pick)
    state.apply(BeginRun(None))
    events = [e.payload for e in state.apply(Place(c5, 0, 0, ""))]
    assert [type(e).__name__ for e in events] == ["CardPlaced", "TurnEnded"]
    assert state.to_move == 1
    state = two_player_position([c4, c1], pick)
    state.apply(BeginRun(None))
    state.apply(Place(c4, 0, 0, ""))
    assert state.legal_actions() == (Stop(),)
