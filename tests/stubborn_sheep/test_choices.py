"""The player's choices the rulebook gives and the engine used to take itself:
which sheep are scored and which discarded, and blue restock bonuses offered
only when they would add a sheep."""

from __future__ import annotations

import random

from games.stubborn_sheep.actions import Decline, Score, UseBonus
from games.stubborn_sheep.data import (
    ALL_MEADOWS_TO_FIVE,
    MEADOW_TO_SIX,
    N_SHEEP,
    PEN_PLUS_ONE,
    RED,
    SHEEP_COLOUR,
)
from games.stubborn_sheep.events import SheepScored
from games.stubborn_sheep.state import PH_BLUE, PH_PLACE, PH_SCORE, StubbornSheepState

from .helpers import b, empty_areas, frame3, payloads, r, w


def _scoring(pen: list[int]) -> StubbornSheepState:
    areas = empty_areas(6)
    areas[0] = pen
    return frame3(20, areas, start="score", bonus=True)


def _groups(state: StubbornSheepState) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    return {(a.scored, a.discarded) for a in state.legal_actions() if isinstance(a, Score)}


def test_with_five_of_a_colour_the_player_picks_every_card_of_the_group() -> None:
    """Rulebook: "You choose which sheep are scored and which are discarded." With
    five reds in the pen, any two may be discarded (not only the oldest), any of the
    others scored, and the fifth stays in the pen."""
    pen = [r(0), r(1), r(2), r(3), r(4)]
    state = _scoring(pen)
    groups = _groups(state)
    # a group of 3: 5 scored cards x 6 discarded pairs of the other 4
    assert len([g for g in groups if len(g[0]) == 1]) == 5 * 6
    # a group of 4: 20 ordered scored pairs x 3 discarded pairs of the other 3
    assert len([g for g in groups if len(g[0]) == 2]) == 20 * 3
    assert ((r(0),), (r(3), r(4))) in groups  # the newest two discarded
    events = payloads(state.apply(Score(RED, (r(0),), (r(3), r(4)))))
    assert events[0] == SheepScored(0, RED, (r(0),), (r(3), r(4)))
    assert state.areas[0] == [r(1), r(2)]
    assert state.discard[-2:] == [r(3), r(4)]


def test_the_player_picks_which_whites_stand_in() -> None:
    """Rulebook: "When you score, you may use up to 2 white sheep as if they were any
    other colour. If you do this, you must discard the white sheep before discarding
    sheep of the chosen colour." Each white prints its own bonus: which one goes is
    the player's choice, and it is discarded first."""
    state = _scoring([r(0), r(1), w(0), w(1), w(2)])
    groups = _groups(state)
    one_white = {g for g in groups if len(g[0]) == 1 and sum(c >= w(0) for c in g[1]) == 1}
    assert {g[1][0] for g in one_white} == {w(0), w(1), w(2)}
    assert ((r(1),), (w(2), r(0))) in groups
    state.apply(Score(RED, (r(1),), (w(2), r(0))))
    assert state.discard[-2:] == [w(2), r(0)]
    assert sorted(state.areas[0]) == [w(0), w(1)]
    assert state.current == 1  # two whites alone score nothing: the turn is over


def test_score_labels_name_every_card() -> None:
    """A person reading the options sees what is kept, what lies on top and what goes."""
    state = _scoring([b(0), b(1), b(2), b(3)])
    labels = {a.label for a in state.legal_actions()}
    assert f"score 4 blue: keep {b(2)}, {b(0)} on top, discard {b(1)}, {b(3)}" in labels
    state = _scoring([b(0), b(1), b(3)])
    labels = {a.label for a in state.legal_actions()}
    assert f"score 3 blue: keep {b(1)}, discard {b(0)}, {b(3)}" in labels


# ------------------------------------------------------------- blue bonus only when useful


def _restock(scored_top: int, areas: list[list[int]], **kwargs) -> StubbornSheepState:
    piles: list[list[int]] = [[], [], [], []]
    piles[SHEEP_COLOUR[scored_top]].append(scored_top)
    scored = [piles, [[], [], [], []], [[], [], [], []]]
    return StubbornSheepState.from_position(
        3, areas=areas, scored=scored, bonus=True, start="turn", **kwargs
    )


def _sheep(start: int, count: int) -> list[int]:
    """`count` sheep ids from `start` (20 and up: clear of the blue bonus cards)."""
    return list(range(start, start + count))


def test_meadow_to_six_is_not_offered_for_a_meadow_that_already_has_six() -> None:
    """Rulebook: "Choose a meadow. Restock it up to 6 sheep instead of the usual 4."
    A meadow holding 6 would gain nothing: it is not offered."""
    areas = empty_areas(6)
    areas[3] = _sheep(20, 6)
    state = _restock(b(1), areas)
    assert state.phase == PH_BLUE
    assert state.legal_actions() == (
        Decline(),
        UseBonus(MEADOW_TO_SIX, area=1),
        UseBonus(MEADOW_TO_SIX, area=5),
    )


def test_all_meadows_to_five_is_not_offered_when_every_meadow_has_five() -> None:
    """Rulebook: "Restock all meadows up to 5 sheep instead of the usual 4." With five
    or more in every meadow the bonus would add nothing: no decision is asked."""
    areas = empty_areas(6)
    areas[1], areas[3], areas[5] = _sheep(20, 5), _sheep(25, 5), _sheep(30, 6)
    state = _restock(b(2), areas)
    assert state.phase == PH_PLACE
    areas[5] = _sheep(30, 4)
    assert _restock(b(2), areas).legal_actions() == (Decline(), UseBonus(ALL_MEADOWS_TO_FIVE))


def test_no_restock_bonus_when_no_sheep_is_left_to_draw() -> None:
    """Rulebook: "Increase by 1 the number of sheep restocked in your pen." With the
    sheep pile and the discard pile both empty it would add nothing."""
    areas = empty_areas(6)
    areas[1], areas[3], areas[5] = _sheep(20, 4), _sheep(24, 4), _sheep(28, 4)
    used = {*areas[1], *areas[3], *areas[5], b(0)}
    areas[2] = [card for card in range(N_SHEEP) if card not in used]  # seat 1's pen
    state = _restock(b(0), areas)
    assert not state.sheep_pile and not state.discard
    assert state.phase == PH_PLACE
    areas[2] = areas[2][1:]  # one sheep left in the pile: the bonus is useful again
    assert _restock(b(0), areas).legal_actions() == (Decline(), UseBonus(PEN_PLUS_ONE))


def test_a_scoring_decision_is_asked_exactly_when_a_group_exists() -> None:
    """The scoring options are listed lazily (they can run into the thousands); the
    quick check that decides whether to ask agrees with the full list on every pen."""
    rng = random.Random(13)
    for _ in range(300):
        pen = rng.sample(range(N_SHEEP), rng.randrange(0, 9))
        areas = empty_areas(6)
        areas[0] = pen
        placing = frame3(20, areas)  # seat 0 stays the current player
        assert placing._can_score() == bool(placing.score_options())
        scoring = frame3(20, areas, start="score")
        assert (scoring.phase == PH_SCORE) == bool(placing.score_options())
