"""Scoring with jokers, drawing, the final round, solo, and the result."""

from __future__ import annotations

import pytest

from games.stubborn_sheep import GAME
from games.stubborn_sheep.actions import PlaceFence, Score, StopScoring
from games.stubborn_sheep.data import BLUE, LEFT, RED, RIGHT, UP, WHITE
from games.stubborn_sheep.events import FenceDrawn, FinalRound, GameOver, SheepScored, TurnStarted
from games.stubborn_sheep.state import PH_SCORE, StubbornSheepState, solo_rating

from .helpers import b, empty_areas, find_fence, frame3, payloads, pick, r, w, y


def _scoring(pen: list[int]) -> StubbornSheepState:
    areas = empty_areas(6)
    areas[0] = pen
    return frame3(20, areas, start="score")


WHITES = {w(i) for i in range(24)}


def _score(colour: int, scored: tuple[int, ...], discarded: tuple[int, ...]) -> Score:
    """A Score action naming the scored cards (last on top) and the discarded ones."""
    return Score(colour, scored, tuple(sorted(discarded, key=lambda c: (c not in WHITES, c))))


def _scores(state: StubbornSheepState) -> set[tuple[int, int, int, tuple[int, ...]]]:
    return {
        (a.colour, a.size, a.jokers, a.scored)
        for a in state.legal_actions()
        if isinstance(a, Score)
    }


def test_three_of_a_colour_score_one_and_discard_two() -> None:
    """Rulebook 3a: "If you have 3, score 1 sheep and discard the other 2"; you choose
    which sheep are scored."""
    state = _scoring([r(0), r(1), r(2)])
    assert state.phase == PH_SCORE and state.legal_actions()[0] == StopScoring()
    assert _scores(state) == {(RED, 3, 0, (card,)) for card in (r(0), r(1), r(2))}
    events = payloads(state.apply(_score(RED, (r(1),), (r(0), r(2)))))
    assert events[0] == SheepScored(0, RED, (r(1),), (r(0), r(2)))
    assert state.scored[0][RED] == [r(1)]
    assert state.areas[0] == []
    assert state.discard[-2:] == [r(0), r(2)]


def test_four_of_a_colour_score_two_and_the_player_picks_the_top() -> None:
    """Rulebook 3b: "If you have 4, score 2 sheep and discard the other 2 ... If you score
    two at the same time, you choose which of the two is placed on top"."""
    state = _scoring([b(0), b(1), b(2), b(3)])
    options = _scores(state)
    assert (BLUE, 4, 0, (b(2), b(0))) in options and (BLUE, 4, 0, (b(0), b(2))) in options
    assert len([o for o in options if o[1] == 4]) == 12
    state.apply(_score(BLUE, (b(2), b(0)), (b(1), b(3))))
    assert state.scored[0][BLUE] == [b(2), b(0)]  # b(0) on top


def test_three_or_four_of_a_colour_are_scored_all_together() -> None:
    """Rulebook: "If your pen contains 3 or 4 sheep of the same colour, you may score
    them. a. If you have 3, score 1 sheep and discard the other 2. b. If you have 4,
    score 2 sheep and discard the other 2." With 4 red the group is all 4: not 3 of
    them, and no white standing in for one of them; with 3 red and a white, 3 red or
    3 red and the white, never 2 red and the white. Only with 5 or more does the
    player pick which ones (project note)."""
    four = _scores(_scoring([r(0), r(1), r(2), r(3), w(0)]))
    red = {(o[1], o[2]) for o in four if o[0] == RED}
    assert red == {(4, 0)}
    three = _scores(_scoring([r(0), r(1), r(2), w(0)]))
    assert {(o[1], o[2]) for o in three if o[0] == RED} == {(3, 0), (4, 1)}
    five = _scores(_scoring([r(0), r(1), r(2), r(3), r(4)]))
    assert {o[1] for o in five} == {3, 4}
    # a group of 3 chosen from 5: any one of them scored, two of the other four thrown
    assert len([o for o in five if o[1] == 3]) == 5


def test_one_white_joker_with_two_of_the_colour() -> None:
    """Rulebook: "you may use up to 2 white sheep as if they were any other colour. If you do
    this, you must discard the white sheep before discarding sheep of the chosen colour"."""
    state = _scoring([r(0), w(0), r(1)])
    assert (RED, 3, 1, (r(0),)) in _scores(state)
    events = payloads(state.apply(_score(RED, (r(0),), (w(0), r(1)))))
    assert events[0] == SheepScored(0, RED, (r(0),), (w(0), r(1)))


def test_two_white_jokers_with_one_of_the_colour() -> None:
    state = _scoring([w(0), y(0), w(1)])
    assert _scores(state) == {(2, 3, 2, (y(0),))}
    events = payloads(state.apply(_score(2, (y(0),), (w(0), w(1)))))
    assert events[0] == SheepScored(0, 2, (y(0),), (w(0), w(1)))


def test_two_jokers_and_two_of_the_colour_score_two() -> None:
    state = _scoring([r(0), r(1), w(0), w(1)])
    assert (RED, 4, 2, (r(0), r(1))) in _scores(state)
    events = payloads(state.apply(_score(RED, (r(1), r(0)), (w(0), w(1)))))
    assert events[0] == SheepScored(0, RED, (r(1), r(0)), (w(0), w(1)))


def test_two_of_a_colour_and_two_whites_keep_both_of_the_colour_in_the_group() -> None:
    """The guide: with 4 or fewer of a colour the group takes all of them, so 2 blues
    and 2 whites score both blues and a white (1 blue scored, the white and the other
    blue discarded) or all four (both blues scored), never one blue and two whites
    (one blue scored, both whites discarded, the other blue kept)."""
    state = _scoring([b(0), b(1), w(0), w(1)])
    offered = {(a.scored, a.discarded) for a in state.legal_actions() if isinstance(a, Score)}
    assert offered == {
        ((b(0),), (w(0), b(1))),
        ((b(0),), (w(1), b(1))),
        ((b(1),), (w(0), b(0))),
        ((b(1),), (w(1), b(0))),
        ((b(0), b(1)), (w(0), w(1))),
        ((b(1), b(0)), (w(0), w(1))),
    }


def test_three_jokers_are_forbidden() -> None:
    """Notes: up to 2 whites may stand in: 1 red and 3 whites make no group of 4 red."""
    state = _scoring([r(0), w(0), w(1), w(2)])
    options = _scores(state)
    assert not any(o[0] == RED and o[1] == 4 for o in options)
    assert all(o[2] <= 2 for o in options)
    assert (RED, 3, 2, (r(0),)) in options


def test_jokers_need_a_sheep_of_the_colour() -> None:
    """Notes: "as long as at least one sheep of that colour is used"."""
    state = _scoring([w(0), w(1), b(0)])
    assert {o[0] for o in _scores(state)} == {BLUE}
    assert not _scores(_scoring([w(0), w(1)]))


def test_whites_score_as_their_own_colour_without_jokers() -> None:
    """Rulebook: "You may also score white sheep as a colour in their own right, if you
    have 3 or 4 of them"."""
    state = _scoring([w(0), w(1), w(2)])
    assert {(o[0], o[1], o[2]) for o in _scores(state)} == {(WHITE, 3, 0)}
    events = payloads(state.apply(_score(WHITE, (w(2),), (w(0), w(1)))))
    assert events[0] == SheepScored(0, WHITE, (w(2),), (w(0), w(1)))
    assert state.areas[0] == []
    state = _scoring([w(0), w(1), w(2), w(3)])
    assert {(o[0], o[1], o[2]) for o in _scores(state)} == {(WHITE, 4, 0)}


@pytest.mark.parametrize("fence0_takes_a_blue_out", [False, True])
def test_scoring_comes_after_all_activations(fence0_takes_a_blue_out: bool) -> None:
    """Rulebook: "3. Optional: Score Sheep. After all activations (and any additional
    actions): If your pen contains 3 or 4 sheep of the same colour, you may score them."
    Seat 0 places on its left fence 1, whose blue icons bring the blue of meadow 1 into
    pen 0: three blues. Its right fence 0 activates next; when it sends one blue out
    of the pen, no group is left and there is nothing to score, although the pen held
    three blues between the two activations."""

    def blues(icons, side: int) -> list[int]:
        return [s for colour, s in icons if colour == BLUE and s == side]

    placed, placed_orientation = find_fence(lambda i: blues(i, RIGHT) and not blues(i, LEFT))
    if fence0_takes_a_blue_out:
        fence0, fence0_orientation = find_fence(
            lambda i: len(blues(i, RIGHT)) == 1 and not blues(i, LEFT), exclude=[placed]
        )
    else:
        fence0, fence0_orientation = find_fence(
            lambda i: not blues(i, RIGHT) and not blues(i, LEFT), exclude=[placed]
        )
    others = [c for c in range(35) if c not in (placed, fence0)]
    areas = empty_areas(6)
    areas[0] = [b(0), b(1)]
    areas[1] = [b(2)]
    state = frame3(
        placed,
        areas,
        fences=[fence0, *others[:5]],
        orientations=[fence0_orientation, UP, UP, UP, UP, UP],
        hands=[[placed], [others[5]], [others[6]]],
    )
    state.apply(pick(state, PlaceFence, fence=1, orientation=placed_orientation))
    phases = []
    while state.current == 0 and state.phase != PH_SCORE:
        phases.append(state.phase)
        state.apply(state.legal_actions()[0])  # fence 0's blue: the first of the pen's three
    if fence0_takes_a_blue_out:
        assert state.current == 1 and state.scored[0] == [[], [], [], []]
        assert sorted(state.areas[0]) == [b(1), b(2)] and b(0) in state.areas[5]
    else:
        assert not phases and state.current == 0 and state.phase == PH_SCORE
        assert sorted(state.areas[0]) == [b(0), b(1), b(2)]
        assert {a.colour for a in state.legal_actions() if isinstance(a, Score)} == {BLUE}


def test_two_sheep_of_a_colour_cannot_score() -> None:
    state = _scoring([r(0), r(1), b(0)])
    assert state.phase != PH_SCORE  # no option: the step is skipped
    assert state.current == 1


def test_scoring_is_optional_and_repeatable() -> None:
    """Rulebook: "You may score several groups during the same round. Scoring sheep is
    optional"."""
    state = _scoring([r(0), r(1), r(2), b(0), b(1), b(2)])
    state.apply(_score(RED, (r(0),), (r(1), r(2))))
    assert state.phase == PH_SCORE and state.current == 0
    state.apply(_score(BLUE, (b(2),), (b(0), b(1))))
    assert state.scored[0][RED] == [r(0)] and state.scored[0][BLUE] == [b(2)]
    assert state.current == 1
    state = _scoring([r(0), r(1), r(2)])
    state.apply(StopScoring())
    assert state.areas[0] == [r(0), r(1), r(2)] and state.current == 1


def test_draw_a_fence_at_the_end_of_the_turn_privately() -> None:
    """Rulebook 4: "Draw a new Fence card and add it to your hand." Only the drawer sees it."""
    state = frame3(20, empty_areas(6))
    top = state.fence_pile[-1]
    events = state.apply(pick(state, PlaceFence, fence=3, orientation=0))
    (drawn,) = [e for e in events if isinstance(e.payload, FenceDrawn)]
    assert drawn.payload == FenceDrawn(0, top) and drawn.seat == 0
    assert drawn.redacted == FenceDrawn(0, -1)
    assert state.hands[0] == [top]


def _play_first_actions(state: StubbornSheepState) -> list:
    events = []
    while not state.terminal:
        events.extend(payloads(state.apply(state.legal_actions()[0])))
    return events


def test_final_round_after_the_last_fence_is_drawn() -> None:
    """Rulebook: "When the Fence draw pile is exhausted, begin the final round of the game.
    Each player plays one last turn (without drawing a new Fence card)". Notes: the final
    round begins with the next player and the drawer plays once more too."""
    state = frame3(20, empty_areas(6), fence_pile=[30])
    events = _play_first_actions(state)
    assert events.index(FinalRound(0)) < events.index(TurnStarted(1, 1, True))
    turns = [p for p in events if isinstance(p, TurnStarted)]
    assert [(t.seat, t.final) for t in turns] == [(1, True), (2, True), (0, True)]
    assert [p.card for p in events if isinstance(p, FenceDrawn)] == [30]
    assert state.hands == [[], [], []]
    assert isinstance(events[-1], GameOver)


def test_solo_lasts_ten_turns() -> None:
    """Rulebook solo: "You have 10 rounds to score as many sheep as possible"."""
    state = GAME.new_state(1, 8)
    events = _play_first_actions(state)
    assert len([p for p in events if isinstance(p, TurnStarted)]) == 10


def _finished(scored: list[list[list[int]]], players: int = 3, wolf: int | None = None):
    areas = empty_areas(6 if players == 3 else 4)
    state = StubbornSheepState.from_position(
        players,
        areas=areas,
        scored=scored,
        start="score",
        final_left=1,
        hands=[[] for _ in range(players)],
        wolf=wolf,
    )
    assert state.terminal
    return state.result()


def test_most_sheep_wins_and_ties_break_on_complete_sets() -> None:
    """Rulebook: "The player who has scored the most sheep wins the game. In case of a tie,
    the winner is the player with the greatest number of complete sets of 4 different
    colours ... If the tie persists, the tied players share the victory"."""
    set_of_5 = [[b(0), b(1)], [r(0)], [y(0)], [w(0)]]  # 5 sheep, 1 set
    no_set_5 = [[b(2), b(3), b(4)], [r(1), r(2)], [], []]  # 5 sheep, 0 sets
    other_set_5 = [[b(5)], [r(3), r(4)], [y(1)], [w(1)]]  # 5 sheep, 1 set
    result = _finished([set_of_5, no_set_5, other_set_5])
    assert result.scores == (5.0, 5.0, 5.0)
    assert result.ranks == (1, 3, 1)  # competition ranking: shared first place
    players = result.details["players"]
    assert players[0] == {
        "seat": 0,
        "points": 5,
        "scored": {"blue": 2, "red": 1, "yellow": 1, "white": 1},
        "sets": 1,
    }
    assert players[1]["sets"] == 0
    more = [[b(6), b(7), b(8), b(9), b(10), b(11)], [], [], []]
    assert _finished([set_of_5, more, other_set_5]).ranks == (2, 1, 2)


def test_two_complete_sets_beat_one_on_a_tie() -> None:
    """Rulebook: "the winner is the player with the greatest number of complete sets of 4
    different colours": sets are counted, not only had. 8 sheep as two of each colour
    are 2 sets and beat 8 sheep with one set (5 blues, a red, a yellow, a white); a
    reading of "has a set or not" would call them tied."""
    two_sets_8 = [[b(0), b(1)], [r(0), r(1)], [y(0), y(1)], [w(0), w(1)]]
    one_set_8 = [[b(2), b(3), b(4), b(5), b(6)], [r(2)], [y(2)], [w(2)]]
    result = _finished([one_set_8, two_sets_8, [[b(7)], [], [], []]])
    assert result.scores == (8.0, 8.0, 1.0)
    assert [p["sets"] for p in result.details["players"]] == [1, 2, 0]
    assert result.ranks == (2, 1, 3)


def test_a_complete_set_needs_a_white_sheep_too() -> None:
    """Rulebook: ties break on "complete sets of 4 different colours among their scored
    sheep": the game has four colours, white among them, so blue, red and yellow
    without a white make no set, however many of each."""
    no_white_6 = [[b(0), b(1)], [r(0), r(1)], [y(0), y(1)], []]  # 6 sheep, 0 sets
    one_set_6 = [[b(2), b(3), b(4)], [r(2)], [y(2)], [w(0)]]  # 6 sheep, 1 set
    result = _finished([no_white_6, one_set_6, [[b(5)], [], [], []]])
    assert result.scores == (6.0, 6.0, 1.0)
    assert [p["sets"] for p in result.details["players"]] == [0, 1, 0]
    assert result.ranks == (2, 1, 3)


@pytest.mark.parametrize(
    ("points", "rating"),
    [
        (0, "Woolly disaster"),
        (5, "Woolly disaster"),
        (6, "Not great, baa…"),
        (8, "Not great, baa…"),
        (9, "Occasional grazer"),
        (11, "Occasional grazer"),
        (12, "Hoof honour"),
        (14, "Hoof honour"),
        (15, "Wool collector!"),
        (40, "Wool collector!"),
    ],
)
def test_solo_rating_table(points: int, rating: str) -> None:
    """Rulebook solo scoring table: 5 or fewer, 6-8, 9-11, 12-14, 15 or more, each title
    spelt as printed ("Not great, baa…" ends with one ellipsis character)."""
    assert solo_rating(points) == rating


def test_solo_result_carries_the_rating_and_the_wolf_adds_three() -> None:
    """Rulebook: "In Solo Mode, if you play with the wolf, add 3 to your total of sheep
    before consulting the scoring table"."""
    six = [[[b(0), b(1)], [r(0), r(1)], [y(0)], [w(0)]]]
    plain = _finished(six, players=1)
    assert plain.scores == (6.0,) and plain.ranks == (1,)
    assert plain.details["players"][0]["rating"] == "Not great, baa…"
    wolf = _finished(six, players=1, wolf=1)
    assert wolf.scores == (6.0,)
    assert wolf.details["players"][0]["rating_points"] == 9
    assert wolf.details["players"][0]["rating"] == "Occasional grazer"


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError):
        GAME.new_state(2, 1).result()
