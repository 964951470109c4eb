"""Rulebook sentences on awkward landscapes, and what a seat may not learn.

- "You get scores for each completed heart-shaped area": two hearts that share
  one tile (a tile with two city caps) both score.
- "Lands are completed only by Lakes. (Edges not connected to a tile are
  regarded as a Lake.)": a hole inside the landscape separates lands as a lake
  does, until a tile fills it.
- "When a tile is placed, the areas and roads MUST be connected": a tile put
  into a hole must match every neighbour; its edge facing open space may be
  anything.
- Hidden information: a seat cannot tell apart two games that differ only in
  the deck order and in cards face down to it, not by its observation, its
  legal actions, its prompt nor the events.
"""

from __future__ import annotations

import pytest

from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import OBJECTIVES
from games.sheep_and_garden.model import Place, Reshuffled, Slot
from games.sheep_and_garden.scoring import score_cards
from games.sheep_and_garden.state import SheepAndGardenState

from .helpers import analysed, landscape, mismatches, position, tid

# The twin city caps' north cap closes with a corner and a cap above it, its
# south cap with a corner and a cap below: two complete cities, each on three
# tiles in an L, both covering the twin tile at (0, 0).
TWO_HEARTS = (
    ("twin city caps", 0, 0, 0),
    ("city corner", 0, -1, 1),
    ("city cap", 1, -1, 3),
    ("city corner", 0, 1, 0),
    ("city cap", 1, 1, 3),
)

# Two meadows whose only link would be the empty cell (1, 0) between them: above
# it, a lake channel's lakes meet the two lake corners, so the channel's south
# bank is a land of its own and so is its north bank.
AROUND_A_HOLE = (
    ("meadow", 0, 0, 0),
    ("lake corner", 0, -1, 0),
    ("lake channel", 1, -1, 1),
    ("lake corner", 2, -1, 3),
    ("meadow", 2, 0, 0),
)


def test_two_hearts_sharing_a_tile_both_score() -> None:
    """ "You get scores for each completed heart-shaped area": the two cities share
    the twin tile and are two hearts, 10 points on the hearts card."""
    assert mismatches(landscape(*TWO_HEARTS)) == []
    analysis = analysed(*TWO_HEARTS)
    hearts = [a.cells for a in analysis.areas if a.is_heart]
    assert sorted(sorted(cells) for cells in hearts) == [
        [(0, -1), (0, 0), (1, -1)],
        [(0, 0), (0, 1), (1, 1)],
    ]
    cards = score_cards(analysis.stats())
    assert cards["hearts"] == (2, 10)
    assert cards["cities"] == (2, 3 * 2 + 3)  # 3 humans in the two cities
    assert cards["settlements"] == (1, 4)  # the upper city holds 3 houses, the lower 2


def test_a_hole_in_the_landscape_separates_lands_until_it_is_filled() -> None:
    """ "Edges not connected to a tile are regarded as a Lake": around the empty
    cell the landscape has 4 lands (each meadow with its lake corner, and the
    channel's two banks); a meadow in the hole joins the two meadows and the
    channel's south bank into one, leaving 2."""
    assert mismatches(landscape(*AROUND_A_HOLE)) == []
    assert analysed(*AROUND_A_HOLE).lands == 4
    filled = (*AROUND_A_HOLE, ("fenced meadow", 1, 0, 0))
    assert mismatches(landscape(*filled)) == []
    assert analysed(*filled).lands == 2
    assert score_cards(analysed(*filled).stats())["lands"] == (2, 4)


def test_a_tile_in_a_hole_matches_every_neighbour_but_not_open_space() -> None:
    """ "The areas and roads MUST be connected": the hole has grass on three sides
    and open space to the south. The lake cap fits only with its lake facing the
    open side; the road and the city corner fit in no turn."""
    state = position(2, AROUND_A_HOLE, ["lake cap", "road", "city corner"], ["pond"])
    assert [a for a in state.legal_actions() if (a.x, a.y) == (1, 0)] == [
        Place(tid("lake cap"), 1, 0, 2)
    ]


TURNS = 4


def _hidden_twin(state: SheepAndGardenState, seat: int) -> SheepAndGardenState:
    """`state` with the deck below its top `TURNS` tiles in reverse order, and
    every card face down to `seat` replaced by another card that seat does not see."""
    twin = state.clone()
    twin._deck[:-TURNS] = twin._deck[:-TURNS][::-1]
    hidden = [i for i, slot in enumerate(state.slots) if not slot.visible_to(seat)]
    dealt = {slot.card for slot in state.slots}
    unused = [card.id for card in OBJECTIVES if card.id not in dealt]
    pool = unused + [state.slots[i].card for i in hidden]
    slots: list[Slot] = list(state.slots)
    for i, card in zip(hidden, pool, strict=False):
        slots[i] = Slot(card, slots[i].holders, slots[i].face_up, slots[i].enemy)
    twin.slots = tuple(slots)
    return twin


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_seat_cannot_tell_games_apart_that_differ_only_in_what_it_may_not_see(
    players: int,
) -> None:
    """Every seat, for the first turns: the same observation (and its wire bytes),
    legal actions, prompt and events in a game whose deck order below the next
    tile and whose cards face down to that seat differ."""
    codec = GAME.codec
    for seat in range(players):
        state = GAME.new_state(players, 20 + players)
        twin = _hidden_twin(state, seat)
        assert twin._deck != state._deck
        if players > 1:
            assert twin.slots != state.slots
        for _ in range(TURNS):
            seen = state.observation(seat)
            assert twin.observation(seat) == seen
            wire = codec.observation_to_proto(seen).SerializeToString()
            assert codec.observation_to_proto(twin.observation(seat)).SerializeToString() == wire
            assert twin.legal_actions() == state.legal_actions()
            assert twin.prompt() == state.prompt()
            action = state.legal_actions()[0]
            events = state.apply(action)
            assert not any(isinstance(e.payload, Reshuffled) for e in events)
            assert twin.apply(action) == events
