"""StubbornSheepState.from_position: a hand-built position, checked before it is played."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from games.stubborn_sheep import events
from games.stubborn_sheep.data import N_FENCES
from games.stubborn_sheep.observation import StubbornSheepObservation
from games.stubborn_sheep.state import PH_COMPANION, PH_PLACE, PH_SCORE, StubbornSheepState
from tests.conftest import ROOT

from .helpers import b, empty_areas, r, w

MEADOWS = [[w(0), w(1), w(2), w(3)], [w(4), w(5), w(6), w(7)], [w(8), w(9), w(10), w(11)]]


def _areas() -> list[list[int]]:
    areas = empty_areas(6)
    areas[1], areas[3], areas[5] = (list(m) for m in MEADOWS)
    return areas


def _refused(changes: dict[str, Any], message: str) -> None:
    """A three-seat position at 'place', changed by `changes`, is a ValueError
    saying `message`."""
    kwargs: dict[str, Any] = {"areas": _areas(), "hands": [[30], [31], [32]], "start": "place"}
    kwargs.update(changes)
    with pytest.raises(ValueError, match=re.escape(message)):
        StubbornSheepState.from_position(3, **kwargs)


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
        ({"wolf": -2}, "the wolf must be in a meadow (1, 3, 5), not area -2"),
        ({"wolf": True}, "the wolf must be in a meadow (1, 3, 5), not area True"),
        ({"wolf": "1"}, "the wolf must be in a meadow (1, 3, 5), not area '1'"),
        ({"current": 3}, "current seat 3 is not a seat of 3"),
        ({"current": True}, "current seat True is not a seat of 3"),
        ({"orientations": [True, 0, 0, 0, 0, 0]}, "fence 0: orientation True"),
        ({"seed": None}, "seed must be a whole number, not None"),
        ({"seed": 1.5}, "seed must be a whole number, not 1.5"),
        ({"bonus": "no"}, "bonus (the bonus_actions option) must be True or False, not 'no'"),
        ({"bonus": 1}, "bonus (the bonus_actions option) must be True or False, not 1"),
        ({"start": "bump"}, "start 'bump' is none of turn, place, score"),
        ({"hands": [[], [30], [31]]}, "seat 0 has no fence card in hand to play"),
        ({"final_left": 4}, "final_left 4"),
        ({"final_left": True}, "final_left True"),
        ({"fence_pile": []}, "the fence pile is empty before the final round"),
        ({"final_left": 3, "fence_pile": [33, 34]}, "2 fence cards in the pile in the final"),
        (
            {"final_left": 1, "hands": [[30], [], []], "fence_pile": [33]},
            "1 fence card in the pile in the final round",
        ),
        ({"turn": 1}, "turn 1 is not seat 0's: turns count from 0, turn t being seat t mod 3's"),
        ({"current": 2, "hands": [[30], [31], [32]], "turn": 4}, "turn 4 is not seat 2's"),
        ({"turn": -3}, "turn -3 is not seat 0's"),
        ({"turn": 3.0}, "turn 3.0 is not seat 0's"),
    ],
)
def test_a_position_the_rules_cannot_hold_is_a_value_error(
    changes: dict[str, Any], message: str
) -> None:
    """Each card is named at most once (the first version of this builder silently
    put a fence card both in a hand and on the table, and a test placed two white
    sheep in two meadows at once)."""
    _refused(changes, message)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hands": [[30, 33], [31], [32]]}, "seat 0 holds 2 fence cards at 'place' before the"),
        ({"hands": [[30], [31, 33], [32]]}, "seat 1 holds 2 fence cards with seat 0 at 'place'"),
        ({"hands": [[30], [], [32]]}, "seat 1 holds 0 fence cards with seat 0 at 'place'"),
        ({"start": "score"}, "seat 0 holds 1 fence card at 'score' before the final round"),
        ({"start": "turn", "hands": [[30], [31], [32, 33]]}, "seat 2 holds 2 fence cards"),
        ({"final_left": 2}, "seat 2 holds 1 fence card with seat 0 at 'place' with final_left"),
        ({"final_left": 1, "hands": [[30], [31], []]}, "seat 1 holds 1 fence card"),
        ({"current": 1, "final_left": 2, "hands": [[30], [31], []]}, "seat 0 holds 1"),
        ({"start": "score", "final_left": 3, "hands": [[30], [31], [32]]}, "seat 0 holds 1"),
    ],
)
def test_a_hand_no_game_holds_is_a_value_error(changes: dict[str, Any], message: str) -> None:
    """A seat holds one fence card, plays it in its turn and draws the next at the
    turn's end, none in the final round: a second card, a card held at the scoring
    step, a seat with none outside the final round, or a card held by a seat that
    already had its last turn is no game's position (tests once scored with the
    placed card still in hand)."""
    _refused(changes, message)


@pytest.mark.parametrize(
    ("changes", "hands"),
    [
        ({}, [[30], [31], [32]]),
        ({"start": "score"}, [[], [31], [32]]),
        ({"final_left": 3}, [[30], [31], [32]]),
        ({"final_left": 2}, [[30], [31], []]),
        ({"final_left": 1, "start": "score"}, [[], [], []]),
        ({"current": 2, "final_left": 2}, [[30], [], [32]]),
        ({"current": 1, "final_left": 1}, [[], [31], []]),
    ],
)
def test_a_hand_a_game_holds_is_built(changes: dict[str, Any], hands: list[list[int]]) -> None:
    """The hands a game gives at that point build, before and in the final round."""
    areas = _areas()
    areas[0] = [r(0), r(1), r(2)]  # seat 0 has a group to score: the turn waits there
    kwargs: dict[str, Any] = {"areas": areas, "hands": hands, "start": "place", **changes}
    state = StubbornSheepState.from_position(3, **kwargs)
    assert state.phase in (PH_PLACE, PH_SCORE) and state.hands == hands


@pytest.mark.parametrize(
    ("changes", "turn"), [({}, 0), ({"current": 2}, 2), ({"current": 1, "turn": 7}, 7)]
)
def test_a_position_is_at_the_turn_a_game_counts(changes: dict[str, Any], turn: int) -> None:
    """Turns count from 0, turn t being seat t mod N's, as in a dealt game: a
    position began at turn 1 whoever was to play, and its next turn (seat 1's, of
    two) was turn 2, where a game has it at 1."""
    kwargs: dict[str, Any] = {"areas": _areas(), "hands": [[30], [31], [32]], **changes}
    state = StubbornSheepState.from_position(3, start="place", **kwargs)
    assert state.turn == turn and state.observation(0).turn == turn


def test_in_the_final_round_the_fences_not_named_are_out_of_the_game() -> None:
    """Unnamed fences went to the pile, which the final round never draws from:
    the game ended with cards in it that no game leaves there."""
    state = StubbornSheepState.from_position(3, areas=_areas(), final_left=2)
    assert state.fence_pile == []
    named = set(state.hands[0] + state.hands[1] + state.hands[2] + [s[-1] for s in state.stacks])
    assert sorted(state.fence_box) == [c for c in range(N_FENCES) if c not in named]


@pytest.mark.parametrize(
    ("changes", "sizes"),
    [
        ({}, [1, 1, 1]),
        ({"start": "score"}, [0, 1, 1]),
        ({"current": 1, "final_left": 2}, [0, 1, 1]),
        ({"current": 2, "final_left": 1}, [0, 0, 1]),
        ({"final_left": 1, "start": "score"}, [0, 0, 0]),
    ],
)
def test_the_default_hands_are_the_ones_a_game_holds(
    changes: dict[str, Any], sizes: list[int]
) -> None:
    """Left out, `hands` gives one card (fence card n + seat) to each seat that
    holds one at that point, so a position at the scoring step needs no hands."""
    areas = _areas()
    areas[0] = [r(0), r(1), r(2)]
    kwargs: dict[str, Any] = {"areas": areas, "start": "place", **changes}
    state = StubbornSheepState.from_position(3, **kwargs)
    assert state.phase in (PH_PLACE, PH_SCORE)
    assert state.hands == [[6 + seat] * size for seat, size in enumerate(sizes)]


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


def test_a_wolf_of_minus_one_is_no_wolf_as_observations_say() -> None:
    """The observation's `wolf` is -1 in a game without one, so a position copied from
    an observation may pass it: no wolf, as with the default None; a meadow puts it
    there and turns the option on."""
    kwargs: dict[str, Any] = {"areas": _areas(), "hands": [[30], [31], [32]], "start": "place"}
    for wolf in (None, -1):
        state = StubbornSheepState.from_position(3, wolf=wolf, **kwargs)
        assert state.wolf == -1 and not state.wolf_option
        assert state.observation(0).wolf == -1 and not state.observation(0).options_wolf
    state = StubbornSheepState.from_position(3, wolf=3, **kwargs)
    assert state.wolf == 3 and state.wolf_option


def test_the_guides_position_example_runs_as_it_says() -> None:
    """The README promises that each guide's 'Building a position' example is run by
    its tests: outside testers copy it, so it must build and play as its asserts
    say (a yellow taking a red along, then a companion decision)."""
    guide = (ROOT / "docs" / "games" / "stubborn-sheep.md").read_text(encoding="utf-8")
    found = re.search(r"\n## Python: building a position\n.*?```python\n(.*?)```", guide, re.S)
    assert found, "the guide's 'Python: building a position' section has an example"
    names: dict[str, Any] = {}
    exec(compile(found.group(1), "stubborn-sheep.md", "exec"), names)
    assert names["state"].phase == PH_COMPANION


def _python_section() -> str:
    guide = (ROOT / "docs" / "games" / "stubborn-sheep.md").read_text(encoding="utf-8")
    return guide.split("\n## Python: building a position\n", 1)[1].split("\n## ", 1)[0]


def test_the_guide_gives_every_event_payload_with_its_fields_in_order() -> None:
    """An outside tester checks events from the guide alone: each payload class of
    `games.stubborn_sheep.events` is written there as `Name(field, ...)`, its fields
    in order (the guide once gave two and ended with `WolfMoved`, …, so a wolf
    scenario needed the source to know `WolfMoved(from_area, to_area, discarded)`)."""
    section = _python_section()
    missing = []
    for name in dir(events):
        kind = getattr(events, name)
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            fields = ", ".join(f.name for f in dataclasses.fields(kind))
            if f"`{name}({fields}" not in section.replace("\n  ", " "):
                missing.append(f"{name}({fields})")
    assert missing == []


def test_the_guide_names_every_field_of_the_python_observation() -> None:
    """`observation(seat)` in Python is not the wire message (`wolf`, not `wolf_area`;
    `hand_sizes` and `scored`, not `seats`): the guide names each of its fields."""
    section = _python_section()
    names = [f.name for f in dataclasses.fields(StubbornSheepObservation)]
    assert [name for name in names if f"`{name}`" not in section] == []
