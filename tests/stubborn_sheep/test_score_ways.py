"""A crowded pen's ways to score: every one listed up to MOST_SCORE_WAYS, and
past it each way once up to identical cards (one colour, one printed bonus).
A player who never scored gathered a pen whose every way made a decision of
77,631 actions (6.3 MB, past what gRPC sends) that took 0.65 s to build."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.stubborn_sheep import scoring
from games.stubborn_sheep.actions import Score
from games.stubborn_sheep.data import N_SHEEP, SHEEP_BONUS, SHEEP_COLOUR, WHITE
from games.stubborn_sheep.state import StubbornSheepState
from tests.stubborn_sheep.helpers import b, empty_areas, r, w


def _scoring(pen: list[int]) -> StubbornSheepState:
    areas = empty_areas(10)
    areas[0] = pen
    return StubbornSheepState.from_position(5, areas=areas, current=0, start="score")


def _kinds(option: Score) -> tuple[Any, ...]:
    """What a way to score puts where, up to identical cards: its colour, the
    bonuses scored in pile order, and the multisets of the whites standing in
    and of the colour's own cards discarded."""
    stand_ins = [card for card in option.discarded if SHEEP_COLOUR[card] == WHITE]
    own = option.discarded[len(stand_ins) :] if option.colour != WHITE else option.discarded
    if option.colour == WHITE:
        stand_ins = []
    return (
        option.colour,
        tuple(SHEEP_BONUS[card] for card in option.scored),
        tuple(sorted(SHEEP_BONUS[card] for card in stand_ins)),
        tuple(sorted(SHEEP_BONUS[card] for card in own)),
    )


def _every_way(pen: list[int], monkeypatch: pytest.MonkeyPatch) -> list[Score]:
    with monkeypatch.context() as patch:
        patch.setattr(scoring, "MOST_SCORE_WAYS", 10**9)
        return _scoring(pen).score_options()


def test_the_guide_s_crowded_pen_lists_every_way() -> None:
    pen = [r(i) for i in range(6)] + [b(i) for i in range(5)] + [w(i) for i in range(6)]
    options = _scoring(pen).score_options()
    assert len(options) == 2_865 == len(set(options))


@pytest.mark.parametrize("seed", range(12))
def test_the_count_of_ways_is_what_the_full_list_holds(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    pen = random.Random(seed).sample(range(N_SHEEP), 8 + seed)
    assert scoring._ways(_by_colour(pen)) == len(_every_way(pen, monkeypatch))


@pytest.mark.parametrize("seed", range(6))
def test_past_the_bound_each_way_is_offered_once_up_to_identical_cards(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    pen = rng.sample(range(N_SHEEP), 24)
    every = _every_way(pen, monkeypatch)
    assert len(every) > scoring.MOST_SCORE_WAYS
    offered = _scoring(pen).score_options()
    kinds = [_kinds(option) for option in offered]
    assert len(set(kinds)) == len(kinds)  # once each
    assert set(kinds) == {_kinds(option) for option in every}  # none missing
    assert set(offered) <= set(every)  # each a way the full list holds
    # The lowest ids of each kind: the cards a way takes, scored first.
    for option in offered:
        taken = [*option.scored, *option.discarded]
        for card in taken:
            same = [c for c in pen if (SHEEP_COLOUR[c], SHEEP_BONUS[c]) == _kind(card)]
            used = Counter(_kind(c) for c in taken)[_kind(card)]
            assert card in sorted(same)[:used]


def _kind(card: int) -> tuple[int, int]:
    return SHEEP_COLOUR[card], SHEEP_BONUS[card]


def test_every_sheep_in_one_pen_gives_a_short_list_that_plays() -> None:
    """All 78 sheep: 893,904 ways card by card, 1,208 up to identical cards."""
    state = _scoring(list(range(N_SHEEP)))
    options = state.score_options()
    assert len(options) == 1_208
    state.apply(state.legal_actions()[1])  # the first way to score
    assert sum(len(pile) for pile in state.scored[0]) in (1, 2)


def test_a_hoarder_s_decisions_stay_short_over_whole_games() -> None:
    """Players who never score (a `stop_scoring` whenever offered) let their
    pens fill past the bound: no decision lists more than the bound, plus stop."""
    widest = 0
    for seed in range(3):
        state = StubbornSheepState.new_game(3, seed, False, False)
        rng = random.Random(seed)
        while state.to_move is not None:
            actions = state.legal_actions()
            assert len(actions) <= scoring.MOST_SCORE_WAYS + 1
            if actions and isinstance(actions[-1], Score):
                widest = max(
                    widest, scoring._ways(_by_colour(state.areas[state.pens[state.current]]))
                )
            state.apply(rng.choice([a for a in actions if not isinstance(a, Score)]))
    assert widest > scoring.MOST_SCORE_WAYS  # the pens did fill past it


def _by_colour(pen: list[int]) -> list[list[int]]:
    by_colour: list[list[int]] = [[], [], [], []]
    for card in pen:
        by_colour[SHEEP_COLOUR[card]].append(card)
    return by_colour
