"""Rulebook sentences that had no scenario of their own: no card on top of another in
a run, draw icons only on the set taken, a hand over six, and the score of each
pasture being its own.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-n-sheep.md).
"""

from __future__ import annotations

from games.sheep_n_sheep.actions import BeginFree, BeginRun, BeginSame, Place, TakeSet
from games.sheep_n_sheep.events import CardDrawn
from games.sheep_n_sheep.scoring import score

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


def test_each_player_scores_only_their_own_pasture() -> None:
    """'Each player places sheep cards in their own playing area (pasture)': a white
    sheep in one pasture and a white sheep at the same cell of another are two single
    sheep (2 VP each), not a pair; each pasture pays its own width + height."""
    pick = Picker()
    p0 = {(0, 0): pick("white", 1)}
    p1 = {(0, 0): pick("white", 2), (0, 1): pick("black", 3)}
    scores, _, details = score([p0, p1])
    assert [d["groups"] for d in details["players"]] == [2, 4]
    assert [d["penalty"] for d in details["players"]] == [-2, -3]
    assert scores == (0, 1)
