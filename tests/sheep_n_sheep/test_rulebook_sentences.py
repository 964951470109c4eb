"""Rulebook sentences that had no scenario of their own: no card on top of another in
a run, draw icons only on the set taken, a hand over six, the score of each
pasture being its own, ties of two and three for the most bells, ties for the most
stars, a tie for the third most bells, a draw icon after the 4-player trigger,
cards left in hand at the end, the winner's tie-break on connected bells and a
victory shared, all four players tied for an award, a run whose first card
takes the start's last free side, a 3-player draw icon at the trigger drawing from
the stock, icons on a group that scores nothing, a 4-player market running out in
the final round, a last turn that places several cards, two draw icons at the
4-player trigger with one card left, no set left with a card still in the deck,
a failed refill in the final round that does not move the end, 2-player
refills from the stock after the trigger, for the rest of the game, ties on VP
behind the winner and among three broken by connected bells, a last turn ended
by placing the hand's last card or by a draw icon, a run begun on an empty
pasture with a 5, the odd card a 4-player trigger leaves for a later draw, a
pasture reaching negative cells, and bells parted by a card without one.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-n-sheep.md).
"""

from __future__ import annotations

from games.sheep_n_sheep.actions import (
    BeginFree,
    BeginRun,
    BeginSame,
    Pass,
    Place,
    Stop,
    TakeSet,
)
from games.sheep_n_sheep.events import CardDrawn, EndTriggered, GameEnded, Passed, SetFormed
from games.sheep_n_sheep.scoring import BELL_AWARDS, awards, score
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker, two_player_position


def _row(cards: list[int]) -> dict[tuple[int, int], int]:
    return {(x, 0): card for x, card in enumerate(cards)}


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


def test_two_tied_for_the_most_bells_get_4_each_and_the_next_gets_the_third_award() -> None:
    """'In the case of a tie, all tied players receive the points of the next rank
    down and the next rank is eliminated': two tied for the most connected bells get
    the 2nd award (4 VP) each; 2nd place is the rank eliminated, so the next player
    is 3rd (2 VP), and a fourth player gets nothing."""
    pick = Picker()
    p0 = {(0, 0): pick("white", 1, "bell"), (1, 0): pick("black", 3, "bell")}
    p1 = {(0, 0): pick("brown", 1, "bell"), (0, 1): pick("pink", 2, "bell")}
    p2 = {(0, 0): pick("blue", 1, "bell")}
    details = score([p0, p1, p2])[2]["players"]
    assert [d["bell_value"] for d in details] == [2, 2, 1]
    assert [d["bells"] for d in details] == [4, 4, 2]
    assert awards([3, 3, 2, 1], BELL_AWARDS) == (4, 4, 2, 0)


def test_two_tied_for_the_most_stars_get_the_second_award() -> None:
    """'Carry out the same process for star icons: most stars: 4 VP, second most:
    2 VP', ties included: two tied for the most stars get 2 VP each, and the next
    player (3rd, past the table) gets nothing."""
    pick = Picker()
    p0 = {(0, 0): pick("white", 3, "star"), (3, 3): pick("black", 1, "star")}
    p1 = {(0, 0): pick("brown", 4, "star"), (0, 1): pick("pink", 3, "star")}
    p2 = {(0, 0): pick("blue", 1, "star")}
    details = score([p0, p1, p2])[2]["players"]
    assert [d["star_count"] for d in details] == [2, 2, 1]
    assert [d["stars"] for d in details] == [2, 2, 0]


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


def test_cards_left_in_hand_at_the_end_score_nothing() -> None:
    """'Each player counts the number of heart icons in their pasture' (and bells,
    stars, 1 VP icons and groups, all 'in their pasture'): icon cards still in a
    hand when the game ends count for nothing, and a hand costs nothing either."""
    pick = Picker()
    single = pick("white", 1)
    held = [pick("grey", 4, "heart"), pick("grey", 5, "star"), pick("grey", 3, "bell")]
    held.append(pick("grey", 4, "one_vp"))
    pastures = [{(0, 0): single}, {(0, 0): pick("black", 2)}]
    state = SheepNSheepState.from_position(
        2,
        hands=[held, []],
        market=[tuple(pick.filler(2))],
        deck=[],
        pastures=pastures,
        seat=1,
        turn=3,
        last_turn=3,
    )
    events = [e.payload for e in state.apply(TakeSet(0))]
    assert isinstance(events[-1], GameEnded) and len(state.hand(0)) == 4
    result = state.result()
    p0 = result.details["players"][0]
    assert (p0["heart_count"], p0["star_count"], p0["bell_value"], p0["one_vp"]) == (0, 0, 0, 0)
    assert result.scores == (0.0, 0.0) and result.ranks == (1, 1)


def test_two_tied_for_third_on_bells_get_nothing() -> None:
    """'In the case of a tie, all tied players receive the points of the next rank
    down': two players tied for 3rd most connected bells get the 4th rank's award,
    which the table (8 / 4 / 2) does not have, so nothing; 1st and 2nd are paid."""
    pick = Picker()
    p0 = _row(
        [pick("white", None, "bell"), pick("black", None, "bell"), pick("brown", None, "bell")]
    )
    p1 = _row([pick("pink", None, "bell"), pick("blue", None, "bell")])
    p2 = {(0, 0): pick("grey", None, "bell")}
    p3 = {(0, 0): pick("grey", None, "bell")}
    details = score([p0, p1, p2, p3])[2]["players"]
    assert [d["bell_value"] for d in details] == [3, 2, 1, 1]
    assert [d["bells"] for d in details] == [8, 4, 0, 0]


def test_the_tie_break_counts_connected_bells_not_all_bells() -> None:
    """'In the case of a tie, the player with the most connected bells is the
    winner.' Seat 0 has three bell cards, none touching another (connected value
    1); seat 1 has two touching (value 2). Both total 8 VP: seat 1 wins.
    Seat 0: bells 2nd (4), hearts 4, three singles 6, width 5 + height 1 = 8.
    Seat 1: bells 1st (8), a brown pair 4, width 3 + height 1 = 8."""
    pick = Picker()
    p0 = _row(
        [
            pick("white", None, "bell"),
            pick("pink", None, "heart"),
            pick("black", None, "bell"),
            pick("pink", None, "heart"),
            pick("white", None, "bell"),
        ]
    )
    p1 = _row([pick("brown", None, "bell"), pick("brown", None, "bell"), pick("grey", None)])
    scores, ranks, details = score([p0, p1])
    assert [d["bell_value"] for d in details["players"]] == [1, 2]
    assert scores == (8, 8) and ranks == (2, 1)


def test_equal_vp_and_equal_connected_bells_share_the_victory_among_three() -> None:
    """'If that is also tied, then all tied players share the victory': seats 0
    and 2 end on the same VP with the same connected bells and both win; seat 1,
    with fewer VP, ranks 3rd."""
    pick = Picker()
    pastures = [
        {(0, 0): pick("white", None), (1, 0): pick("black", None)},  # 4 - 3 = 1
        {(0, 0): pick("grey", None)},  # 0 - 2 = -2
        {(0, 0): pick("brown", None), (1, 0): pick("brown", None)},  # 4 - 3 = 1
    ]
    state = SheepNSheepState.from_position(
        3,
        hands=[[], [], []],
        market=[tuple(pick.filler(2))],
        deck=[],
        pastures=pastures,
        seat=2,
        turn=5,
        last_turn=5,
    )
    state.apply(TakeSet(0))
    result = state.result()
    assert result.scores == (1.0, -2.0, 1.0)
    assert result.ranks == (1, 3, 1) and result.winners == (0, 2)


def test_three_tied_for_the_most_bells_get_4_each_and_the_next_is_fourth() -> None:
    """'In the case of a tie, all tied players receive the points of the next rank
    down and the next rank is eliminated', and the notes: 'a group of k tied
    players that starts at rank r ... the next group starts at rank r+k'. Three
    tied for the most connected bells get the 2nd award (4 VP) each and take up
    ranks 1 to 3, so the fourth player is 4th and gets nothing, as the rulebook's
    example counts places: two tied for 2nd make '3rd place ... treated as 4th'."""
    pick = Picker()
    pastures = [
        _row([pick(colour, None, "bell") for colour in pair])
        for pair in (("white", "black"), ("brown", "pink"), ("blue", "grey"))
    ]
    pastures.append({(0, 0): pick("grey", None, "bell")})
    details = score(pastures)[2]["players"]
    assert [d["bell_value"] for d in details] == [2, 2, 2, 1]
    assert [d["bells"] for d in details] == [4, 4, 4, 0]


def test_one_vp_icons_on_a_group_of_the_wrong_size_still_count() -> None:
    """'calculate the amount of VP obtained by using the following steps 1-5 in
    order', and only at step 4 'turn cards that do not meet the grouping condition
    face down': the 1 VP icons of step 3 are counted before any card is turned,
    so a one-VP sheep in a group of the wrong size still adds its 1 VP while its
    group scores nothing. Seat 0: two whites touching (a group of 2, where a white
    wants 1) and a lone grey (a grey wants 4), two of them one-VP sheep: 2 VP of
    icons, 0 of groups, width 3 + height 1 = -4."""
    pick = Picker()
    p0 = _row([pick("white", None, "one_vp"), pick("white", None), pick("grey", None, "one_vp")])
    p1 = {(0, 0): pick("black", None)}
    scores, _, details = score([p0, p1])
    seat0 = details["players"][0]
    assert [(g["size"], g["vp"]) for g in seat0["group_list"]] == [(2, 0), (1, 0)]
    assert (seat0["one_vp"], seat0["groups"], seat0["penalty"]) == (2, 0, -4)
    assert scores == (-2, 0)


def test_all_four_tied_for_the_most_bells_and_hearts_get_the_second_award() -> None:
    """'In the case of a tie, all tied players receive the points of the next rank
    down': with four players all tied for the most connected bells and the most
    hearts, nobody is 1st alone, so each gets the 2nd award (4 VP for bells, 2 VP
    for hearts), not the 1st (8 / 4), and not nothing as if the four filled ranks
    1 to 4."""
    pick = Picker()
    pastures = [
        {(0, 0): pick(colour, None, "bell"), (1, 0): pick(colour, None, "heart")}
        for colour in ("white", "black", "brown", "grey")
    ]
    details = score(pastures)[2]["players"]
    assert [(d["bell_value"], d["heart_count"]) for d in details] == [(1, 1)] * 4
    assert [(d["bells"], d["hearts"]) for d in details] == [(4, 2)] * 4


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


def test_icons_count_on_a_group_that_scores_nothing() -> None:
    """'calculate the amount of VP obtained by using the following steps 1-5 in
    order', and only at step 4 'turn cards that do not meet the grouping condition
    face down': a bell, a heart and a star on two touching white sheep (a group of
    2, where a white wants 1) still count at steps 1 and 2. Seat 0: bells 8,
    hearts 4, stars 4, groups 0, width 3 + height 1 = 12; seat 1: a lone black
    (2) minus 2 = 0."""
    pick = Picker()
    p0 = _row([pick("white", None, "bell"), pick("white", None, "heart")])
    p0[(2, 0)] = pick("grey", None, "star")
    p1 = {(0, 0): pick("black", None)}
    scores, _, details = score([p0, p1])
    seat0 = details["players"][0]
    assert [(g["size"], g["vp"]) for g in seat0["group_list"]] == [(2, 0), (1, 0)]
    assert (seat0["bells"], seat0["hearts"], seat0["stars"], seat0["groups"]) == (8, 4, 4, 0)
    assert scores == (12, 0)


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


def test_a_tie_for_second_on_vp_is_broken_by_connected_bells_too() -> None:
    """'In the case of a tie, the player with the most connected bells is the
    winner': the project ranks every place the same way (the guide: 'ranks order
    the seats by total, then bell_value'), so seats 1 and 2, tied on 9 VP behind
    seat 0, rank 2nd and 3rd by their bells, not 2nd together.
    Seat 0: hearts 4, stars 4, five singles 10, one-VP 1, width 5 + height 1 = 13.
    Seat 1: a brown bell pair: bells 8, pair 4, width 2 + 1 = 9.
    Seat 2: a lone bell among five singles: bells 4, singles 10, one-VP 1, 6 = 9."""
    pick = Picker()
    p0 = _row(
        [
            pick("white", None, "heart"),
            pick("black", None, "heart"),
            pick("white", None, "star"),
            pick("black", None, "star"),
            pick("white", None, "one_vp"),
        ]
    )
    p1 = _row([pick("brown", None, "bell"), pick("brown", None, "bell")])
    p2 = _row(
        [
            pick("white", None, "bell"),
            pick("black", None, "one_vp"),
            pick("white", None),
            pick("black", None),
            pick("white", None),
        ]
    )
    scores, ranks, details = score([p0, p1, p2])
    assert [d["bell_value"] for d in details["players"]] == [0, 2, 1]
    assert scores == (13, 9, 9) and ranks == (1, 2, 3)


def test_three_tied_on_vp_two_share_the_victory_on_bells_and_the_third_is_third() -> None:
    """'In the case of a tie, the player with the most connected bells is the
    winner. If that is also tied, then all tied players share the victory': three
    seats end on 4 VP; seats 0 and 1 each have a lone bell (tied for the most:
    4 VP each), seat 2 none, so seats 0 and 1 win together and seat 2 is 3rd.
    Seats 0, 1: bells 4, a single 2, width 1 + height 1 = 4. Seat 2: three
    singles 6, one-VP 2, width 3 + height 1 = 4."""
    pick = Picker()
    p0 = {(0, 0): pick("white", None, "bell")}
    p1 = {(0, 0): pick("black", None, "bell")}
    p2 = _row([pick("white", None, "one_vp"), pick("black", None, "one_vp"), pick("white", None)])
    state = SheepNSheepState.from_position(
        3,
        hands=[[], [], []],
        market=[],
        deck=[],
        pastures=[p0, p1, p2],
        seat=2,
        turn=5,
        last_turn=5,
    )
    events = [e.payload for e in state.apply(Pass())]
    assert events[-1] == GameEnded((4, 4, 4), (0, 1))
    result = state.result()
    assert result.scores == (4.0, 4.0, 4.0) and result.ranks == (1, 1, 3)


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


def test_the_oversize_penalty_measures_a_pasture_reaching_negative_cells() -> None:
    """'Count the vertical length and horizontal length of your pasture': cards to
    the left of and below the first one count as any other. Cells x -2..1 and
    y -3..0: width 4, height 4, minus 8 VP."""
    pick = Picker()
    row = [pick("white", None), pick("grey", None), pick("black", None), pick("grey", None)]
    pasture = {(x, 0): card for x, card in zip(range(-2, 2), row, strict=True)}
    column = [pick("blue", None), pick("blue", None), pick("pink", None)]
    pasture.update({(0, y): card for y, card in zip(range(-3, 0), column, strict=True)})
    player = score([pasture])[2]["players"][0]
    assert (player["width"], player["height"], player["penalty"]) == (4, 4, -8)


def test_bells_are_not_connected_through_a_card_without_a_bell() -> None:
    """'Each player counts the number of connected cards with bell icons': two
    bell cards with a card without one between them are two groups of 1."""
    pick = Picker()
    pasture = _row([pick("white", None, "bell"), pick("grey", None), pick("black", None, "bell")])
    assert score([pasture])[2]["players"][0]["bell_value"] == 1
