"""Rulebook sentences of the game's end that had no scenario of their own: the
early end when no tile left fits (solo too), no end while tiles are left, tiles
left unplaced at an early end scoring nothing, the deck's last tile shown and
fitting nowhere, and the last tile scoring what it closes.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

from games.sheep_and_garden.model import GameEnded, Place, Slot, TilePlaced, TilesShown
from games.sheep_and_garden.state import ALL_PLACED, DEADLOCK

from ._rulebook_landscapes import STREAM_OPEN_SOUTH
from .helpers import position, tid


def test_the_game_ends_when_the_last_shown_tiles_fit_nowhere() -> None:
    """Notes: "If no tile left can be placed anywhere, the game ends at once (engine
    rule)", also once the deck is empty and the display has run down. Seat 0 places
    the city corner with a road bend beside the market crossroads: every open cell
    now needs a city or a road edge, and neither tile left (bay, lake cap) has one.
    With no deck to reshuffle into, the game ends at once after 2 tiles, nobody to
    move and no tile shown or reshuffled."""
    state = position(
        2, [("market crossroads", 0, 0, 0)], ["city corner with road bend", "bay", "lake cap"], []
    )
    events = [e.payload for e in state.apply(state.legal_actions()[0])]
    assert [type(e) for e in events] == [TilePlaced, GameEnded]
    assert events[1].reason == DEADLOCK and events[1].placed == 2
    assert state.to_move is None and state.end_reason == DEADLOCK
    assert state.display == (tid("bay"), tid("lake cap"))
    assert state.legal_actions() == ()
    assert events[1].scores == state.result().scores


def test_solo_ends_when_neither_the_drawn_tile_nor_any_left_fits() -> None:
    """Solo: "draw a tile from the deck and place it immediately"; notes: a drawn tile
    that fits nowhere is shuffled back, and "if no tile left can be placed anywhere,
    the game ends at once". Around the market crossroads only a road edge fits; the
    drawn bay and the deck (meadow, lake cap) have none, so nothing is reshuffled and
    the game is over with the start tile alone."""
    state = position(1, [("market crossroads", 0, 0, 0)], ["bay"], ["meadow", "lake cap"])
    assert [type(e.payload) for e in state.setup_events] == [GameEnded]
    assert state.to_move is None and state.end_reason == DEADLOCK
    assert state.result().details["placed"] == 1


# ------------------------------------------------------------------ the end


def test_the_game_is_not_over_while_tiles_are_left_in_the_deck() -> None:
    """ "When all tiles are placed, the game ends": a position with no tile shown but
    two left in the deck is not over. The display is filled from the deck (the top
    tile first) and the player moves."""
    state = position(2, [("meadow", 0, 0, 0)], [], ["pond", "road"])
    assert [type(e.payload) for e in state.setup_events] == [TilesShown]
    assert state.to_move == 0 and state.end_reason == ""
    assert state.display == (tid("road"), tid("pond")) and state.deck_size == 0
    assert {a.tile for a in state.legal_actions()} == {tid("road"), tid("pond")}


# ------------------------------------------------------------------ unusual endings and shapes


def test_tiles_left_unplaced_when_no_tile_fits_score_nothing() -> None:
    """ "Each player calculates their score based on their objective cards and placed
    tiles"; notes: "If no tile left can be placed anywhere, the game ends at once". The
    city corner with a road bend beside the market crossroads leaves only cells that
    need a city or a road edge, so the game ends with the pond (a lake printed inside
    it, 2 fish) and the hedged garden (a garden printed inside it, 1 tree, 1 human)
    still shown. Complete as they are on their own tiles, they are not placed: the
    lakes, gardens and trees cards score nothing. The market's city, printed inside a
    placed tile, counts: cities 3 + 1 human, people 1, lands 2."""
    slots = (
        Slot("lakes", (0,), True),
        Slot("gardens", (0,), False),
        Slot("trees", (0,), False),
        Slot("cities", (1,), True),
        Slot("people", (1,), False),
        Slot("lands", (1,), False),
    )
    state = position(
        2,
        [("market crossroads", 0, 0, 0)],
        ["city corner with road bend", "pond", "hedged garden"],
        [],
        slots=slots,
    )
    assert {a.tile for a in state.legal_actions()} == {tid("city corner with road bend")}
    events = [e.payload for e in state.apply(Place(tid("city corner with road bend"), -1, 0, 2))]
    assert [type(e) for e in events] == [TilePlaced, GameEnded]
    assert state.end_reason == DEADLOCK
    assert state.display == (tid("pond"), tid("hedged garden"))
    result = state.result()
    assert result.details["placed"] == 2
    assert [(o["card"], o["points"]) for o in result.details["seats"][0]["objectives"]] == [
        ("lakes", 0),
        ("gardens", 0),
        ("trees", 0),
    ]
    assert [(o["card"], o["points"]) for o in result.details["seats"][1]["objectives"]] == [
        ("cities", 4),
        ("people", 1),
        ("lands", 2),
    ]
    assert result.scores == (0.0, 7.0) and result.ranks == (2, 1)


# ------------------------------------------------------------------ sequences: the last turns


def test_the_last_tile_refilled_that_fits_nowhere_ends_the_game_without_a_reshuffle() -> None:
    """ "Then, replenish tiles so there are 3 tiles on the side"; "If all 3 tiles cannot
    be placed, shuffle their tiles, reveal new tiles"; notes: "If no tile left can be
    placed anywhere, the game ends at once". The city corner with a road bend beside
    the market crossroads leaves only cells that need a city or a road edge; the
    deck's last tile (the pond) is shown, and neither it nor the bay and lake cap fits.
    Shuffling the three would only show them again: the game ends there, the pond's
    showing the last thing before the end."""
    state = position(
        2,
        [("market crossroads", 0, 0, 0)],
        ["city corner with road bend", "bay", "lake cap"],
        ["pond"],
    )
    events = [e.payload for e in state.apply(Place(tid("city corner with road bend"), -1, 0, 2))]
    assert [type(e) for e in events] == [TilePlaced, TilesShown, GameEnded]
    assert events[1].tiles == (tid("pond"),)
    assert events[2].reason == DEADLOCK and events[2].placed == 2
    assert state.to_move is None and state.end_reason == DEADLOCK
    assert state.display == (tid("bay"), tid("lake cap"), tid("pond"))
    assert state.deck_size == 0


def test_the_last_tile_placed_scores_what_it_closes() -> None:
    """ "When all tiles are placed, the game ends ... Each player calculates their
    score based on their objective cards and placed tiles": the last tile counts like
    any other. Before it the stream's lake is open (lakes 0); the last spring closes
    it, and the game's end, in the same turn, scores it: 4 points on the lakes card
    (no fish in a stream), in the GameEnded event and the result alike. Lands: the
    springs' grass joins the stream's banks, 1 land."""
    slots = (
        Slot("lakes", (0,), True),
        Slot("roads", (0,), False),
        Slot("cows", (0,), False),
        Slot("lands", (1,), True),
        Slot("hearts", (1,), False),
        Slot("cities", (1,), False),
    )
    state = position(2, STREAM_OPEN_SOUTH, ["spring"], [], slots=slots, to_move=1)
    assert state.score_details()["stats"]["complete_lakes"] == 0
    events = [e.payload for e in state.apply(Place(tid("spring"), 0, 1, 0))]
    assert [type(e) for e in events] == [TilePlaced, GameEnded]
    assert events[1].reason == ALL_PLACED and events[1].placed == 3
    assert events[1].scores == state.result().scores == (4.0, 2.0)
