"""Rulebook sentences that had no scenario of their own: the placement rule for roads
and fences, the reshuffle only when no shown tile fits and after a turn, the display
running down at the end, the early end when no tile left fits (solo too), no end while
tiles are left, grass closed by roads alone, trees on grass, ties among more than two
players, the game's options, the tile set-up at every player count, a road back to its
own city, houses on grass in a settlement, the solo result with its praise, the
rulebook's three sheep in one area, every cow and tree of one area counted, lands
joined through cities and gardens but not lakes, a city printed inside a tile
complete at once, tiles left unplaced at an early end scoring nothing, an area facing
a hole in the landscape staying open, a stream closed in an L as a lake heart, and
four players scored as the scoring board adds up its squares, grass closed by a road
with nothing printed on it as an empty area, the cows of several complete areas
added up, and a first display that fits nowhere reshuffled before the first turn;
and sequences at the end: the deck's last tile shown and fitting nowhere, a solo
tile drawn after a turn that fits nowhere, the last tile scoring what it closes, a
negative solo difference, four players tied for second, an L heart beside a filled
fourth cell, and a road running past a city.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

import pytest

from games.contract import IllegalAction
from games.errors import InvalidOptions
from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import TILES
from games.sheep_and_garden.model import GameEnded, Place, Reshuffled, Slot, TilePlaced, TilesShown
from games.sheep_and_garden.scoring import Analysis, AreaInfo, analyse, score_cards
from games.sheep_and_garden.state import ALL_PLACED, DEADLOCK, deal_objectives

from .helpers import analysed, landscape, mismatches, position, tid

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


# ------------------------------------------------------------------ scoring

# Four road bends closing a ring: the grass inside the ring (one cow) touches no edge
# but road segments.
ROAD_RING = (
    ("road bend", 0, 0, 3),
    ("garden lane", 1, 0, 0),
    ("city corner with road bend", 0, 1, 2),
    ("garden road bend", 1, 1, 2),
)


def test_roads_alone_complete_grass() -> None:
    """ "Roads and Fences complete Grasses": the grass inside a ring of road is a
    complete area although the landscape around it is open, so its cow counts."""
    assert mismatches(landscape(*ROAD_RING)) == []
    analysis = analysed(*ROAD_RING)
    complete = [a for a in analysis.areas if a.complete]
    assert [(a.terrain, a.cells, a.objects) for a in complete] == [
        ("grass", {(0, 0), (1, 0), (0, 1), (1, 1)}, (0, 1, 0, 0, 0, 0))
    ]
    assert score_cards(analysis.stats())["cows"] == (1, 2)


def test_trees_on_complete_grass_count_for_trees_but_not_for_gardens() -> None:
    """ "'Number of Trees' ... score Trees ... in completed areas" (any terrain); the
    gardens card's bonus counts only trees in complete gardens. The pond's grass with a
    tree is closed by two garden corners whose gardens stay open."""
    layout = (("pond", 0, 0, 0), ("garden corner", 0, 1, 2), ("garden corner", -1, 0, 2))
    assert mismatches(landscape(*layout)) == []
    cards = score_cards(analysed(*layout).stats())
    assert cards["trees"] == (1, 1)
    assert cards["gardens"] == (0, 0)


# A complete city in an L (a heart): 1 city, 1 human, 3 houses, 1 land.
HEART = [("city corner", 0, 0, 0), ("city cap", 0, -1, 2), ("twin city caps", 1, 0, 3)]


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


# ------------------------------------------------------------------ options


@pytest.mark.parametrize("players", [0, 5])
def test_one_to_four_players(players: int) -> None:
    """Solo rule plus set-ups "for 2 players" and "for 3-4 players": 1 to 4 seats."""
    with pytest.raises(InvalidOptions):
        GAME.new_state(players, 1)


def test_the_game_has_no_options() -> None:
    """The rulebook has no variants: any option is refused."""
    with pytest.raises(InvalidOptions, match="unknown option"):
        GAME.new_state(2, 1, {"rounds": "3"})


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


# ------------------------------------------------------------------ more sentences


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_table_sets_up_the_tiles_as_for_two_players(players: int) -> None:
    """ "Shuffle the tiles, then put 1 on the centre of the table and 3 on the side of
    the table, face up. The rest are stacked face down as a deck"; for 3-4 players
    "Set up tiles as for 2 players". Notes: the start tile lies at (0, 0) unrotated."""
    starts = set()
    for seed in range(20):
        state = GAME.new_state(players, seed)
        [start] = state.placed
        assert (start.x, start.y, start.rotation) == (0, 0, 0)
        assert len(state.display) == 3 and state.deck_size == 33
        assert start.tile not in state.display
        starts.add(start.tile)
    assert len(starts) > 5  # shuffled: the start tile differs from seed to seed


def test_solo_sets_up_one_tile_in_the_centre_and_draws_one() -> None:
    """Solo: "Shuffle the tiles, and place 1 tile on the centre of the table"; "draw a
    tile from the deck and place it immediately": one start tile at (0, 0), the one
    drawn tile shown, 35 left face down, and no three-tile display."""
    starts = set()
    for seed in range(20):
        state = GAME.new_state(1, seed)
        [start] = state.placed
        assert (start.x, start.y, start.rotation) == (0, 0, 0)
        assert len(state.display) == 1 and state.deck_size == 35
        assert {a.tile for a in state.legal_actions()} == set(state.display)
        starts.add(start.tile)
    assert len(starts) > 5


def _fits_beside_the_start(start: int, tile: int) -> bool:
    """Whether `tile`, in some turn, can lie on some side of the unrotated `start`
    tile with every segment of the shared edge meeting one of the same kind (read
    from the tile letters, not through the engine's edge codes)."""
    theirs = TILES[start].letters(0)
    for d in range(4):
        edge = theirs[3 * d : 3 * d + 3][::-1]  # as the neighbour reads it, clockwise
        back = (d + 2) % 4
        if any(TILES[tile].letters(r)[3 * back : 3 * back + 3] == edge for r in range(4)):
            return True
    return False


@pytest.mark.parametrize("players", [1, 2, 4])
def test_a_first_display_that_fits_nowhere_is_reshuffled_before_the_first_turn(
    players: int,
) -> None:
    """ "If all 3 tiles cannot be placed, shuffle their tiles, reveal new tiles and
    choose from them" holds from the set-up on (solo: the drawn tile). Over 200 dealt
    games, the first tiles shown are shuffled back exactly when none of them fits
    beside the start tile, and the first player then always has a placement among the
    tiles shown, with every tile but the start tile still shown or in the deck."""
    reshuffled = 0
    for seed in range(200):
        state = GAME.new_state(players, seed)
        events = [e.payload for e in state.setup_events]
        assert isinstance(events[0], TilesShown)
        first = events[0].tiles
        start = state.placed[0].tile
        if any(_fits_beside_the_start(start, tile) for tile in first):
            assert len(events) == 1, seed
        else:
            assert isinstance(events[1], Reshuffled) and events[1].returned == first, seed
            reshuffled += 1
        legal = state.legal_actions()
        assert legal and {a.tile for a in legal} <= set(state.display), seed
        assert len(state.display) == (1 if players == 1 else 3)
        assert len(state.display) + state.deck_size == 36
    assert reshuffled >= 1


def test_a_road_from_a_city_back_to_the_same_city_is_complete() -> None:
    """ "A Road is completed when both sides of it connect to Cities"; notes: "complete
    when it has two ends and both stop at cities". A road leaves the market's north
    side and comes back into its east side: both ends stop at a city (the same one),
    so it is one complete road; the market's west and south stubs stay open."""
    layout = (
        ("market crossroads", 0, 0, 0),
        ("garden road bend", 0, -1, 0),
        ("garden lane", 1, -1, 0),
        ("road bend", 1, 0, 1),
    )
    assert mismatches(landscape(*layout)) == []
    roads = analysed(*layout).roads
    assert sorted((len(r.cells), r.ends, r.complete) for r in roads) == [
        (1, 1, False),
        (1, 1, False),
        (4, 2, True),
    ]
    assert score_cards(analysed(*layout).stats())["roads"] == (1, 2)


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


@pytest.mark.parametrize(
    ("tile", "cities", "people"),
    [("hamlet", (1, 4), (1, 1)), ("village at a junction", (1, 3), (0, 0))],
)
def test_a_city_printed_inside_a_tile_is_complete_at_once(
    tile: str, cities: tuple[int, int], people: tuple[int, int]
) -> None:
    """Notes: an area may own no edge segment, and then it "is complete at once". The
    hamlet's city (1 human) and the village's (1 house) touch no edge: each is a
    complete city as soon as the tile lies, alone in the landscape, for the cities card
    (3 points, +1 per human in complete cities) and the people card."""
    cards = score_cards(analysed((tile, 0, 0, 0)).stats())
    assert cards["cities"] == cities
    assert cards["people"] == people


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


# Seven tiles around the empty cell (0, 0): the city cap with road (turned twice)
# above it shows its city to the cell, every other side of the cell is grass.
AROUND_A_CITY_HOLE = (
    ("city cap with road", 0, -1, 2),
    ("meadow", 1, -1, 0),
    ("fenced meadow", 1, 0, 0),
    ("paddock", 1, 1, 0),
    ("farmstead", 0, 1, 0),
    ("pond", -1, 1, 0),
    ("hedged garden", -1, 0, 0),
)


def test_an_area_facing_a_hole_stays_open_until_a_tile_fills_it() -> None:
    """ "A 'completed area' denotes the area which is closed"; notes: complete when
    "none of its segments faces an empty cell". Tiles on all four sides of the empty
    cell do not close the city that faces it: the city (1 human) is open and the
    cities card scores nothing. The city cap, turned so its city meets that city, is
    the one placement the hole takes; placed, it closes a city of 2 tiles holding 1
    human and 1 house: 3 + 1 points."""
    assert mismatches(landscape(*AROUND_A_CITY_HOLE)) == []
    [city] = [a for a in analysed(*AROUND_A_CITY_HOLE).areas if a.terrain == "city"]
    assert not city.complete and city.cells == {(0, -1)}
    assert score_cards(analysed(*AROUND_A_CITY_HOLE).stats())["cities"] == (0, 0)
    state = position(2, AROUND_A_CITY_HOLE, ["city cap", "garden cap", "lake cap"], ["bay"])
    assert [a for a in state.legal_actions() if (a.x, a.y) == (0, 0)] == [
        Place(tid("city cap"), 0, 0, 0)
    ]
    state.apply(Place(tid("city cap"), 0, 0, 0))
    [city] = [a for a in analyse(state.board).areas if a.terrain == "city"]
    assert city.complete and city.cells == {(0, -1), (0, 0)}
    assert city.objects == (0, 0, 1, 0, 1, 0)
    assert score_cards(analyse(state.board).stats())["cities"] == (1, 4)


def test_a_stream_closed_in_an_l_is_a_lake_heart() -> None:
    """ "A heart-shaped area can be made on Gardens, Cities and Lakes"; notes: a heart is
    "a complete garden, city or lake area that covers exactly 3 tiles which form an L".
    A stream bend closed at both ends by a spring is a complete lake on 3 tiles in an
    L: a heart (5 points) and a complete lake (4 points, no fish). The closed lake
    parts no land: the springs' grass runs round its ends, so the three tiles are one
    land."""
    layout = (("stream bend", 0, 0, 0), ("spring", 0, -1, 2), ("spring", 1, 0, 3))
    assert mismatches(landscape(*layout)) == []
    analysis = analysed(*layout)
    [lake] = [a for a in analysis.areas if a.terrain == "lake"]
    assert lake.complete and lake.cells == {(0, 0), (0, -1), (1, 0)}
    cards = score_cards(analysis.stats())
    assert cards["hearts"] == (1, 5)
    assert cards["lakes"] == (1, 4)
    assert cards["lands"] == (1, 2)


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


# A ring of road round one cell corner: the market's road leaves its north side,
# bends through three tiles and comes back into its west side; the four grass
# corners inside the ring, nothing printed on them, meet only each other and road.
EMPTY_RING = (
    ("garden lane", 0, 0, 3),
    ("road bend", 1, 0, 0),
    ("city corner with road bend", 0, 1, 2),
    ("market crossroads", 1, 1, 0),
)


def test_grass_closed_by_a_road_with_nothing_printed_is_an_empty_area() -> None:
    """ "An empty area means a Grasses area that contains no objects"; "Roads and
    Fences complete Grasses"; objects are "Sheep, Cow, Human, Tree, House and Fish".
    The grass inside the ring is complete although every tile around it is open, and
    it is empty: the road round it is no object, nor is the market's city beside it
    (1 human, 1 house), which is an area of its own. The ring's road, both ends in
    the market's city, is complete."""
    assert mismatches(landscape(*EMPTY_RING)) == []
    analysis = analysed(*EMPTY_RING)
    complete = sorted((a.terrain, sorted(a.cells), a.objects) for a in analysis.areas if a.complete)
    assert complete == [
        ("city", [(1, 1)], (0, 0, 1, 0, 1, 0)),
        ("grass", [(0, 0), (0, 1), (1, 0), (1, 1)], (0, 0, 0, 0, 0, 0)),
    ]
    cards = score_cards(analysis.stats())
    assert cards["empty_areas"] == (1, 3)
    assert cards["roads"] == (1, 2)
    assert cards["sheep_areas"] == (0, 0)


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


# A stream with a spring on its north end; a spring on its south end closes the lake.
STREAM_OPEN_SOUTH = (("stream", 0, 0, 0), ("spring", 0, -1, 2))


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


def test_an_l_city_is_a_heart_when_a_tile_fills_the_rest_of_its_block() -> None:
    """Notes: a heart is a complete area "that covers exactly 3 tiles which form an L
    (three cells of a 2x2 block)". What lies on the block's fourth cell does not
    matter while the area does not cover it: a meadow there (it fits against the city
    cap's and twin caps' grass) leaves the city's heart as it was, 5 points."""
    layout = (*HEART, ("meadow", 1, -1, 0))
    assert mismatches(landscape(*layout)) == []
    [city] = [a for a in analysed(*layout).areas if a.terrain == "city" and a.complete]
    assert city.cells == {(0, 0), (0, -1), (1, 0)}
    assert score_cards(analysed(*layout).stats())["hearts"] == (1, 5)


def test_a_road_running_past_a_city_does_not_end_there() -> None:
    """ "A Road is completed when both sides of it connect to Cities"; notes: a road
    piece stops at a city only where the tile says so. The city gate's road runs past
    its city, a strip of grass between them: a road from the city cap with road
    through the gate is still open (roads 0), and ends only at a second city cap with
    road beyond it: 1 complete road, 2 points."""
    passing = (("city cap with road", 0, 0, 0), ("city gate", 0, 1, 3))
    closed = (*passing, ("city cap with road", 0, 2, 2))
    assert mismatches(landscape(*closed)) == []
    assert [(r.ends, r.closed) for r in analysed(*passing).roads] == [(1, False)]
    assert score_cards(analysed(*passing).stats())["roads"] == (0, 0)
    assert [(r.ends, r.closed) for r in analysed(*closed).roads] == [(2, True)]
    assert score_cards(analysed(*closed).stats())["roads"] == (1, 2)
