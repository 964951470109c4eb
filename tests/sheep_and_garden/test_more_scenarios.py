"""More rule scenarios on hand-built landscapes and positions: hearts on gardens and
lakes, a 2x2 block that is not a heart, grass with one object that is not empty, the
7-sheep bonus, a second reshuffle and what each of 3 players sees.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

import pytest

from games.sheep_and_garden import GAME
from games.sheep_and_garden.model import Reshuffled, Slot, TilesShown
from games.sheep_and_garden.scoring import score_cards

from .helpers import analysed, landscape, mismatches, position, tid

# ------------------------------------------------------------------ hearts


@pytest.mark.parametrize("terrain", ["garden", "lake"])
def test_heart_on_a_garden_and_on_a_lake(terrain: str) -> None:
    """ "A heart-shaped area can be made on Gardens, Cities and Lakes"; notes: "Heart:
    a complete garden, city or lake area that covers exactly 3 tiles which form an L."
    A corner closed by two caps makes a complete L of 3 tiles of that terrain."""
    layout = (
        (f"{terrain} corner", 0, 0, 0),
        (f"{terrain} cap", 0, -1, 2),
        (f"{terrain} cap", 1, 0, 3),
    )
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    areas = [a for a in analysis.areas if a.terrain == terrain]
    assert len(areas) == 1 and areas[0].complete
    assert areas[0].cells == {(0, 0), (0, -1), (1, 0)}
    stats = analysis.stats()
    assert stats["hearts"] == 1
    assert score_cards(stats)["hearts"] == (1, 5)


@pytest.mark.parametrize("terrain", ["city", "garden", "lake"])
def test_complete_two_by_two_block_is_not_a_heart(terrain: str) -> None:
    """Notes: a heart "covers exactly 3 tiles which form an L (three cells of a 2x2
    block)"; the rulebook's diagram marks one arrangement as not counted. Four corners
    closing a 2x2 block make one complete area of 4 tiles: not a heart."""
    layout = (
        (f"{terrain} corner", 0, 0, 1),
        (f"{terrain} corner", 1, 0, 2),
        (f"{terrain} corner", 0, 1, 0),
        (f"{terrain} corner", 1, 1, 3),
    )
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    areas = [a for a in analysis.areas if a.terrain == terrain]
    assert len(areas) == 1 and areas[0].complete
    assert areas[0].cells == {(0, 0), (1, 0), (0, 1), (1, 1)}
    stats = analysis.stats()
    assert stats["hearts"] == 0
    assert score_cards(stats)["hearts"] == (0, 0)


# ------------------------------------------------------------------ empty areas

# farmstead: a fenced strip of grass on the north edge holding one house; the garden
# corner's empty grass strip on its south edge closes it.
HOUSE_ONLY = (("farmstead", 0, 0, 0), ("garden corner", 0, -1, 0))
# pond: the grass on its south and west edges holds one tree; two garden corners'
# empty grass strips close it.
TREE_ONLY = (("pond", 0, 0, 0), ("garden corner", 0, 1, 2), ("garden corner", -1, 0, 2))


@pytest.mark.parametrize(
    ("layout", "cells", "objects"),
    [
        (HOUSE_ONLY, {(0, 0), (0, -1)}, (0, 0, 0, 0, 1, 0)),
        (TREE_ONLY, {(0, 0), (0, 1), (-1, 0)}, (0, 0, 0, 1, 0, 0)),
    ],
    ids=["house", "tree"],
)
def test_grass_with_only_a_house_or_only_a_tree_is_not_empty(layout, cells, objects) -> None:
    """ "An empty area means a Grasses area that contains no objects." A complete grass
    area whose only object is a house, or a tree, is not empty (objects in OBJECTS
    order: sheep, cow, human, tree, house, fish)."""
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    grass = [a for a in analysis.areas if a.terrain == "grass" and a.complete]
    assert [(a.cells, tuple(a.objects)) for a in grass] == [(cells, objects)]
    stats = analysis.stats()
    assert stats["complete_grass"] == 1
    assert stats["empty_grass_areas"] == 0
    assert score_cards(stats)["empty_areas"] == (0, 0)


# ------------------------------------------------------------------ the 7-sheep bonus


def _meadow_ring(east_rotation: int) -> tuple[tuple[str, int, int, int], ...]:
    """A meadow (3 sheep) closed on each side by a one-edge fenced grass strip: the
    city cap's, the garden cap's and the lake corner's each hold 1 sheep; the city
    street's holds 1 sheep at rotation 0 and none at rotation 2."""
    return (
        ("meadow", 0, 0, 0),
        ("city cap", 0, -1, 3),
        ("city street", 1, 0, east_rotation),
        ("garden cap", 0, 1, 3),
        ("lake corner", -1, 0, 3),
    )


@pytest.mark.parametrize(("east_rotation", "sheep", "points"), [(0, 7, 3 + 3), (2, 6, 3)])
def test_sheep_areas_bonus_for_seven_sheep_in_one_complete_area(
    east_rotation: int, sheep: int, points: int
) -> None:
    """Rulebook, fixed bonus: "you get 3 points if there are 7 or more Sheep on a
    completed area"; notes: sheep_areas scores 3 per complete area holding sheep, "+3
    if one complete area holds 7+ sheep". Built on a real landscape: one complete grass
    area of 5 tiles holding 7 sheep gets the bonus; the same ring with 6 does not."""
    layout = _meadow_ring(east_rotation)
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    complete = [a for a in analysis.areas if a.complete]
    assert len(complete) == 1 and complete[0].terrain == "grass"
    assert complete[0].cells == {(0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)}
    assert complete[0].objects[0] == sheep
    stats = analysis.stats()
    assert stats["complete_areas_with_sheep"] == 1
    assert stats["most_sheep_in_a_complete_area"] == sheep
    assert score_cards(stats)["sheep_areas"] == (1, points)
    # and through a finished game's result
    slots = (
        Slot("sheep_areas", (0,), True),
        Slot("lakes", (0,), False),
        Slot("roads", (0,), False),
        Slot("cities", (1,), True),
        Slot("gardens", (1,), False),
        Slot("hearts", (1,), False),
    )
    assert position(2, layout, slots=slots).result().scores == (float(points), 0.0)


# ------------------------------------------------------------------ reshuffles

NO_ROAD_TILES = ("lake cap", "meadow", "bay")


def test_second_reshuffle_when_the_new_deal_still_does_not_fit() -> None:
    """ "If all 3 tiles cannot be placed, shuffle their tiles, reveal new tiles and
    choose from them"; notes: "If no display tile fits anywhere: they go back into the
    deck, it is shuffled, and 3 new tiles are shown (repeat)." The market crossroads has
    roads on all sides, so only the road tile fits; with seed 0 the first new deal has
    no road either, and a second reshuffle follows."""
    road = tid("road")
    state = position(
        2, [("market crossroads", 0, 0, 0)], NO_ROAD_TILES, ["fenced meadow", "road"], seed=0
    )
    events = [e.payload for e in state.setup_events]
    assert [type(e) for e in events] == [Reshuffled, TilesShown, Reshuffled, TilesShown]
    assert events[0].returned == tuple(tid(n) for n in NO_ROAD_TILES)
    assert road not in events[1].tiles and len(events[1].tiles) == 3
    assert events[2].returned == events[1].tiles  # the unfit new deal went back
    assert events[3].tiles == state.display and road in state.display
    assert state.to_move == 0 and state.deck_size == 2
    assert {a.tile for a in state.legal_actions()} == {road}


# ------------------------------------------------------------------ hidden objectives


def test_three_players_each_see_their_own_card_and_the_two_they_share() -> None:
    """3-4 players: "The objective cards are set in front of each player, and between
    each two players, face down"; "Each player can check their own objective cards at
    any time." Notes, 3 players: "1 per player (owner only) and 1 between each pair of
    players (seen by those two)". Slots: 0 seat 0's, 1 shared 0-1, 2 seat 1's, 3
    shared 1-2, 4 seat 2's, 5 shared 0-2."""
    state = GAME.new_state(3, 5)
    assert [s.holders for s in state.slots] == [(0,), (0, 1), (1,), (1, 2), (2,), (0, 2)]
    expected = {0: {0, 1, 5}, 1: {1, 2, 3}, 2: {3, 4, 5}}
    codec = GAME.codec
    for seat, slots in expected.items():
        views = state.observation(seat).objectives
        seen = {v.slot for v in views if v.card is not None}
        assert seen == slots
        for view, slot in zip(views, state.slots, strict=True):
            assert view.holders == slot.holders  # who holds a card is public
            assert view.card == (slot.card if view.slot in slots else None)
        message = codec.observation_to_proto(state.observation(seat))
        assert {i for i, entry in enumerate(message.objectives) if entry.card} == slots
    assert all(v.card is None for v in state.observation(None).objectives)
    # each seat scores exactly the three cards it sees
    finished = position(3, [("meadow", 0, 0, 0)], slots=state.slots)
    for seat, slots in expected.items():
        scored = {o["slot"] for o in finished.result().details["seats"][seat]["objectives"]}
        assert scored == slots
