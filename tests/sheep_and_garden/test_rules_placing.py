"""Rulebook sentences of placing a tile that had no scenario of their own: the
placement rule for roads and fences, the reshuffle only when no shown tile fits
and after a turn, the display running down at the end, and a solo tile drawn
after a turn that fits nowhere.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

import pytest

from games.contract import IllegalAction
from games.sheep_and_garden.model import GameEnded, Place, Reshuffled, TilePlaced, TilesShown
from games.sheep_and_garden.state import ALL_PLACED

from .helpers import analysed, position, tid

# ------------------------------------------------------------------ placing


def test_a_road_edge_must_meet_a_road() -> None:
    """ "When a tile is placed, the areas and roads MUST be connected ... A road must be
    connected": east of a meadow the road tile fits only with its road running north-
    south (rotations 1 and 3); turned so a road end meets the meadow's grass, it is
    refused."""
    road = tid("road")
    state = position(2, [("meadow", 0, 0, 0)], ["road"], ["pond"])
    assert [a for a in state.legal_actions() if (a.x, a.y) == (1, 0)] == [
        Place(road, 1, 0, 1),
        Place(road, 1, 0, 3),
    ]
    for rotation in (0, 2):
        with pytest.raises(IllegalAction):
            state.apply(Place(road, 1, 0, rotation))


def test_fences_never_need_to_match_a_neighbour() -> None:
    """ "A fence can be placed anywhere on grass"; notes: "Fences are printed inside
    tiles ... so they never need to match a neighbour." The paddock's fenced pen fits
    against an unfenced meadow in every rotation; turned so the pen's edge meets the
    meadow, the pen (2 cows) joins the meadow's grass (3 sheep), and the fence keeps the
    rest of the paddock's grass (1 tree) apart."""
    paddock = tid("paddock")
    state = position(2, [("meadow", 0, 0, 0)], ["paddock"], ["pond"])
    assert [a.rotation for a in state.legal_actions() if (a.x, a.y) == (1, 0)] == [0, 1, 2, 3]
    state.apply(Place(paddock, 1, 0, 3))  # the pen's edge faces the meadow
    areas = analysed(("meadow", 0, 0, 0), ("paddock", 1, 0, 3)).areas
    assert sorted((sorted(a.cells), a.objects) for a in areas) == [
        ([(0, 0), (1, 0)], (3, 2, 0, 0, 0, 0)),
        ([(1, 0)], (0, 0, 0, 1, 0, 0)),
    ]


def test_no_reshuffle_while_one_shown_tile_fits() -> None:
    """ "If all 3 tiles cannot be placed, shuffle their tiles": only when none of them
    fits. Around the market crossroads only a road edge fits; the road tile is one of
    the three shown, so nothing is reshuffled and only the road may be placed."""
    state = position(2, [("market crossroads", 0, 0, 0)], ["lake cap", "road", "bay"], ["meadow"])
    assert state.setup_events == ()
    assert state.display == (tid("lake cap"), tid("road"), tid("bay"))
    assert {a.tile for a in state.legal_actions()} == {tid("road")}


def test_a_reshuffle_after_a_turn_hands_the_new_tiles_to_the_next_player() -> None:
    """ "Then, replenish tiles so there are 3 tiles on the side, and the left player
    takes a turn"; "If all 3 tiles cannot be placed, shuffle their tiles, reveal new
    tiles and choose from them." Seat 2 of 3 places the market crossroads west of the
    city corner with a road bend: every open cell now needs a city or a road edge, and
    none of the refilled display (stream, pond, hedged garden) has one. They are
    shuffled back, and seat 0 chooses from the new tiles."""
    state = position(
        3,
        [("city corner with road bend", 0, 0, 0)],
        ["market crossroads", "stream", "pond"],
        ["road", "meadow", "hedged garden"],
        to_move=2,
    )
    events = [e.payload for e in state.apply(Place(tid("market crossroads"), -1, 0, 0))]
    assert [type(e) for e in events] == [TilePlaced, TilesShown, Reshuffled, TilesShown]
    assert events[0].seat == 2
    assert events[1].tiles == (tid("hedged garden"),)
    assert events[2].returned == (tid("stream"), tid("pond"), tid("hedged garden"))
    assert state.to_move == 0
    assert len(state.display) == 3 and state.deck_size == 2
    assert tid("road") in state.display
    assert {a.tile for a in state.legal_actions()} == {tid("road")}


def test_the_display_runs_down_when_the_deck_is_empty() -> None:
    """ "Replenish tiles so there are 3 tiles on the side" while the deck lasts; with
    the deck empty the last tiles are placed from a shrinking display, and "when all
    tiles are placed, the game ends"."""
    state = position(2, [("meadow", 0, 0, 0)], ["pond", "spring", "fenced meadow"], [])
    scores = []
    for x, name in enumerate(("pond", "spring", "fenced meadow"), start=1):
        shown_before = len(state.display)
        events = state.apply(Place(tid(name), x, 0, 0))
        assert not any(isinstance(e.payload, TilesShown) for e in events)
        assert len(state.display) == shown_before - 1
        scores = [e.payload for e in events if isinstance(e.payload, GameEnded)]
    assert state.to_move is None and state.end_reason == ALL_PLACED
    assert scores and scores[0].placed == 4
    assert scores[0].scores == state.result().scores


def test_solo_a_tile_drawn_after_a_turn_that_fits_nowhere_goes_back() -> None:
    """Solo: "draw a tile from the deck and place it immediately"; notes: "if it fits
    nowhere it is shuffled back and the next one is drawn", after a turn as at set-up.
    Once the city corner with a road bend lies beside the market crossroads, the bay
    drawn next fits nowhere; the road still in the deck does. The bay goes back (as
    often as the shuffle draws it again) until the road is drawn, and the player
    places that."""
    state = position(
        1, [("market crossroads", 0, 0, 0)], ["city corner with road bend"], ["road", "bay"]
    )
    events = [e.payload for e in state.apply(Place(tid("city corner with road bend"), -1, 0, 2))]
    kinds = [type(e) for e in events]
    assert kinds[:2] == [TilePlaced, TilesShown] and events[1].tiles == (tid("bay"),)
    assert len(kinds) >= 4 and kinds[2:] == [Reshuffled, TilesShown] * ((len(kinds) - 2) // 2)
    assert all(e.returned == (tid("bay"),) for e in events[2::2])
    assert state.display == (tid("road"),) and state.deck_size == 1 and state.to_move == 0
