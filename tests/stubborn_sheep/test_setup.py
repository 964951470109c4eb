"""Setup: the circle, fence removal, hands, sheep placement, turning fences, options."""

from __future__ import annotations

import pytest

from games.errors import InvalidOptions
from games.stubborn_sheep import GAME
from games.stubborn_sheep.actions import PlaceFence, TurnFence
from games.stubborn_sheep.data import DOWN, UP
from games.stubborn_sheep.events import FenceOriented, TurnStarted
from games.stubborn_sheep.state import layout

from .helpers import payloads


def _orient_all(state, turn: bool = False) -> list:
    events = []
    while isinstance(state.legal_actions()[0], TurnFence):
        events.extend(state.apply(state.legal_actions()[1 if turn else 0]))
    return events


@pytest.mark.parametrize("players", [3, 4, 5])
def test_circle_for_three_to_five(players: int) -> None:
    """Notes: with P >= 3, clockwise: R(s), pen(s), L(s), meadow(s, s+1)."""
    n, fence_owner, area_owner, pens = layout(players)
    assert n == 2 * players
    for seat in range(players):
        pen = pens[seat]
        assert area_owner[pen] == seat
        assert fence_owner[pen] == seat and fence_owner[(pen + 1) % n] == seat
        assert area_owner[(pen + 1) % n] == -1  # the meadow towards seat+1
        assert pens[(seat + 1) % players] == (pen + 2) % n


def test_two_players_have_two_meadows_on_each_side() -> None:
    """Rulebook: 2 players, "place one [fence] in the middle of each meadow. This creates
    2 meadows between the players on each side"."""
    n, fence_owner, area_owner, pens = layout(2)
    assert n == 6
    assert pens == (0, 3)
    assert [a for a in range(n) if area_owner[a] < 0] == [1, 2, 4, 5]
    assert fence_owner == (0, 0, -1, 1, 1, -1)
    state = GAME.new_state(2, 3)
    assert all(len(stack) == 1 for stack in state.stacks)
    assert [len(state.areas[a]) for a in range(6)] == [1, 4, 4, 1, 4, 4]


def test_solo_circle_has_four_fences_a_pen_and_three_meadows() -> None:
    """Rulebook solo: "Draw 4 fences instead of 2. Place them in a circle to create a pen
    (in front of you) and 3 meadows"."""
    n, _fence_owner, area_owner, pens = layout(1)
    assert n == 4 and pens == (0,) and area_owner == (0, -1, -1, -1)
    state = GAME.new_state(1, 5)
    assert [len(a) for a in state.areas] == [1, 4, 4, 4]


@pytest.mark.parametrize(
    ("players", "removed", "pile"),
    [(1, 21, 9), (2, 13, 14), (3, 8, 18), (4, 3, 20), (5, 0, 20)],
)
def test_fence_removal_and_hands(players: int, removed: int, pile: int) -> None:
    """Rulebook: remove 13 / 8 / 3 / 0 fences for 2 / 3 / 4 / 5 players; deal 1 fence to
    each hand. Solo: take 10 of the rest as the draw pile, return all the others."""
    state = GAME.new_state(players, 11)
    assert len(state.fence_box) == removed
    assert len(state.fence_pile) == pile
    assert all(len(hand) == 1 for hand in state.hands)
    on_table = sum(len(stack) for stack in state.stacks)
    assert on_table + removed + pile + players == 35


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_sheep_one_per_pen_four_per_meadow(players: int) -> None:
    """Rulebook setup 5: "1 face-up sheep in each pen, 4 face-up sheep in each meadow"."""
    state = GAME.new_state(players, 2)
    for a, area in enumerate(state.areas):
        assert len(area) == (1 if state.area_owner[a] >= 0 else 4)
    assert len(state.sheep_pile) + sum(len(a) for a in state.areas) == 78


def test_each_player_may_turn_each_own_fence_in_seat_order() -> None:
    """Rulebook: "each player may change the orientation of their fences"; notes: in seat
    order, one decision per fence."""
    state = GAME.new_state(3, 4)
    asked = []
    while isinstance(state.legal_actions()[0], TurnFence):
        assert state.prompt() == "keep or turn your fence"
        fence = state.legal_actions()[0].fence
        asked.append((state.to_move, fence))
        turn = fence % 2 == 0
        event = payloads(state.apply(TurnFence(fence, turn)))[0]
        assert event == FenceOriented(state.fence_owner[fence], fence, DOWN if turn else UP, turn)
    assert asked == [(0, 0), (0, 1), (1, 2), (1, 3), (2, 4), (2, 5)]
    assert state.orient == [DOWN, UP, DOWN, UP, DOWN, UP]
    assert state.to_move == 0
    assert all(isinstance(a, PlaceFence) for a in state.legal_actions())


def test_the_solo_player_may_turn_all_four_fences_they_lay_out() -> None:
    """Rulebook, solo mode: "Draw 4 fences instead of 2. Place them in a circle";
    setup: "each player may change the orientation of their fences". The solo
    player's fences are all four, not only the two beside the pen."""
    state = GAME.new_state(1, 4)
    asked = []
    while isinstance(state.legal_actions()[0], TurnFence):
        fence = state.legal_actions()[0].fence
        asked.append((state.to_move, fence))
        event = payloads(state.apply(TurnFence(fence, fence >= 2)))[0]
        assert event == FenceOriented(0, fence, DOWN if fence >= 2 else UP, fence >= 2)
    assert asked == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert state.orient == [UP, UP, DOWN, DOWN]
    assert all(isinstance(a, PlaceFence) for a in state.legal_actions())


def test_two_player_extra_fences_are_not_turned() -> None:
    state = GAME.new_state(2, 4)
    events = _orient_all(state, turn=True)
    assert [e.fence for e in of(events)] == [0, 1, 3, 4]
    assert state.orient == [DOWN, DOWN, UP, DOWN, DOWN, UP]


def of(events):
    return [e.payload for e in events if isinstance(e.payload, FenceOriented)]


def test_wolf_starts_in_the_meadow_to_the_right_of_the_first_player() -> None:
    """Rulebook: "Place the wolf in the meadow to the right of the first player." A
    seated player's right is counter-clockwise: the meadow between seat 0's pen and the
    previous seat (solo: the meadow counter-clockwise of the pen), area n-1."""
    for players in (1, 2, 3, 5):
        state = GAME.new_state(players, 1, {"wolf": True})
        last = state.n - 1
        assert state.wolf == last and state.area_owner[last] == -1
        # the meadow borders seat 0's right fence (fence 0), not its left one
        assert state.fence_owner[0] == 0 and state.area_owner[0] == 0
    assert GAME.new_state(3, 1).wolf == -1


def test_options_default_false_and_are_validated() -> None:
    state = GAME.new_state(2, 1)
    assert not state.wolf_option and not state.bonus_option
    state = GAME.new_state(2, 1, {"wolf": "true", "bonus_actions": "1"})
    assert state.wolf_option and state.bonus_option
    with pytest.raises(InvalidOptions, match="wolf"):
        GAME.new_state(2, 1, {"wolf": "maybe"})
    with pytest.raises(InvalidOptions, match="bonus_actions"):
        GAME.new_state(2, 1, {"bonus_actions": 3})
    with pytest.raises(InvalidOptions, match="unknown option"):
        GAME.new_state(2, 1, {"rounds": 3})
    with pytest.raises(InvalidOptions):
        GAME.new_state(6, 1)
    with pytest.raises(InvalidOptions):
        GAME.new_state(0, 1)
    assert [spec.name for spec in GAME.option_specs] == ["wolf", "bonus_actions"]
    assert all(spec.kind == "bool" and spec.default is False for spec in GAME.option_specs)


@pytest.mark.parametrize("players", [0, 6])
def test_one_to_five_players(players: int) -> None:
    """Rulebook: "Setup is designed for 2 to 5 players. See the Solo Mode section for
    changes to a solo game": 1 to 5 seats, no more, no fewer."""
    with pytest.raises(InvalidOptions, match="1 to 5 players"):
        GAME.new_state(players, 1, {})
    for allowed in (1, 5):
        assert GAME.new_state(allowed, 1, {}).players == allowed


@pytest.mark.parametrize(
    ("players", "options", "turns_each"),
    [
        (1, {}, 10),
        (2, {}, 8),
        (3, {"wolf": True}, 7),
        (4, {"bonus_actions": True}, 6),
        (5, {"wolf": True, "bonus_actions": True}, 5),
    ],
)
def test_a_whole_game_gives_every_player_the_same_number_of_turns(
    players: int, options: dict, turns_each: int
) -> None:
    """Setup and end together: 35 fences, 2 per player (and 2 in the meadows with 2
    players) laid out, 13 / 8 / 3 / 0 removed, 1 dealt to each hand; then a turn per
    fence drawn, and "Each player plays one last turn (without drawing a new Fence
    card)" once the pile is exhausted. Solo: a pile of 10, hand included, "You have
    10 rounds". Seat 0 starts and play passes clockwise."""
    state = GAME.new_state(players, 3, options)
    seats = []
    while not state.terminal:
        for event in state.apply(state.legal_actions()[-1]):
            if isinstance(event.payload, TurnStarted):
                seats.append(event.payload.seat)
    assert seats == [turn % players for turn in range(players * turns_each)]
    assert state.hands == [[] for _ in range(players)] and not state.fence_pile
