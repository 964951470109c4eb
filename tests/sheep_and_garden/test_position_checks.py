"""A hand-built position that no game holds is refused with a ValueError that
names what is wrong, instead of indexing another tile or failing later."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from games.sheep_and_garden.data import TILE_COUNT, TILES
from games.sheep_and_garden.model import (
    ALL_PLACED,
    DEADLOCK,
    GameEnded,
    ObjectiveView,
    PlacedTile,
    Reshuffled,
    SheepAndGardenObservation,
    Slot,
    TilePlaced,
    TilesShown,
)
from games.sheep_and_garden.state import SheepAndGardenState

START = (0, 0, 0, 0)
CAP_BELOW = (1, 0, 1, 2)  # the city cap turned twice: its grass meets the city gate's


def build(**changes: object) -> SheepAndGardenState:
    arguments: dict[str, object] = {
        "players": 2,
        "placed": [START, CAP_BELOW],
        "display": [2, 3],
        "deck": [4, 5, 6],
        "to_move": 0,
    }
    arguments.update(changes)
    return SheepAndGardenState.from_position(**arguments)  # type: ignore[arg-type]


def test_a_position_within_bounds_is_built() -> None:
    state = build()
    assert state.board == {(0, 0): (0, 0), (0, 1): (1, 2)}
    assert state.display == (2, 3) and state.deck_size == 3


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 0}, "0 players: Sheep & Garden takes 1 to 4"),
        ({"players": 5}, "5 players"),
        ({"players": True}, "True players"),
        ({"placed": [START, (-1, 1, 0, 0)]}, "tile -1 is no tile"),
        ({"placed": [START, (TILE_COUNT, 1, 0, 0)]}, f"tile {TILE_COUNT} is no tile"),
        ({"display": [2, -3]}, "tile -3 is no tile"),
        ({"deck": [4, TILE_COUNT]}, f"tile {TILE_COUNT} is no tile"),
        ({"deck": [4, 5.0]}, "tile 5.0 is no tile"),
        ({"placed": [START, (1, 0, 0, 1)]}, "cell (0, 0) holds two tiles"),
        ({"placed": [START, (1, 1.5, 0, 0)]}, "cell (1.5, 0) of tile 1"),
        ({"placed": [START, (1, 1, 0, 4)]}, "rotation 4 of tile 1: rotations are 0 to 3"),
        ({"placed": [START, (1, 1, 0, -1)]}, "rotation -1 of tile 1"),
        ({"to_move": 2}, "seat 2 to move is not one of 0 to 1"),
        ({"to_move": -1}, "seat -1 to move"),
        ({"to_move": None}, "no seat to move and no end_reason"),
        ({"to_move": None, "end_reason": ""}, "no seat to move and no end_reason"),
        ({"display": [2, 3, 7, 8]}, "4 tiles shown: at most 3 in a 2-player game"),
        ({"players": 1, "display": [2, 3]}, "2 tiles shown: at most 1 in a 1-player game"),
        # Each shown tile is one choice: shown twice, every placement of it was listed
        # twice in legal_actions(), which the engine contract forbids; a tile twice in
        # the deck, or shown and in the deck, came to be shown twice by a refill.
        ({"display": [2, 2]}, "tile 2 is shown or in the deck twice: each tile is there once"),
        ({"display": [3, 2, 3]}, "tile 3 is shown or in the deck twice"),
        ({"display": [], "deck": [4, 5, 4]}, "tile 4 is shown or in the deck twice"),
        ({"display": [2], "deck": [4, 2]}, "tile 2 is shown or in the deck twice"),
        ({"placed": []}, "no tile placed: a game starts with one in the centre"),
        ({"slots": (Slot("lake", (0,), True),)}, "slot 0: 'lake' is no objective card"),
        (
            {"slots": (Slot("lakes", (0,), True), Slot("roads", (2,), True))},
            "slot 1 (roads): seat 2",
        ),
        ({"slots": (Slot("lakes", (1, 0, 1), False),)}, "slot 0 (lakes): seat 1 holds it twice"),
        ({"slots": (Slot("lakes", [0], True),)}, "slot 0 (lakes): holders [0] is not a tuple"),
        ({"slots": (Slot("lakes", (), True),)}, "slot 0 (lakes) is held by no seat"),
        ({"slots": (Slot("lakes", (), True, enemy=True),)}, "slot 0 (lakes): only solo has"),
        (
            {"players": 1, "display": [2], "slots": (Slot("lakes", (0,), True, enemy=True),)},
            "slot 0 (lakes): the enemy's card is held by no seat",
        ),
        ({"slots": (("lakes", (0,), True),)}, "slot 0: ('lakes', (0,), True) is not a Slot"),
    ],
)
def test_a_position_no_game_holds_is_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        build(**changes)


@pytest.mark.parametrize("reason", [ALL_PLACED, DEADLOCK])
def test_a_finished_position_has_no_seat_to_move(reason: str) -> None:
    state = build(to_move=None, end_reason=reason)
    assert state.terminal and state.to_move is None and state.end_reason == reason


@pytest.mark.parametrize("reason", ["every tile is placed", "No tile fits", " "])
def test_a_finished_position_ends_only_as_a_game_can(reason: str) -> None:
    """Any text was taken as the reason, and shown to the seats as such."""
    with pytest.raises(ValueError, match="^" + re.escape(f"end_reason {reason!r} is no way")):
        build(to_move=None, end_reason=reason)


def test_a_position_both_finished_and_not_is_refused() -> None:
    """An end reason with a seat to move was dropped without a word: the game
    went on from a position said to be over."""
    with pytest.raises(ValueError, match=re.escape(f"ended ({ALL_PLACED!r}) with seat 0")):
        build(to_move=0, end_reason=ALL_PLACED)


@pytest.mark.parametrize(
    ("placed", "message"),
    [
        # The city gate's road (east) would end against the city cap's grass.
        (
            [START, (1, 1, 0, 0)],
            "tile 1 at (1, 0) does not match tile 0 at (0, 0): its W edge ggg meets grg",
        ),
        # The lake cap's lake (north) would run into the meadow's grass.
        (
            [(19, 0, 0, 0), (30, 0, -1, 0)],
            "tile 30 at (0, -1) does not match tile 19 at (0, 0): its S edge ggg meets lll",
        ),
    ],
)
def test_a_landscape_that_breaks_the_matching_rule_is_refused(
    placed: list[tuple[int, int, int, int]], message: str
) -> None:
    """Every game's landscape obeys the matching rule, and scoring joins areas
    and roads through it: a road segment against grass made result() fail with
    an IndexError, and a lake against grass was joined into the meadow's grass,
    its fish with it, and scored so without a word."""
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        build(placed=placed, to_move=None, end_reason=ALL_PLACED)


def test_the_guides_position_example_runs_as_it_says() -> None:
    """docs/games/sheep-and-garden.md shows how to build a position (the README
    says each guide's example is run by its tests): the finished landscape scores
    (6.0, 4.0) as its comment says, and in the game in play seat 1's meadow is
    placed, the pond is shown and seat 0 moves."""
    guide = Path(__file__).parents[2] / "docs" / "games" / "sheep-and-garden.md"
    section = guide.read_text(encoding="utf-8").split("## Building a position (Python)\n", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    finished = code.split("# In play:", 1)[0]
    assert "state.result().scores  # (6.0, 4.0)" in finished
    scope: dict[str, Any] = {}
    exec(finished, scope)
    assert scope["state"].result().scores == (6.0, 4.0)
    exec(code, scope)  # the whole example: the game in play follows the finished one
    state = scope["state"]
    ids = {tile.name: tile.id for tile in TILES}
    meadow, pond = ids["meadow"], ids["pond"]
    assert state.placed[-1] == (meadow, 0, 1, 0)
    assert state.display == (pond,) and state.deck_size == 0 and state.to_move == 0


def test_the_guide_names_the_python_classes_fields_and_queries_a_test_reads() -> None:
    """A tester who writes scenarios from the guide alone checks `apply`'s events, a
    Python observation and the state's queries; the guide once gave only the wire's
    names for them (`placed`, `shown`, ...), so the classes, their fields and the
    observation's lack of `faces` had to be read from model.py. Each class the guide
    names is written there with the fields the engine gives it, in order."""
    guide = Path(__file__).parents[2] / "docs" / "games" / "sheep-and-garden.md"
    text = " ".join(guide.read_text(encoding="utf-8").split())
    for cls in (TilePlaced, TilesShown, Reshuffled, GameEnded, ObjectiveView):
        names = [field.name for field in dataclasses.fields(cls)]
        assert f"`{cls.__name__}({', '.join(names)})`" in text
    assert f"`PlacedTile({', '.join(PlacedTile._fields)})`" in text
    said = text.split("The Python observation", 1)[1].split("carries no", 1)[0]
    fields = [field.name for field in dataclasses.fields(SheepAndGardenObservation)]
    assert [name for name in re.findall(r"`(\w+)`", said) if name in fields] == fields
    assert "faces" not in fields
    reading = text.split("**Reading the state**", 1)[1].split("**Events**", 1)[0]
    queries = re.findall(r"`state\.(\w+)`", reading)
    assert queries == ["placed", "board", "display", "deck_size", "slots", "to_move", "end_reason"]
    state = build()
    assert [hasattr(state, query) for query in queries] == [True] * len(queries)
    assert (state.placed[1], state.board[0, 1], state.deck_size) == (CAP_BELOW, (1, 2), 3)


CARDS = ("lakes", "gardens", "cities", "roads", "hearts", "lands", "cows", "trees")


@pytest.mark.parametrize(
    ("players", "holders", "face_up"),
    [
        (1, [(0,), (0,), (0,), (), (), ()], [True] * 6),
        (2, [(0,), (0,), (0,), (1,), (1,), (1,)], [True, False, False] * 2),
        (3, [(0,), (0, 1), (1,), (1, 2), (2,), (0, 2)], [False] * 6),
        (4, [(0,), (0, 1), (1,), (1, 2), (2,), (2, 3), (3,), (0, 3)], [False] * 8),
    ],
)
def test_slots_left_out_are_dealt_in_the_tables_order(
    players: int, holders: list[tuple[int, ...]], face_up: list[bool]
) -> None:
    """The guide: "Left out, the cards are dealt in the table's order ..., unshuffled",
    and says how, so a scenario can leave them out and still know who holds what: solo
    the first three yours and the next three the enemy's, all face up; two players
    three each, the first of each three face up; three or four players each seat's own
    card, then the one it shares with the next seat."""
    state = SheepAndGardenState.from_position(
        players, [START], [], [], to_move=None, end_reason=ALL_PLACED
    )
    assert [slot.card for slot in state.slots] == list(CARDS[: len(holders)])
    assert [slot.holders for slot in state.slots] == holders
    assert [slot.face_up for slot in state.slots] == face_up
    assert [slot.enemy for slot in state.slots] == [players == 1 and not h for h in holders]


def test_slots_given_as_a_list_work_as_a_tuple() -> None:
    """from_position takes its tiles as any iterable, and the slots as "the objective
    cards": a list of Slots was taken, and every observation then failed with
    "unhashable type: 'list'" (the views of the slots are memoised by value). So did
    a clone whose slots a list replaced."""
    slots = [Slot("lakes", (0,), True), Slot("roads", (1,), False)]
    state = build(slots=slots)
    assert state.slots == tuple(slots)
    assert [view.card for view in state.observation(0).objectives] == ["lakes", None]
    clone = state.clone()
    clone.slots = [Slot("cows", (0,), False), Slot("roads", (1,), True)]
    assert [view.card for view in clone.observation(1).objectives] == [None, "roads"]


@pytest.mark.parametrize("seed", [None, 1.5, "7", True])
def test_a_seed_that_is_no_whole_number_is_refused(seed: object) -> None:
    """The seed drives the shuffles a reshuffle makes. `None` seeded them from the
    system, so the same position built twice showed different tiles after its
    reshuffle (new_state refuses such a seed for the same reason)."""
    with pytest.raises(
        ValueError, match="^" + re.escape(f"seed must be a whole number, not {seed!r}")
    ):
        build(seed=seed)


def test_the_seed_decides_the_tiles_a_reshuffle_shows() -> None:
    """Around the market crossroads only a road edge fits and none of the three shown
    has one: the reshuffle shows the same tiles whenever the position is built with
    the same seed."""
    market, lake_cap, meadow, bay = 9, 19, 30, 25
    deck = [31, 28, 24, 32, 33, 34]

    def shown(seed: int) -> tuple[int, ...]:
        state = SheepAndGardenState.from_position(
            2, [(market, 0, 0, 0)], [lake_cap, meadow, bay], deck, seed=seed
        )
        return state.display

    assert len({shown(5) for _ in range(5)}) == 1
    assert len({shown(seed) for seed in range(20)}) > 1


def test_a_display_showing_fewer_tiles_is_kept_until_the_next_refill() -> None:
    """The guide: a display "showing fewer tiles than it holds is kept as given, and
    the refill after the next turn tops it up: from ["pond"] and a deck of three, a
    turn shows all three" (the rulebook's "replenish tiles so there are 3 tiles on
    the side")."""
    meadow, pond, road, spring, paddock = 30, 24, 28, 27, 32
    state = SheepAndGardenState.from_position(
        2, [(meadow, 0, 0, 0)], [pond], [road, spring, paddock], to_move=0
    )
    assert state.setup_events == () and state.display == (pond,) and state.deck_size == 3
    events = [e.payload for e in state.apply(state.legal_actions()[0])]
    assert [type(e) for e in events] == [TilePlaced, TilesShown]
    assert events[1].tiles == (paddock, spring, road)
    assert state.display == (paddock, spring, road) and state.deck_size == 0


def test_a_seat_to_move_with_no_tile_left_ends_as_built() -> None:
    """The guide: `to_move` is "0 if left out", and "a seat to move with no tile shown
    and none in the deck is a game that ends as it is built, as after a last turn
    ("all tiles placed", a GameEnded in setup_events)"."""
    state = SheepAndGardenState.from_position(2, [START, CAP_BELOW], [], [])
    [ended] = [e.payload for e in state.setup_events]
    assert isinstance(ended, GameEnded) and ended.reason == ALL_PLACED and ended.placed == 2
    assert state.to_move is None and state.end_reason == ALL_PLACED
    assert ended.scores == state.result().scores
