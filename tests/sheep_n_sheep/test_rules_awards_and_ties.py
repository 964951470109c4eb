"""Rulebook sentences of the bell and star awards and of ties that had no scenario
of their own: ties of two and three for the most bells, ties for the most stars,
a tie for the third most bells, all four players tied for an award, the winner's
tie-break on connected bells and a victory shared, and ties on VP behind the
winner and among three broken by connected bells.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-n-sheep.md).
"""

from __future__ import annotations

from games.sheep_n_sheep.actions import Pass, TakeSet
from games.sheep_n_sheep.events import GameEnded
from games.sheep_n_sheep.scoring import BELL_AWARDS, awards, score
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker, _row


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
