"""StubbornSheepState.from_position: a hand-built position, checked before it is played."""

from __future__ import annotations

from typing import Any

import pytest

from games.stubborn_sheep.state import PH_PLACE, StubbornSheepState

from .helpers import b, empty_areas, r, w

MEADOWS = [[w(0), w(1), w(2), w(3)], [w(4), w(5), w(6), w(7)], [w(8), w(9), w(10), w(11)]]


def _areas() -> list[list[int]]:
    areas = empty_areas(6)
    areas[1], areas[3], areas[5] = (list(m) for m in MEADOWS)
    return areas


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hands": [[0], [1], [2]]}, "fence card 0 is in the position twice"),
        ({"hands": [[30], [30], [31]]}, "fence card 30 is in the position twice"),
        ({"discard": [w(0)]}, f"sheep card {w(0)} is in the position twice"),
        ({"scored": [[[], [], [], [w(4)]], [[]] * 4, [[]] * 4]}, "twice"),
        ({"scored": [[[r(0)], [], [], []], [[]] * 4, [[]] * 4]}, "not in seat 0's blue pile"),
        ({"scored": [[[]] * 4, [[]] * 4]}, "scored: 2 given, this table has 3"),
        ({"sheep_pile": [78]}, "sheep card 78 is no card"),
        ({"fences": [0, 1, 2, 3, 4]}, "fences: 5 given, this table has 6"),
        ({"fence_pile": [35]}, "fence card 35 is no card"),
        ({"orientations": [0, 0, 0, 0, 0, 2]}, "fence 5: orientation 2"),
        ({"wolf": 2}, "the wolf must be in a meadow (1, 3, 5), not area 2"),
        ({"current": 3}, "current seat 3 is not a seat of 3"),
        ({"start": "bump"}, "start 'bump' is none of turn, place, score"),
        ({"hands": [[], [30], [31]]}, "seat 0 has no fence card in hand to play"),
        ({"final_left": 4}, "final_left 4"),
    ],
)
def test_a_position_the_rules_cannot_hold_is_a_value_error(
    changes: dict[str, Any], message: str
) -> None:
    """Each card is named at most once (the first version of this builder silently
    put a fence card both in a hand and on the table, and a test placed two white
    sheep in two meadows at once)."""
    kwargs: dict[str, Any] = {"areas": _areas(), "hands": [[30], [31], [32]], "start": "place"}
    kwargs.update(changes)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        StubbornSheepState.from_position(3, **kwargs)


@pytest.mark.parametrize("players", [0, 6, True, 2.0])
def test_player_count_outside_one_to_five_is_a_value_error(players: Any) -> None:
    with pytest.raises(ValueError, match="this game is for 1 to 5"):
        StubbornSheepState.from_position(players, areas=[])


def test_unnamed_sheep_go_to_the_discard_pile_when_the_sheep_pile_is_given() -> None:
    state = StubbornSheepState.from_position(
        3, areas=_areas(), hands=[[30], [31], [32]], sheep_pile=[b(0)], start="place"
    )
    assert state.phase == PH_PLACE
    assert state.sheep_pile == [b(0)]
    assert len(state.discard) == 78 - 12 - 1
    assert state.fence_pile == [c for c in range(35) if c not in (0, 1, 2, 3, 4, 5, 30, 31, 32)]
    assert state.fence_box == []


def test_unnamed_fences_leave_the_game_when_the_fence_pile_is_given() -> None:
    state = StubbornSheepState.from_position(
        3, areas=_areas(), hands=[[30], [31], [32]], fence_pile=[33], start="place"
    )
    assert state.fence_pile == [33]
    assert sorted(state.fence_box) == [
        c for c in range(35) if c not in (0, 1, 2, 3, 4, 5, 30, 31, 32, 33)
    ]
