"""Rulebook sentences of scoring and ranking that had no scenario of their own:
trees on grass, houses on grass in a settlement, the rulebook's three sheep in
one area, every cow and tree of one area counted, the cows of several complete
areas added up, lands joined through cities and gardens but not lakes, four
players scored as the scoring board adds up its squares, the solo result with
its praise and a negative solo difference, ties among more than two players and
four players tied for second.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

import pytest

from games.sheep_and_garden.model import Place, Slot
from games.sheep_and_garden.scoring import Analysis, AreaInfo, score_cards
from games.sheep_and_garden.state import deal_objectives

from ._rulebook_landscapes import HEART, ROAD_RING, STREAM_OPEN_SOUTH
from .helpers import analysed, landscape, mismatches, position, tid


def test_trees_on_complete_grass_count_for_trees_but_not_for_gardens() -> None:
    """ "'Number of Trees' ... score Trees ... in completed areas" (any terrain); the
    gardens card's bonus counts only trees in complete gardens. The pond's grass with a
    tree is closed by two garden corners whose gardens stay open."""
    layout = (("pond", 0, 0, 0), ("garden corner", 0, 1, 2), ("garden corner", -1, 0, 2))
    assert mismatches(landscape(*layout)) == []
    cards = score_cards(analysed(*layout).stats())
    assert cards["trees"] == (1, 1)
    assert cards["gardens"] == (0, 0)


def test_three_players_tied_at_the_top_share_first_place() -> None:
    """ "The player who gets the highest score wins the game"; notes: "ties shared".
    Seats 0 and 1 both score 4 (cities; settlements), seat 2 scores 2 (lands): ranks
    1, 1, 3."""
    slots = (
        Slot("lakes", (0,), False),
        Slot("cities", (0, 1), False),
        Slot("roads", (1,), False),
        Slot("trees", (1, 2), False),
        Slot("lands", (2,), False),
        Slot("cows", (0, 2), False),
    )
    result = position(3, HEART, slots=slots).result()
    assert result.scores == (4.0, 4.0, 2.0)
    assert result.ranks == (1, 1, 3)


def test_houses_on_grass_count_for_a_settlement() -> None:
    """ "A settlement means a completed area that contains 3 or more Houses. Houses are
    on Grasses and Cities": a complete grass area with 3 houses is a settlement like a
    city with 3. The tile set prints one house on grass, so the areas are given
    directly."""
    three_houses = (0, 0, 0, 0, 3, 0)
    for terrain in ("grass", "city"):
        analysis = Analysis(
            areas=(AreaInfo(terrain, True, frozenset({(0, 0), (1, 0)}), three_houses),),
            roads=(),
            lands=1,
        )
        assert score_cards(analysis.stats())["settlements"] == (1, 4), terrain


# Two lakes (3 fish), two gardens (3 trees), a heart (a city in an L with 1 human and
# 3 houses) and the hedged garden's human, joined by a meadow.
SOLO_LANDSCAPE = (
    ("garden by the lake", 0, 0, 0),
    ("lake cap", 0, 1, 0),
    ("garden cap", 0, -1, 2),
    ("pond", 1, 0, 0),
    ("hedged garden", -1, 0, 0),
    ("meadow", 2, 0, 0),
    ("city corner", 3, 0, 0),
    ("city cap", 3, -1, 2),
    ("twin city caps", 4, 0, 3),
)


@pytest.mark.parametrize(
    ("enemy", "difference", "title"),
    [
        (("roads", "cows", "people"), 23, "Beginner"),  # 25 - (0 + 0 + 2)
        (("cities", "settlements", "people"), 15, "none"),  # 25 - (4 + 4 + 2)
    ],
)
def test_solo_result_is_the_difference_with_its_praise(
    enemy: tuple[str, ...], difference: int, title: str
) -> None:
    """Solo: "you get the following praise based on the total of your objectives minus
    the total of your enemy's objectives" (Beginner from 20). Own cards: lakes 4 x 2 +
    3 fish = 11, gardens 3 x 2 + 3 trees = 9, hearts 5: 25."""
    assert mismatches(landscape(*SOLO_LANDSCAPE)) == []
    slots = tuple(Slot(card, (0,), True) for card in ("lakes", "gardens", "hearts")) + tuple(
        Slot(card, (), True, enemy=True) for card in enemy
    )
    result = position(1, SOLO_LANDSCAPE, slots=slots).result()
    assert result.details["seats"][0]["total"] == 25
    assert result.details["enemy"]["total"] == 25 - difference
    assert result.scores == (float(difference),)
    assert result.details["difference"] == difference
    assert result.details["praise"] == title


def test_three_sheep_in_one_complete_area_are_one_area_with_sheep() -> None:
    """The rulebook's example: "although there are 3 Sheep, 'Number of Areas with
    Sheep' is 1". The meadow's 3 sheep, closed in on every side by an empty fenced
    strip of grass (bay, city fortress, orchard, garden walk), make one complete area:
    the card counts 1 area, 3 points."""
    layout = (
        ("meadow", 0, 0, 0),
        ("bay", 0, -1, 3),
        ("city fortress", 1, 0, 0),
        ("orchard", 0, 1, 1),
        ("garden walk", -1, 0, 0),
    )
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    assert [(a.terrain, a.cells, a.objects) for a in analysis.areas if a.complete] == [
        ("grass", {(0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)}, (3, 0, 0, 0, 0, 0))
    ]
    assert score_cards(analysis.stats())["sheep_areas"] == (1, 3)


def test_every_cow_and_tree_of_one_complete_area_counts() -> None:
    """ "Count the total number of Cows on the completed areas. You can catch any
    number of Cows on one area. Same for 'Number of Trees'." Two paddocks' pens (2
    cows each) meet in one complete pen of 4 cows; a garden walk (2 trees) between two
    garden caps (1 tree each) closes one garden of 4 trees. The grass outside stays
    open, so its trees do not count."""
    layout = (
        ("paddock", 0, 0, 0),
        ("paddock", 0, -1, 2),
        ("garden cap", 3, -1, 2),
        ("garden walk", 3, 0, 0),
        ("garden cap", 3, 1, 0),
    )
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    complete = sorted((a.terrain, a.objects) for a in analysis.areas if a.complete)
    assert complete == [("garden", (0, 0, 0, 4, 0, 0)), ("grass", (0, 4, 0, 0, 0, 0))]
    cards = score_cards(analysis.stats())
    assert cards["cows"] == (4, 8)
    assert cards["trees"] == (4, 4)


@pytest.mark.parametrize(("tile", "lands"), [("city cap", 1), ("garden cap", 1), ("lake cap", 2)])
def test_lands_join_through_cities_and_gardens_but_not_through_lakes(tile: str, lands: int) -> None:
    """ "Lands are the areas composed of areas except Lakes (i.e., Cities, Gardens and
    Grasses). Lands are completed only by Lakes." Two caps of one kind face each other
    and touch through that edge alone (their grass meets only open edges): through a
    city or a garden edge they are one land, through a lake edge two."""
    layout = ((tile, 0, 0, 0), (tile, 0, -1, 2))
    assert mismatches(landscape(*layout)) == []
    stats = analysed(*layout).stats()
    assert stats["lands"] == lands
    assert score_cards(stats)["lands"] == (lands, 2 * lands)


def test_a_land_of_city_garden_and_grass_is_one_land() -> None:
    """ "Lands are the areas composed of areas except Lakes (i.e., Cities, Gardens and
    Grasses)": a garden-and-city tile with a city cap on its city edge and a garden cap
    on its garden edge is one land of three tiles."""
    layout = (("garden and city", 0, 0, 0), ("city cap", 1, 0, 3), ("garden cap", 0, -1, 2))
    assert mismatches(landscape(*layout)) == []
    assert analysed(*layout).lands == 1


# The four-player scoring board: squares 1 to 8 around the board, each player's
# score the sum of the three squares beside them (D: 8 + 1 + 2, A: 8 + 7 + 6,
# C: 2 + 3 + 4, B: 6 + 5 + 4). Seats 0 to 3 are A to D, clockwise.
BOARD_SQUARES = {"A": (8, 7, 6), "B": (6, 5, 4), "C": (4, 3, 2), "D": (2, 1, 8)}


def test_four_players_score_as_the_scoring_board_adds_up() -> None:
    """ "Write the score of each objective card on the inside squares, and write the
    score of each player on the outside squares ... D: 8+1+2, A: 8+7+6, C: 2+3+4,
    B: 6+5+4." On the solo scenario's landscape the eight cards all score, each a
    different card on each square, laid out as the game deals them: the card for A
    and D (square 8) counts for seats 0 and 3, the first and last seat, as the board
    adds it for both A and D."""
    square_card = {
        1: "lakes",  # 11
        2: "gardens",  # 9
        3: "hearts",  # 5
        4: "cities",  # 4
        5: "trees",  # 3
        6: "people",  # 2
        7: "lands",  # 4
        8: "settlements",  # 4
    }
    points = {card: p for card, (_, p) in score_cards(analysed(*SOLO_LANDSCAPE).stats()).items()}
    slots = (
        Slot(square_card[7], (0,), False),  # for A only
        Slot(square_card[6], (0, 1), False),  # for A and B
        Slot(square_card[5], (1,), False),  # for B only
        Slot(square_card[4], (1, 2), False),  # for B and C
        Slot(square_card[3], (2,), False),  # for C only
        Slot(square_card[2], (2, 3), False),  # for C and D
        Slot(square_card[1], (3,), False),  # for D only
        Slot(square_card[8], (0, 3), False),  # for A and D
    )
    dealt = deal_objectives(4, [slot.card for slot in slots])
    assert [(s.card, s.holders) for s in dealt] == [(s.card, s.holders) for s in slots]
    board = tuple(
        float(sum(points[square_card[square]] for square in BOARD_SQUARES[player]))
        for player in "ABCD"
    )
    assert board == (10.0, 9.0, 18.0, 24.0)
    result = position(4, SOLO_LANDSCAPE, slots=slots).result()
    assert result.scores == board
    assert result.ranks == (3, 4, 2, 1)


def test_cows_of_several_complete_areas_add_up_and_an_open_areas_do_not() -> None:
    """ "Count the total number of Cows on the completed areas"; the rulebook's example:
    "'Number of Cows' is 3". The ring of road closes the grass inside it (1 cow); the
    paddock's pen is closed by the city corner's fenced strip (2 cows); the lake cap
    joining them shares an open meadow with the rest of the paddock (1 cow) that does
    not count: 3 cows, 2 points each."""
    layout = (*ROAD_RING, ("lake cap", 2, 1, 0), ("paddock", 3, 1, 0), ("city corner", 3, 0, 0))
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    cows = sorted((a.complete, a.objects[1]) for a in analysis.areas if a.objects[1])
    assert cows == [(False, 1), (True, 1), (True, 2)]
    assert score_cards(analysis.stats())["cows"] == (3, 6)


def test_solo_a_negative_difference_is_the_score() -> None:
    """Solo: "you get the following praise based on the total of your objectives minus
    the total of your enemy's objectives". The last spring closes the stream's lake:
    the enemy's lakes (4) and lands (1 land, 2) score 6, the player's roads, cows and
    trees nothing. The game's one score is -6, in its end event too; no praise."""
    slots = (
        Slot("roads", (0,), True),
        Slot("cows", (0,), True),
        Slot("trees", (0,), True),
        Slot("lakes", (), True, enemy=True),
        Slot("lands", (), True, enemy=True),
        Slot("hearts", (), True, enemy=True),
    )
    state = position(1, STREAM_OPEN_SOUTH, ["spring"], [], slots=slots)
    events = [e.payload for e in state.apply(Place(tid("spring"), 0, 1, 0))]
    result = state.result()
    assert events[-1].scores == result.scores == (-6.0,)
    assert result.details["seats"][0]["total"] == 0
    assert result.details["enemy"]["total"] == 6
    assert result.details["praise"] == "none" and result.ranks == (1,)


def test_four_players_tied_for_second_share_it_and_the_next_is_fourth() -> None:
    """ "The player who gets the highest score wins"; notes: "ties shared". On the
    heart landscape seat 0 holds hearts (5), seats 1 and 2 cities and settlements (4
    each), seat 3 lakes (0); the four shared cards score nothing: 5, 4, 4, 0 ranks
    1, 2, 2, 4."""
    slots = (
        Slot("hearts", (0,), False),
        Slot("roads", (0, 1), False),
        Slot("cities", (1,), False),
        Slot("cows", (1, 2), False),
        Slot("settlements", (2,), False),
        Slot("trees", (2, 3), False),
        Slot("lakes", (3,), False),
        Slot("sheep_areas", (0, 3), False),
    )
    result = position(4, HEART, slots=slots).result()
    assert result.scores == (5.0, 4.0, 4.0, 0.0)
    assert result.ranks == (1, 2, 2, 4)
