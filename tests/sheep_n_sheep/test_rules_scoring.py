"""Rulebook sentences of a pasture's score that had no scenario of their own: the
score of each pasture being its own, cards left in hand at the end, VP icons on a
group of the wrong size and on a group that scores nothing, a pasture reaching
negative cells, and bells parted by a card without one.

Rule sentences are quoted from the game's rulebook or the project's decisions
(docs/games/sheep-n-sheep.md).
"""

from __future__ import annotations

from games.sheep_n_sheep.actions import TakeSet
from games.sheep_n_sheep.events import GameEnded
from games.sheep_n_sheep.scoring import score
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker, _row


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
