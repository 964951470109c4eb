"""Positions built by hand (`SheepShowdownState.from_position`): one that no
game reaches is refused with a clear message instead of a state that breaks
later (an IndexError, a dog off the grid wrapped onto another cell, a missing
dog that corrupts the cell it is taken to stand on)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import Steal
from tests.conftest import ROOT

from .helpers import position

ROWS = ["111", "111", "111"]
DOGS = {0: (0, 0), 1: (2, 2)}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rows": ["111", "1Z1", "111"]}, "'Z' is no card"),
        ({"rows": ["111", "11", "111"]}, "row '11' does not have 3 cells"),
        ({"players": 7}, "7 players: Sheep Showdown takes 2 to 6"),
        ({"players": 3, "double_trouble": True}, "Double Trouble is for 2 players, not 3"),
        ({"dogs": {0: (0, 0)}, "players": 2}, "every dog 0 to 1, got [0]"),
        ({"dogs": {0: (0, 0), 1: (1, 1), 2: (2, 2)}, "players": 2}, "every dog 0 to 1"),
        ({"dogs": {0: (0, 0), 1: (3, 1)}}, "dog 1 at (3, 1) is off the 3x3 grid"),
        ({"dogs": {0: (0, 0), 1: (-1, 1)}}, "dog 1 at (-1, 1) is off the 3x3 grid"),
        ({"dogs": {0: (1, 1), 1: (1, 1)}}, "dogs 0 and 1 are both at (1, 1)"),
        ({"out_dogs": (2,)}, "out dog 2 is not one of dogs 0 to 1"),
        # an out dog never moves again, so a sheep or wolf under it (which a dog
        # entering it takes) or a blocked card (which none enters) stayed there
        # for the rest of the round, a meadow no game shows
        ({"out_dogs": (1,)}, "out dog 1 at (2, 2) lies on a 1-sheep card"),
        (
            {"rows": ["111", "111", "11W"], "out_dogs": (1,)},
            "out dog 1 at (2, 2) lies on a wolf card",
        ),
        (
            {"rows": ["111", "111", "11#"], "out_dogs": (1,)},
            "out dog 1 at (2, 2) lies on a blocked",
        ),
        ({"flocks": {2: [C.SHEEP1]}}, "flock of seat 2: seats are 0 to 1"),
        ({"flocks": {0: [C.SHEPHERD]}}, "flock of seat 0: 5 is not a sheep or wolf"),
        ({"to_move": 2}, "to_move 2 is not one of seats 0 to 1"),
        ({"first_player": -1}, "first_player -1 is not one of seats 0 to 1"),
        ({"round": 2}, "round 2 is not one of 1 to rounds (1)"),
        ({"totals": [0, 0, 0]}, "3 totals for 2 players"),
        ({"rounds": 2}, "a 3x3 grid cannot go on to round 2: later rounds are dealt on 7x7"),
        # the next rounds' deals come from the seed: None drew them from the
        # operating system, a position no one could build twice alike
        ({"seed": None}, "seed must be a whole number, not None"),
        ({"seed": "7"}, "seed must be a whole number, not '7'"),
    ],
)
def test_a_position_no_game_reaches_is_refused(changes: dict[str, Any], message: str) -> None:
    kw: dict[str, Any] = {"rows": ROWS, "dogs": DOGS, **changes}
    with pytest.raises(ValueError, match=re.escape(message)):
        position(kw.pop("rows"), kw.pop("dogs"), **kw)


def test_a_position_with_rounds_left_on_the_dealt_size_plays_on_into_the_next_round() -> None:
    """The check above only refuses sizes the next deal cannot fill: a 7x7
    position of a 2-round game plays into round 2 with the whole 49-card deal."""
    rows = ["S1.1...", ".1.....", *["......."] * 5]
    state = position(rows, {0: (1, 1), 1: (0, 0)}, rounds=2)
    state.apply(state.legal_actions()[0])  # up: blocks dog 1, two last steps left
    while state.observation(0).round == 1:
        state.apply(state.legal_actions()[0])
    assert state.observation(0).decision == "place_dog"
    assert len([card for card in state.observation(0).grid if card != C.EMPTY]) == 49


def test_the_guides_position_example_runs_as_it_says() -> None:
    """docs/games/sheep-showdown.md shows how to build a position; its example
    must run and offer the steal its comment promises."""
    guide = (ROOT / "docs" / "games" / "sheep-showdown.md").read_text(encoding="utf-8")
    section = guide.split("## Building a position (Python)\n", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, Any] = {}
    exec(code, scope)
    assert scope["state"].legal_actions() == (Steal(1, True), Steal(1, False))


def test_a_later_round_position_carries_only_the_totals_of_the_rounds_before() -> None:
    """The guide: `totals` are "of the rounds before; those rounds themselves are
    recorded with zero scores and `out_at_turn` null ... since only their sum is
    given". The final result adds the last round to the totals given."""
    state = position(
        ["S1.1", ".1..", "....", "...."],
        {0: (1, 0), 1: (0, 0)},
        rounds=2,
        round=2,
        totals=[3, 4],
        out_dogs=(0, 1),
        flocks={0: [1]},
    )
    assert state.terminal
    assert state.observation(0).round_scores == ((0, 0), (1, 0))
    players = state.result().details["players"]
    assert [p["total"] for p in players] == [4, 4]
    assert players[0]["rounds"][0] == {
        "round": 1,
        "sheep_points": 0,
        "wolves": 0,
        "round_score": 0,
        "out_at_turn": None,
    }


def test_rows_may_separate_their_cards_with_spaces() -> None:
    """The guide: "one character a cell (spaces between them are allowed)", and
    `#` is a blocked card: it shows as blocked and cannot be entered."""
    plain = position(["S1#", "2..", "..S"], {0: (0, 0), 1: (2, 2)})
    spaced = position(["S 1 #", "2 . .", ". . S"], {0: (0, 0), 1: (2, 2)})
    assert spaced.observation(None) == plain.observation(None)
    assert spaced.card_at(0, 2) == C.BLOCKED and spaced.card_at(1, 0) == C.SHEEP2
    with pytest.raises(ValueError, match=re.escape("row 'S 1' does not have 3 cells")):
        position(["S 1", "2 . .", ". . S"], {0: (0, 0), 1: (2, 2)})
