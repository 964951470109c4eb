"""Scoring, steps 1-5, and the winner (rulebook 'Calculating VP', 'Winning';
notes 'Scoring')."""

from __future__ import annotations

from games.sheep_n_sheep.scoring import (
    BELL_AWARDS,
    HEART_AWARDS,
    awards,
    bell_value,
    extent,
    score,
    sheep_groups,
)
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker

COMPONENTS = ("bells", "hearts", "stars", "one_vp", "groups", "penalty")


def _row(cards: list[int], y: int = 0, x0: int = 0) -> dict[tuple[int, int], int]:
    return {(x0 + i, y): card for i, card in enumerate(cards)}


def _player(pastures: list[dict], seat: int) -> dict:
    return score(pastures)[2]["players"][seat]


# ------------------------------------------------------------------ 1. bells


def test_bell_value_is_the_largest_connected_bell_group_any_colour() -> None:
    """'Each player counts the number of connected cards with bell icons.' Notes:
    'the size of their largest orthogonally connected group of bell-icon cards
    (colours do not matter).'"""
    pick = Picker()
    pasture = _row([pick("white", 1, "bell"), pick("grey", 2, "bell"), pick("blue", 3)])
    pasture[(0, 1)] = pick("brown", 1, "bell")  # above the first bell: connected
    pasture[(5, 5)] = pick("pink", 2, "bell")  # far away: a group of 1
    pasture[(1, -1)] = pick("black", 3, "bell")  # under the second bell: connected
    assert bell_value(pasture) == 4
    diagonal = {(0, 0): pick("blue", 4, "bell"), (1, 1): pick("grey", 3, "bell")}
    assert bell_value(diagonal) == 1  # diagonal is not connected
    assert bell_value({}) == 0


def test_bell_awards_8_4_2() -> None:
    """'most bells: 8 VP, second most: 4 VP, third most: 2 VP.'"""
    assert awards([3, 5, 1, 2], BELL_AWARDS) == (4, 8, 0, 2)


def test_rulebook_example_two_tied_for_second_on_bells() -> None:
    """'if there are two players tied for 2nd place, they receive 2 VP each and
    since the 3rd place is treated as 4th place, no points are given for 3rd place.'"""
    assert awards([5, 3, 3, 1], BELL_AWARDS) == (8, 2, 2, 0)


def test_rulebook_example_two_tied_for_second_on_hearts() -> None:
    """'if there are two players tied for 2nd place, they receive 0 points each
    since there is no points for 3rd place.'"""
    assert awards([4, 2, 2, 1], HEART_AWARDS) == (4, 0, 0, 0)


def test_notes_example_two_tied_for_first_on_hearts() -> None:
    """Notes: 'two tied for first on hearts get 2 each; the next player gets 0.'"""
    assert awards([3, 3, 1], HEART_AWARDS) == (2, 2, 0)


def test_three_tied_for_first_get_the_second_award_and_take_up_three_ranks() -> None:
    """Notes: 'a group of k tied players that starts at rank r gets the award of
    rank r+1 each when k >= 2 ... and the next group starts at rank r+k': after
    three tied for 1st the next player is 4th (nothing on bells or hearts)."""
    assert awards([2, 2, 2, 1], BELL_AWARDS) == (4, 4, 4, 0)
    assert awards([2, 2, 2, 1], HEART_AWARDS) == (2, 2, 2, 0)
    assert awards([3, 2, 2, 2], BELL_AWARDS) == (8, 2, 2, 2)
    assert awards([2, 2, 1, 1], BELL_AWARDS) == (4, 4, 0, 0)
    assert awards([3, 3, 3, 1], HEART_AWARDS) == (2, 2, 2, 0)


def test_only_values_of_one_or_more_are_ranked() -> None:
    """Notes: 'only players with a value of 1 or more are ranked.'"""
    assert awards([0, 0], BELL_AWARDS) == (0, 0)
    assert awards([2, 0, 0], HEART_AWARDS) == (4, 0, 0)
    assert awards([0, 1, 0, 0], BELL_AWARDS) == (0, 8, 0, 0)


# ------------------------------------------------------------------ 2. hearts and stars


def test_hearts_need_not_be_adjacent_and_award_4_2() -> None:
    """'Unlike bells, these do not need to be adjacent. ... most hearts: 4 VP,
    second most: 2 VP.'"""
    pick = Picker()
    p0 = {(0, 0): pick("white", 1, "heart"), (4, 4): pick("grey", 4, "heart")}
    p1 = {(0, 0): pick("black", 3, "heart")}
    p2 = {(0, 0): pick("grey", 1)}
    details = score([p0, p1, p2])[2]["players"]
    assert [d["heart_count"] for d in details] == [2, 1, 0]
    assert [d["hearts"] for d in details] == [4, 2, 0]


def test_stars_award_4_2_the_same_way() -> None:
    """'Carry out the same process for star icons: most stars: 4 VP, second most: 2 VP.'"""
    pick = Picker()
    p0 = {(0, 0): pick("white", 3, "star")}
    p1 = {(0, 0): pick("black", 1, "star"), (0, 2): pick("blue", 1, "star")}
    details = score([p0, p1])[2]["players"]
    assert [d["star_count"] for d in details] == [1, 2]
    assert [d["stars"] for d in details] == [2, 4]


# ------------------------------------------------------------------ 3. one-VP sheep


def test_one_vp_icons_add_one_each_without_adjacency() -> None:
    """'Each player counts the number of 1 VP icons in their pasture and adds this
    to their point total. There is no need for these sheep to be adjacent.'"""
    pick = Picker()
    pasture = {(0, 0): pick("white", 3, "one_vp"), (0, 3): pick("black", 2, "one_vp")}
    assert _player([pasture, {}], 0)["one_vp"] == 2


# ------------------------------------------------------------------ 4. groupings


def test_single_sheep_alone_scores_2() -> None:
    """'in the case of a single sheep grouping condition (2 VP), if there are no
    other cards of the same colour to the top, bottom, left or right, the player
    gains 2 VP.'"""
    pick = Picker()
    pasture = _row([pick("white", 1), pick("grey", 2)])
    groups = sheep_groups(pasture)
    white = next(g for g in groups if g["colour"] == "white")
    assert (white["size"], white["vp"]) == (1, 2)


def test_two_white_sheep_together_score_nothing() -> None:
    """'you must have exactly [n] sheep in the group' — two whites touching form
    a group of 2, which a 1-sheep card does not want."""
    pick = Picker()
    pasture = _row([pick("white", 1), pick("white", 2)])
    assert [(g["size"], g["vp"]) for g in sheep_groups(pasture)] == [(2, 0)]


def test_four_grey_score_8_but_three_or_five_score_nothing() -> None:
    """'In the case of a 4 sheep grouping condition (8 VP), you must have exactly 4
    sheep in the group to gain 8 VP (i.e. no points for 3 or 5 sheep).' and 'Each
    group of cards gains the VP stated (i.e. 8 VP for the whole group of 4, not
    for each card).'"""
    pick = Picker()
    greys = [pick("grey", n) for n in (1, 2, 3, 4, 5)]
    for size, vp in ((3, 0), (4, 8), (5, 0)):
        pasture = _row(greys[:size])
        assert [(g["size"], g["vp"]) for g in sheep_groups(pasture)] == [(size, vp)]
        assert _player([pasture], 0)["groups"] == vp


def test_groups_are_per_colour_and_orthogonal() -> None:
    """'group of sheep cards of the same type (= colour) that are connected'."""
    pick = Picker()
    b1, b2, p1, p2 = pick("brown", 1), pick("brown", 2), pick("pink", 3), pick("pink", 4)
    pasture = {(0, 0): b1, (1, 0): b2, (0, 1): p1, (1, 1): p2}  # two pairs: 4 + 4
    assert _player([pasture], 0)["groups"] == 8
    diagonal = {(0, 0): b1, (1, 1): b2}  # not connected: two singles of a pair colour
    assert _player([diagonal], 0)["groups"] == 0


def test_three_blue_in_an_l_shape_score_6() -> None:
    """Connected means orthogonally connected in any shape."""
    pick = Picker()
    pasture = {(0, 0): pick("blue", 1), (1, 0): pick("blue", 2), (1, 1): pick("blue", 3)}
    assert _player([pasture], 0)["groups"] == 6


# ------------------------------------------------------------------ 5. penalty


def test_oversize_penalty_is_width_plus_height() -> None:
    """'minus 1 VP per width and height of the pasture. (Example: a width of 5 is
    minus 5 VP, a height of 4 is minus 4 VP.)'"""
    pick = Picker()
    pasture = _row([pick("grey", n) for n in (1, 2, 3, 4, 5)])
    pasture[(2, 3)] = pick("blue", 1)
    pasture[(2, 1)] = pick("blue", 2)
    pasture[(2, 2)] = pick("blue", 3)
    assert extent(pasture) == (5, 4)
    assert _player([pasture], 0)["penalty"] == -9
    assert extent({}) == (0, 0)


# ------------------------------------------------------------------ totals and winner


def test_components_add_up_to_the_total() -> None:
    """The details explain every score: the components sum to each total."""
    pick = Picker()
    p0 = _row([pick("white", 1, "bell"), pick("grey", 2, "bell"), pick("white", 3, "one_vp")])
    p1 = _row([pick("pink", 2, "heart"), pick("pink", 3, "star")])
    scores, _, details = score([p0, p1])
    for seat, d in enumerate(details["players"]):
        assert sum(d[c] for c in COMPONENTS) == d["total"] == scores[seat]
    # p0: bells 2 -> 8, one_vp 1, whites 2+2, grey single 0, penalty -(3+1)
    assert details["players"][0]["total"] == 8 + 1 + 4 - 4
    # p1: heart 4, star 4, pink pair 4, penalty -(2+1)
    assert details["players"][1]["total"] == 4 + 4 + 4 - 3


def test_winner_has_the_most_vp() -> None:
    """'The player with the most VP is the winner!'"""
    pick = Picker()
    p0 = {(0, 0): pick("white", 1)}  # 2 - 2 = 0
    p1 = {(0, 0): pick("brown", 1), (1, 0): pick("brown", 2)}  # 4 - 3 = 1
    scores, ranks, _ = score([p0, p1])
    assert scores == (0, 1) and ranks == (2, 1)


def test_tie_broken_by_connected_bells_then_shared() -> None:
    """'In the case of a tie, the player with the most connected bells is the
    winner. If that is also tied, then all tied players share the victory.'"""
    pick = Picker()
    # seat 0: two connected bells: bells 8, two singles 4, penalty -3 = 9
    p0 = {(0, 0): pick("white", 1, "bell"), (1, 0): pick("black", 3, "bell")}
    # seat 1: one bell 4, heart 4, one-VP 1, white and black singles 4, penalty -4 = 9
    p1 = {
        (0, 0): pick("white", 2, "bell"),
        (1, 0): pick("pink", 2, "heart"),
        (2, 0): pick("black", 2, "one_vp"),
    }
    scores, ranks, details = score([p0, p1])
    assert [d["bell_value"] for d in details["players"]] == [2, 1]
    assert scores == (9, 9) and ranks == (1, 2)
    # equal totals and equal bells: shared victory
    q0 = {(0, 0): pick("brown", 1, "bell")}
    q1 = {(0, 0): pick("brown", 3, "bell")}
    scores, ranks, _ = score([q0, q1])
    assert scores == (4 - 2, 4 - 2) and ranks == (1, 1)


def test_state_result_uses_the_final_pastures() -> None:
    """result() at the game end scores every pasture and ranks the seats."""
    pick = Picker()
    pastures = [{(0, 0): pick("white", 1)}, {(0, 0): pick("grey", 1)}]
    state = SheepNSheepState.from_position(
        2,
        hands=[[], []],
        market=[tuple(pick.filler(2))],
        deck=[],
        pastures=pastures,
        seat=1,
        turn=1,
        last_turn=1,
    )
    state.apply(state.legal_actions()[0])
    result = state.result()
    assert result.scores == (0.0, -2.0) and result.ranks == (1, 2)
    assert result.winners == (0,)


def test_stars_have_no_third_award() -> None:
    """'most stars: 4 VP, second most: 2 VP': the third most gets nothing."""
    pick = Picker()
    p0 = _row([pick("white", 3, "star"), pick("brown", 4, "star"), pick("blue", 1, "star")])
    p1 = _row([pick("black", 1, "star"), pick("grey", 4, "star")])
    p2 = _row([pick("pink", 3, "star")])
    details = score([p0, p1, p2])[2]["players"]
    assert [d["star_count"] for d in details] == [3, 2, 1]
    assert [d["stars"] for d in details] == [4, 2, 0]


def test_more_vp_wins_over_more_connected_bells() -> None:
    """'The player with the most VP is the winner! In the case of a tie, the player
    with the most connected bells is the winner': bells only break a tie."""
    pick = Picker()
    p0 = {(0, 0): pick("white", 1, "bell"), (1, 0): pick("black", 3, "bell")}
    p1 = _row(
        [
            pick("white", 2, "bell"),
            pick("pink", 2, "heart"),
            pick("pink", 3, "star"),
            pick("black", 2, "one_vp"),
        ]
    )
    scores, ranks, details = score([p0, p1])
    assert [d["bell_value"] for d in details["players"]] == [2, 1]
    assert scores[1] > scores[0]
    assert ranks == (2, 1)
