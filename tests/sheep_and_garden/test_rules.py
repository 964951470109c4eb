"""Play scenarios: setup, placing, the display, reshuffles, the ends, objectives dealt,
who scores what (rulebook "Set up", "Game flow", "Rule of tile placement", "Solo rule",
"Other rules", "End of game"; rules notes "Play" and "Who holds which cards")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.contract import IllegalAction
from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import DIRECTIONS, OBJECTIVES, TILES, _canonical
from games.sheep_and_garden.model import (
    GameEnded,
    Place,
    PlacedTile,
    Reshuffled,
    Slot,
    TilePlaced,
    TilesShown,
)
from games.sheep_and_garden.state import ALL_PLACED, DEADLOCK, deal_objectives

from .helpers import mismatches, play_random, position, tid

NO_ROAD_TILES = ("lake cap", "meadow", "bay")


def _face(tile: int, rotation: int) -> tuple:
    t = TILES[tile]
    return _canonical(t.segments, t.areas, t.roads, rotation)


def test_setup_start_tile_display_and_deck() -> None:
    """ "Put 1 on the centre of the table and 3 on the side of the table, face up. The rest
    are stacked face down as a deck"; notes: "one random tile at (0, 0), unrotated".\""""
    state = GAME.new_state(2, 7)
    assert len(state.placed) == 1
    start = state.placed[0]
    assert (start.x, start.y, start.rotation) == (0, 0, 0)
    assert len(state.display) == 3 and state.deck_size == 33
    shown = [e.payload for e in state.setup_events if isinstance(e.payload, TilesShown)]
    assert shown and shown[0].tiles == state.display
    starts = {GAME.new_state(2, seed).placed[0].tile for seed in range(30)}
    assert len(starts) > 5  # the start tile is drawn at random


def test_first_player_is_random_and_turns_go_left() -> None:
    """ "Select the first player randomly" ... "the left player takes a turn" (the next
    seat clockwise)."""
    for players in (2, 3, 4):
        starters = {GAME.new_state(players, seed).to_move for seed in range(60)}
        assert starters == set(range(players))
    state = GAME.new_state(3, 11)
    for _ in range(5):
        seat = state.to_move
        state.apply(state.legal_actions()[0])
        assert state.to_move == (seat + 1) % 3


def test_legal_actions_are_exactly_the_fitting_placements() -> None:
    """ "Places it connected to tiles already placed"; "the areas and roads MUST be
    connected": the tile shares an edge with the landscape and every shared segment
    matches. Every such placement is offered (once per distinct face)."""
    state, _, _ = play_random(2, 5)  # a finished landscape to build on
    board = dict(list(state.board.items())[:20])
    placed = [(t, x, y, r) for (x, y), (t, r) in board.items()]
    rest = [t for t in range(37) if t not in {p[0] for p in placed}]
    from games.sheep_and_garden.state import SheepAndGardenState

    pos = SheepAndGardenState.from_position(2, placed, rest[:3], rest[3:])
    legal = set(pos.legal_actions())
    empty = {
        (x + dx, y + dy) for x, y in board for dx, dy in DIRECTIONS if (x + dx, y + dy) not in board
    }
    expected_faces = set()
    for tile in rest[:3]:
        for x, y in empty:
            for r in range(4):
                if not mismatches({**board, (x, y): (tile, r)}):
                    expected_faces.add((tile, x, y, _face(tile, r)))
    assert {(a.tile, a.x, a.y, _face(a.tile, a.rotation)) for a in legal} == expected_faces
    assert len(legal) == len(expected_faces)  # no face offered twice


@pytest.mark.parametrize("players", [1, 2, 4])
def test_legal_actions_keep_their_order_every_turn(players: int) -> None:
    """A stored match is replayed by action index, so the order is part of the
    contract: shown tile by shown tile, then cell by cell in (x, y) order, then by
    rotation; every turn of a game, each placement once."""
    for seed in range(3):
        state = GAME.new_state(players, seed)
        rng = random.Random(seed)
        while state.to_move is not None:
            actions = state.legal_actions()
            display = state.display
            keys = [(display.index(a.tile), a.x, a.y, a.rotation) for a in actions]
            assert keys == sorted(set(keys))
            assert {(a.x, a.y) for a in actions} <= set(state.open_cells)
            state.apply(actions[rng.randrange(len(actions))])


def test_illegal_placements_raise_and_leave_the_state_unchanged() -> None:
    """A placement that breaks the matching rule, floats free, or uses a tile not on
    display raises IllegalAction; the state does not change."""
    state = position(2, [("city cap", 0, 0, 0)], ["lake cap", "meadow", "road"], ["bay"])
    before = (state.render(), state.observation(0), state.legal_actions())
    lake_cap, bay = tid("lake cap"), tid("bay")
    for bad in (
        Place(lake_cap, 0, -1, 2),  # lake against the city
        Place(lake_cap, 5, 5, 0),  # not next to the landscape
        Place(bay, 1, 0, 0),  # not on display
        Place(lake_cap, 0, 0, 0),  # occupied
        ("tile", 1, 0, 0),
    ):
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert (state.render(), state.observation(0), state.legal_actions()) == before
    assert Place(lake_cap, 1, 0, 0) in state.legal_actions()


def test_display_refills_to_three_after_a_placement() -> None:
    """ "Then, replenish tiles so there are 3 tiles on the side.\""""
    state = position(2, [("meadow", 0, 0, 0)], ["lake cap", "road", "pond"], ["bay", "stream"])
    events = state.apply(Place(tid("road"), 1, 0, 1))
    assert [type(e.payload) for e in events] == [TilePlaced, TilesShown]
    assert events[1].payload.tiles == (tid("stream"),)
    assert state.display == (tid("lake cap"), tid("pond"), tid("stream"))
    assert state.deck_size == 1
    assert state.to_move == 1


def test_reshuffle_when_no_shown_tile_fits() -> None:
    """ "If all 3 tiles cannot be placed, shuffle their tiles, reveal new tiles and choose
    from them": the market crossroads shows roads on all four sides, so only a tile
    with a road edge fits; the three shown have none."""
    state = position(
        2, [("market crossroads", 0, 0, 0)], NO_ROAD_TILES, ["fenced meadow", "road"], seed=3
    )
    kinds = [type(e.payload) for e in state.setup_events]
    assert kinds[:2] == [Reshuffled, TilesShown]
    assert state.setup_events[0].payload.returned == tuple(tid(n) for n in NO_ROAD_TILES)
    assert tid("road") in state.display and state.to_move == 0
    everything = Counter(state.display) + Counter(state._deck)
    assert everything == Counter(tid(n) for n in (*NO_ROAD_TILES, "fenced meadow", "road"))
    assert all(a.tile == tid("road") for a in state.legal_actions())


def test_game_ends_at_once_when_no_tile_left_fits() -> None:
    """Notes: "If no tile left can be placed anywhere, the game ends at once (engine
    rule)."""
    state = position(2, [("market crossroads", 0, 0, 0)], NO_ROAD_TILES, ["fenced meadow"])
    assert state.to_move is None and state.terminal
    assert state.end_reason == DEADLOCK
    assert state.legal_actions() == ()
    assert isinstance(state.setup_events[-1].payload, GameEnded)
    assert state.result().details["placed"] == 1


def test_solo_draws_a_tile_and_places_it() -> None:
    """Solo: "draw a tile from the deck and place it immediately"; the player chooses
    only the cell and rotation."""
    state = GAME.new_state(1, 4)
    assert len(state.display) == 1 and state.deck_size == 35
    drawn = state.display[0]
    assert {a.tile for a in state.legal_actions()} == {drawn}
    events = state.apply(state.legal_actions()[0])
    assert [type(e.payload) for e in events] == [TilePlaced, TilesShown]
    assert len(state.display) == 1 and state.deck_size == 34 and state.to_move == 0


def test_solo_tile_that_fits_nowhere_is_shuffled_back() -> None:
    """Notes: "if it fits nowhere it is shuffled back and the next one is drawn.\""""
    state = position(1, [("market crossroads", 0, 0, 0)], ["bay"], ["road", "meadow"], seed=1)
    assert isinstance(state.setup_events[0].payload, Reshuffled)
    assert state.display == (tid("road"),)
    assert sorted(state._deck) == sorted([tid("bay"), tid("meadow")])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_game_ends_when_all_37_tiles_are_placed(players: int) -> None:
    """ "When all tiles are placed, the game ends.\""""
    state, indices, events = play_random(players, 1)
    assert state.end_reason == ALL_PLACED and len(state.board) == 37
    assert state.deck_size == 0 and state.display == ()
    assert len(indices) == 36
    assert isinstance(events[-1].payload, GameEnded)
    with pytest.raises(IllegalAction):
        state.apply(Place(0, 99, 99, 0))


def test_objectives_dealt_per_player_count() -> None:
    """Solo: 3 + 3 enemy, all visible; 2 players: 3 each, 1 face up; 3-4 players: one
    per player and one between each pair of neighbours, face down."""
    cards = [c.id for c in OBJECTIVES]
    solo = deal_objectives(1, cards)
    assert [(s.holders, s.enemy, s.face_up) for s in solo] == [((0,), False, True)] * 3 + [
        ((), True, True)
    ] * 3
    two = deal_objectives(2, cards)
    assert [(s.holders, s.face_up) for s in two] == [
        ((0,), True),
        ((0,), False),
        ((0,), False),
        ((1,), True),
        ((1,), False),
        ((1,), False),
    ]
    three = deal_objectives(3, cards)
    assert [s.holders for s in three] == [(0,), (0, 1), (1,), (1, 2), (2,), (0, 2)]
    four = deal_objectives(4, cards)
    assert [s.holders for s in four] == [(0,), (0, 1), (1,), (1, 2), (2,), (2, 3), (3,), (0, 3)]
    for slots, players in ((three, 3), (four, 4)):
        assert not any(s.face_up for s in slots)
        for seat in range(players):
            assert sum(seat in s.holders for s in slots) == 3
    for players in (1, 2, 3, 4):
        dealt = [s.card for s in GAME.new_state(players, 9).slots]
        assert len(dealt) == len(set(dealt)) == {1: 6, 2: 6, 3: 6, 4: 8}[players]


HEART = [("city corner", 0, 0, 0), ("city cap", 0, -1, 2), ("twin city caps", 1, 0, 3)]


def test_shared_cards_count_for_both_neighbours() -> None:
    """ "In the case of 3-4 players, each player sums the scores of the 3 objective
    cards placed in front of them, and between their neighbours.\""""
    slots = (
        Slot("hearts", (0,), False),  # 5
        Slot("cities", (0, 1), False),  # 4
        Slot("lakes", (1,), False),  # 0
        Slot("settlements", (1, 2), False),  # 4
        Slot("lands", (2,), False),  # 2
        Slot("people", (2, 3), False),  # 1
        Slot("roads", (3,), False),  # 0
        Slot("trees", (0, 3), False),  # 0
    )
    state = position(4, HEART, slots=slots)
    result = state.result()
    assert result.scores == (9.0, 8.0, 7.0, 1.0)
    assert result.ranks == (1, 2, 3, 4)
    seat1 = result.details["seats"][1]["objectives"]
    assert [(o["card"], o["shared_with"], o["count"], o["points"]) for o in seat1] == [
        ("cities", [0], 1, 4),
        ("lakes", [], 0, 0),
        ("settlements", [2], 1, 4),
    ]


def test_three_players_share_one_card_with_each_other_player() -> None:
    """Three players: 6 cards, "1 between each pair of players (seen by those two)"."""
    slots = (
        Slot("hearts", (0,), False),
        Slot("cities", (0, 1), False),
        Slot("lakes", (1,), False),
        Slot("settlements", (1, 2), False),
        Slot("lands", (2,), False),
        Slot("people", (0, 2), False),
    )
    assert position(3, HEART, slots=slots).result().scores == (10.0, 8.0, 7.0)


def test_ties_share_a_rank() -> None:
    """Notes: "Highest score wins; ties shared.\""""
    slots = (
        Slot("cities", (0,), True),
        Slot("lakes", (0,), False),
        Slot("roads", (0,), False),
        Slot("settlements", (1,), True),
        Slot("trees", (1,), False),
        Slot("cows", (1,), False),
    )
    result = position(2, HEART, slots=slots).result()
    assert result.scores == (4.0, 4.0) and result.ranks == (1, 1)


def test_solo_scores_own_minus_enemy_with_praise() -> None:
    """Solo: "you get the following praise based on the total of your objectives minus
    the total of your enemy's objectives.\""""
    slots = (
        Slot("hearts", (0,), True),
        Slot("cities", (0,), True),
        Slot("settlements", (0,), True),
        Slot("lakes", (), True, enemy=True),
        Slot("people", (), True, enemy=True),
        Slot("roads", (), True, enemy=True),
    )
    result = position(1, HEART, slots=slots).result()
    assert result.scores == (13.0 - 1.0,)
    assert result.details["enemy"]["total"] == 1
    assert result.details["praise"] == "none"
    assert result.ranks == (1,)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_result_details_list_every_objective(players: int) -> None:
    """`result()` details list every objective's count and points per player."""
    state, _, _ = play_random(players, 21)
    result = state.result()
    seats = result.details["seats"]
    assert len(seats) == players
    for seat, entry in enumerate(seats):
        assert len(entry["objectives"]) == 3
        assert entry["total"] == sum(o["points"] for o in entry["objectives"])
        for o in entry["objectives"]:
            assert {"card", "name", "count", "points", "shared_with"} <= set(o)
        if players > 1:
            assert result.scores[seat] == entry["total"]
    if players == 1:
        assert len(result.details["enemy"]["objectives"]) == 3
    import json

    json.dumps(result.details)


def test_render_draws_the_landscape() -> None:
    """`render()` draws each tile's segments around its id."""
    state = position(2, [("city gate", 0, 0, 0), ("road", 1, 0, 0)], ["pond"], ["bay"])
    text = state.render()
    assert " ccc  ggg" in text
    assert "   0 r 0 rr28 r" in text
    assert "shown: 24 (pond" in text and "deck: 1" in text
    assert state.placed[1] == PlacedTile(tid("road"), 1, 0, 0)


def test_a_symmetric_tile_named_at_an_equal_rotation_is_played_at_the_listed_one() -> None:
    """A stream (lake on its north and south edges) turned twice lies exactly as it
    does unturned: east of a meadow legal_actions() lists it once, at rotation 0,
    and apply() takes rotation 2 as that. Rotation 3 is rotation 1, whose lake
    would meet the meadow's grass; it is refused, as is what is no rotation."""
    placed, display, deck = [("meadow", 0, 0, 0)], ["stream", "road", "pond"], ["bay"]
    stream = tid("stream")
    listed = [a for a in position(2, placed, display, deck).legal_actions() if a.tile == stream]
    assert {a.rotation for a in listed if (a.x, a.y) == (1, 0)} == {0}
    for named in (2, 0):
        state = position(2, placed, display, deck)
        events = state.apply(Place(stream, 1, 0, named))
        assert events[0].visible_to(1).rotation == 0
        assert state.board[(1, 0)] == (stream, 0)
    for bad in (3, 1, 4, -1, 2.0):
        state = position(2, placed, display, deck)
        with pytest.raises(IllegalAction):
            state.apply(Place(stream, 1, 0, bad))  # type: ignore[arg-type]
