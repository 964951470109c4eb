"""Round scores over random games, counted as the rulebook counts them: "Each
sheep on a card represents 1 point. However, be careful - each wolf costs you
1 point. ... Your score from each round is added to the next"."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.state import SheepShowdownState

# The sheep printed on each kind of sheep card (cards.toml names them 1, 2, 3 and 5).
SHEEP_ON_CARD = {C.SHEEP1: 1, C.SHEEP2: 2, C.SHEEP3: 3, C.SHEEP5: 5}


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, dict[str, object]]:
    players = draw(st.integers(2, 6))
    double_trouble = players == 2 and draw(st.booleans())
    rounds = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    return players, seed, {"double_trouble": double_trouble, "rounds": rounds}


@settings(max_examples=40, deadline=None)
@given(setups())
def test_totals_change_only_when_a_round_ends_by_sheep_less_wolves(
    setup: tuple[int, int, dict[str, object]],
) -> None:
    players, seed, options = setup
    state = GAME.new_state(players, seed, options)
    assert isinstance(state, SheepShowdownState)
    chooser = random.Random(seed)
    while not state.terminal:
        totals, round_before = list(state.totals), state.round
        state.apply(chooser.choice(state.legal_actions()))
        if not state.terminal and state.round == round_before:
            assert state.totals == totals, state.render()
    # The last round's flocks stay on the table when the game ends.
    last = [
        sum(SHEEP_ON_CARD.get(card, 0) for card in flock) - flock.count(C.WOLF)
        for flock in state.flocks
    ]
    result = state.result()
    for seat, player in enumerate(result.details["players"]):
        rounds = player["rounds"]
        assert len(rounds) == options["rounds"]
        assert rounds[-1]["round_score"] == last[seat], state.render()
        assert player["total"] == sum(r["round_score"] for r in rounds) == totals[seat] + last[seat]
        assert result.scores[seat] == player["total"]
