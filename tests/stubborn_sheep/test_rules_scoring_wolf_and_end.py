"""Rulebook sentences of scoring, the wolf and the game's end an audit found without
a scenario that pins them.

Each test sets up the situation the sentence speaks of and checks its outcome
where a plausible misreading would give another one. Three players (see
`helpers.frame3`): seat 0 owns fences 0 (right) and 1 (left) and pen 0; fence 3
lies between pen 1 (area 2) and meadow 3.
"""

from __future__ import annotations

from games.stubborn_sheep.actions import (
    Bump,
    Continue,
    MoveSheep,
    PickSheep,
    PlaceFence,
    Score,
    StopScoring,
    UseBonus,
)
from games.stubborn_sheep.data import BLUE, EFFECTIVE, LEFT, MEADOW_TO_SIX, RED, UP, WHITE
from games.stubborn_sheep.events import (
    BONUS_MOVE,
    FenceActivated,
    FenceDrawn,
    GameOver,
    SheepMoved,
    WolfMoved,
)
from games.stubborn_sheep.state import PH_BETWEEN, PH_BLUE, PH_BUMP, PH_SCORE, StubbornSheepState

from .helpers import b, empty_areas, find_fence, frame3, payloads, pick, r, w, y

# ----------------------------------------------------------------- scoring


def test_a_newly_scored_sheep_lies_on_top_of_its_pile_and_gives_the_bonus() -> None:
    """Rulebook: "Place each newly scored sheep on top of its pile" and "You may only use
    the bonus action of the card at the top of each colour pile." Solo: the blue pile
    holds b(0) (pen_plus_one); scoring b(1) (meadow_to_six) puts it on top, so at the
    next restock the blue bonus offered is meadow_to_six, not pen_plus_one."""
    areas = empty_areas(4)
    areas[0] = [b(1), b(4), b(7)]
    scored = [[[b(0)], [], [], []]]
    state = StubbornSheepState.from_position(
        1, areas=areas, scored=scored, bonus=True, start="score"
    )
    state.apply(Score(BLUE, (b(1),), (b(4), b(7))))
    assert state.scored[0][BLUE] == [b(0), b(1)]
    assert state.phase == PH_BLUE and state.current == 0
    offered = {a.bonus for a in state.legal_actions() if isinstance(a, UseBonus)}
    assert offered == {MEADOW_TO_SIX}


def test_a_white_move_after_the_last_activation_comes_before_scoring() -> None:
    """Rulebook, step 3: "After all activations (and any additional actions): If your pen
    contains 3 or 4 sheep of the same colour, you may score them." Pen 0 holds two reds
    and no fence shows a red icon; after the last activation the white bonus (w(1),
    `move_red`) brings the red of pen 2 (area 4) over fences 5 and 0 into pen 0, and
    the three reds may then be scored in the same turn."""
    no_red = [c for c in range(35) if all(colour != RED for colour, _ in EFFECTIVE[c][UP])]
    hand, fence0, fence1 = no_red[:3]
    rest = [c for c in range(35) if c not in (hand, fence0, fence1)]
    areas = empty_areas(6)
    areas[0] = [r(0), r(1)]
    areas[4] = [r(2)]
    scored = [[[], [], [], [w(1)]], [[], [], [], []], [[], [], [], []]]
    state = frame3(
        hand,
        areas,
        fences=[fence0, fence1, *rest[:4]],
        hands=[[hand], [rest[4]], [rest[5]]],
        scored=scored,
        bonus=True,
    )
    state.apply(pick(state, PlaceFence, fence=3, orientation=UP))
    for _ in range(3):  # before fences 3, 1 and 0
        assert state.phase == PH_BETWEEN and state.queue
        state.apply(Continue())
    assert state.phase == PH_BETWEEN and state.queue == [] and state.areas[0] == [r(0), r(1)]
    state.apply(MoveSheep(r(2), True, 2))
    assert state.areas[0] == [r(0), r(1), r(2)]
    assert state.phase == PH_SCORE and state.current == 0
    assert {a.colour for a in state.legal_actions() if isinstance(a, Score)} == {RED}


# --------------------------------------------------------------------- wolf


def test_the_wolf_stays_when_every_meadow_is_empty() -> None:
    """Rulebook, wolf: "If the wolf is already in the meadow containing the most sheep, it
    does not move. In that meadow, discard two sheep of the most represented colour."
    Every meadow empty at the end of seat 0's turn: the wolf's own meadow 1 is among
    those with the most (none), so it stays, and there is nothing to discard; seat 1's
    restock then fills the other meadows and leaves the wolf's empty."""
    areas = empty_areas(6)
    areas[0] = [r(0), r(1), r(2)]
    state = frame3(20, areas, start="score", wolf=1)
    events = payloads(state.apply(StopScoring()))
    assert [p for p in events if isinstance(p, WolfMoved)] == [WolfMoved(1, 1, ())]
    assert state.wolf == 1 and state.current == 1
    assert [len(state.areas[m]) for m in (1, 3, 5)] == [0, 4, 4]


def test_the_wolf_discards_the_only_sheep_of_the_most_represented_colour() -> None:
    """Rulebook, wolf: "In that meadow, discard two sheep of the most represented
    colour." When the meadow the wolf goes to holds one sheep, its colour is the most
    represented with one sheep, and the wolf discards that one (it asks no second
    sheep of another colour). At the end of seat 0's turn meadow 3 holds a lone blue
    and meadows 1 and 5 are empty: the wolf moves from 5 to 3 and discards the blue."""
    areas = empty_areas(6)
    areas[0] = [r(0), r(1), r(2)]
    areas[3] = [b(0)]
    state = frame3(20, areas, start="score", wolf=5)
    events = payloads(state.apply(StopScoring()))
    assert [p for p in events if isinstance(p, WolfMoved)] == [WolfMoved(5, 3, (b(0),))]
    assert state.wolf == 3 and b(0) in state.discard


def test_white_stand_ins_leave_with_their_group_and_the_rest_score_as_white() -> None:
    """Rulebook: "you may use up to 2 white sheep as if they were any other colour ...
    you must discard the white sheep" and "You may also score white sheep as a colour
    in their own right"; "You may score several groups during the same round." Two
    reds and five whites: the reds score with one white standing in (discarded), and
    the four whites left then make a group of their own, which scores 2."""
    areas = empty_areas(6)
    areas[0] = [r(0), r(1), w(0), w(1), w(2), w(3), w(4)]
    state = frame3(20, areas, start="score")
    state.apply(Score(RED, (r(0),), (w(2), r(1))))
    assert sorted(state.areas[0]) == [w(0), w(1), w(3), w(4)] and state.phase == PH_SCORE
    ways = [a for a in state.legal_actions() if isinstance(a, Score)]
    assert {(a.colour, len(a.scored)) for a in ways} == {(WHITE, 2)} and len(ways) == 12
    state.apply(Score(WHITE, (w(4), w(0)), (w(1), w(3))))
    assert state.scored[0] == [[], [r(0)], [], [w(4), w(0)]]
    assert state.discard[-4:] == [w(2), r(1), w(1), w(3)] and state.current == 1


# ------------------------------------------------------------ the last turn


def test_the_game_ends_on_a_bump_when_nothing_is_left_to_decide() -> None:
    """Rulebook: "Each player plays one last turn (without drawing a new Fence card),
    then the game ends." Seat 2 plays the game's last turn; its fence makes a red jump
    from pen 0 into meadow 1 beside a lone white, and the bump is the last decision:
    the same call runs the rest of the turn (no draw, nothing to score) and ends the
    game, with every seat's score."""
    card, orientation = find_fence(
        lambda icons: icons[0] == (RED, LEFT) and all(c != RED for c, _ in icons[1:])
    )
    areas = empty_areas(6)
    areas[0], areas[1] = [r(0)], [w(0)]
    others = [c for c in range(35) if c != card]
    state = StubbornSheepState.from_position(
        3,
        areas=areas,
        fences=others[:6],
        hands=[[], [], [card]],
        scored=[[[b(0)], [], [], []], [[], [], [], []], [[], [], [], []]],
        current=2,
        final_left=1,
        turn=5,
        start="place",
    )
    state.apply(PlaceFence(fence=1, orientation=orientation, card=card))
    assert state.phase == PH_BUMP and set(state.legal_actions()) == {
        Bump(w(0), True),
        Bump(w(0), False),
    }
    events = payloads(state.apply(Bump(w(0), True)))
    assert state.terminal and events[-1] == GameOver((1, 0, 0))
    assert not [p for p in events if isinstance(p, FenceDrawn)]
    assert state.result().ranks == (1, 2, 2)


def test_the_game_ends_on_a_white_move_after_the_last_fence_is_activated_twice() -> None:
    """Rulebook, red bonus: "Activate a fence twice in a row"; white bonus: "immediately
    before or after activating a fence". In the game's last turn seat 0 activates its
    last fence (1) a second time, right after the first, then moves a red over two
    fences after that second activation: the white move is the game's last action. Two
    whites wait in pen 0, so that each activation of fence 1 has one to move (a second
    activation that would move nothing is not offered)."""
    areas = empty_areas(6)
    areas[3] = [r(9)]
    areas[0] = [w(10), w(11)]
    scored = [[[], [r(1)], [], [w(1)]], [[]] * 4, [[]] * 4]
    state = frame3(30, areas, scored=scored, bonus=True, final_left=1, turn=6, hands=[[30], [], []])
    events = payloads(state.apply(PlaceFence(fence=0, orientation=UP, card=30)))
    while state.queue or state.activating != 1 or state.phase != PH_BETWEEN:
        step = next(a for a in state.legal_actions() if isinstance(a, (Continue, PickSheep)))
        events += payloads(state.apply(step))
    events += payloads(state.apply(pick(state, UseBonus, fence=1)))
    assert state.phase == PH_BETWEEN and state.queue == [1]
    events += payloads(state.apply(Continue()))
    assert state.phase == PH_BETWEEN and state.queue == []
    assert {a.card for a in state.legal_actions() if isinstance(a, MoveSheep)} == {r(9)}
    events += payloads(state.apply(MoveSheep(r(9), True, 2)))
    assert [p.fence for p in events if isinstance(p, FenceActivated)] == [0, 1, 1]
    assert events[-3:-1] == [
        SheepMoved(BONUS_MOVE, r(9), 3, 4, 4),
        SheepMoved(BONUS_MOVE, r(9), 4, 5, 5),
    ]
    assert state.terminal and events[-1] == GameOver((2, 0, 0))


def test_three_of_five_players_tied_on_sheep_and_sets_share_the_win() -> None:
    """Rulebook: "In case of a tie, the winner is the player with the greatest number of
    complete sets ... If the tie persists, the tied players share the victory." Seats
    0, 2 and 3 have 4 sheep and 1 set each: all three win, ahead of seat 1 (4 sheep, no
    set) and seat 4 (2 sheep)."""
    one_set = [[[b(i)], [r(i)], [y(i)], [w(i)]] for i in range(3)]
    no_set, two = [[b(3), b(4)], [r(3)], [y(3)], []], [[b(5)], [], [], [w(5)]]
    scored = [one_set[0], no_set, one_set[1], one_set[2], two]
    state = StubbornSheepState.from_position(
        5, areas=empty_areas(10), scored=scored, current=4, final_left=1, turn=24, start="score"
    )
    assert state.terminal
    result = state.result()
    assert result.ranks == (1, 4, 1, 1, 5) and result.winners == (0, 2, 3)
