"""Set-up of a round: the meadow, the dogs, the options."""

from __future__ import annotations

import pytest

from games.errors import InvalidOptions
from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import PlaceDog
from games.sheep_showdown.events import DogPlaced, RoundStarted
from games.sheep_showdown.state import PLACE

from .helpers import place, random_game


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 7), (4, 7), (5, 9), (6, 9)])
def test_grid_size_and_cards_by_player_count(players: int, size: int) -> None:
    """ "Cards needed for 2-4 players (7 x 7 grid)" / "5-6 players (9 x 9 grid):
    Use all 81 cards." The meadow is the whole composition, face up."""
    state = GAME.new_state(players, 11)
    assert state.size == size
    assert sorted(state.grid) == sorted(C.deck(size))
    obs = state.observation(None)
    assert len(obs.grid) == size * size
    assert sorted(obs.grid) == sorted(C.deck(size))


@pytest.mark.parametrize("players", [2, 5])
def test_new_rounds_respect_the_layout_rules(players: int) -> None:
    """ "ensure that no two shepherd cards are directly next to each other
    horizontally or vertically ... no sliding sheep are placed on the outer edge"."""
    for seed in range(60):
        state = GAME.new_state(players, seed)
        assert C.layout_ok(state.grid, state.size), seed


def test_same_seed_same_meadow_other_seed_other_meadow() -> None:
    """ "Shuffle the cards and randomly place them": from the state's generator."""
    assert GAME.new_state(4, 5).grid == GAME.new_state(4, 5).grid
    assert GAME.new_state(4, 5).grid != GAME.new_state(4, 6).grid


def test_placement_order_is_counter_clockwise_from_the_first_player() -> None:
    """ "The first player places their dog on a shepherd card, followed by the
    others in counterclockwise order." Round 1's first player is seat 0."""
    state = GAME.new_state(4, 3)
    order = []
    while state.pending == PLACE:
        order.append(state.to_move)
        assert state.moving == state.to_move  # one dog per player: dog = seat
        assert state.observation(state.to_move).turn_player is None  # nobody's turn yet
        first = state.legal_actions()[0]
        place(state, first.row, first.col)
    assert order == [0, 3, 2, 1]


def test_dogs_go_on_distinct_free_shepherd_cards() -> None:
    """ "The first player places their dog on a shepherd card ... Dogs cannot be
    on the same card." """
    state = GAME.new_state(3, 8)
    shepherds = {cell for cell, card in enumerate(state.grid) if card == C.SHEPHERD}
    first = state.legal_actions()
    assert {a.row * 7 + a.col for a in first} == shepherds
    taken = first[0]
    state.apply(taken)
    second = state.legal_actions()
    assert {a.row * 7 + a.col for a in second} == shepherds - {taken.row * 7 + taken.col}
    with pytest.raises(ValueError):
        state.apply(PlaceDog(state.moving, taken.row, taken.col))


def test_last_placer_moves_first_then_clockwise() -> None:
    """ "the game begins in a clockwise order, with the player who chose last
    making the first move!" With first player 0 and 4 players, seat 1 places
    last, so seat 1 moves first and seat 2 next."""
    state = GAME.new_state(4, 21)
    while state.pending == PLACE:
        state.apply(state.legal_actions()[0])
    assert state.to_move == 1 and state.turn_player == 1
    while state.turn_player == 1:
        state.apply(state.legal_actions()[0])
    if state.out_at[2] is None:
        assert state.turn_player == 2


def test_double_trouble_placement_and_first_move() -> None:
    """Double Trouble: "The first player chooses a starting position for one dog,
    then the second player may place both their dogs and then the first player
    may place the second dog. The second player begins the round." """
    state = GAME.new_state(2, 4, {"double_trouble": True})
    seen = []
    placed = []
    while state.pending == PLACE:
        seen.append((state.to_move, state.moving))
        events = state.apply(state.legal_actions()[-1])
        done = [e.payload for e in events if isinstance(e.payload, DogPlaced)]
        placed += [(p.seat, p.dog) for p in done]
    assert seen == [(0, 0), (1, 2), (1, 3), (0, 1)]
    assert placed == seen  # dog_placed names the owner, not the dog number
    assert len(set(state.pos)) == 4
    assert state.turn_player == 1


def test_options_defaults_and_validation() -> None:
    """Options: rounds (1..3, default 3; 1 is the quick game), double_trouble
    (default false, 2 players only)."""
    state = GAME.new_state(3, 1)
    assert state.rounds == 3 and not state.dt
    assert GAME.new_state(2, 1, {"rounds": "1"}).rounds == 1
    assert GAME.new_state(2, 1, {"double_trouble": "true"}).dt
    for bad in ({"rounds": 0}, {"rounds": 4}, {"double_trouble": "maybe"}, {"wolf": 1}):
        with pytest.raises(InvalidOptions):
            GAME.new_state(2, 1, bad)
    for players in (3, 4, 5, 6):
        with pytest.raises(InvalidOptions, match="2 players"):
            GAME.new_state(players, 1, {"double_trouble": True})
    for players in (1, 7):
        with pytest.raises(InvalidOptions):
            GAME.new_state(players, 1)


def test_game_metadata() -> None:
    assert GAME.name == "sheep-showdown"
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert [spec.name for spec in GAME.option_specs] == ["rounds", "double_trouble"]


def test_result_before_the_end_raises_and_views_describe_the_decision() -> None:
    """`result()` raises before the end; `prompt()` names the pending decision and
    `render()` draws the public meadow."""
    state = GAME.new_state(2, 5)
    with pytest.raises(ValueError):
        state.result()
    assert state.prompt() == "choose a shepherd card for dog 0"
    picture = state.render()
    assert "round 1/3" in picture and picture.count("\n") >= 8
    assert state.observation(0).decision == "place_dog"
    assert state.observation(None).decision_dog == 0


@pytest.mark.parametrize("players", [4, 5])
def test_every_rounds_meadow_is_the_whole_composition_laid_by_the_layout_rules(
    players: int,
) -> None:
    """Next Round: "gather all the cards, shuffle them thoroughly, and then
    randomly distribute them again. Set up the meadow for the next round
    according to the same rules": rounds 2 and 3 too hold every card of the
    composition, no two shepherd cards side by side and no sliding sheep on the
    outer edge (checked here from the round_started events, as a bot sees them)."""
    size = 7 if players <= 4 else 9
    for seed in range(4):
        _, _, history = random_game(players, seed)
        grids = [
            e.payload.grid
            for events in history
            for e in events
            if isinstance(e.payload, RoundStarted)
        ]
        assert len(grids) == 2, seed  # round 1's comes with the new state
        for grid in grids:
            assert sorted(grid) == sorted(C.deck(size))
            for cell, card in enumerate(grid):
                row, col = divmod(cell, size)
                if card == C.SLIDING:
                    assert 0 < row < size - 1 and 0 < col < size - 1, (seed, cell)
                if card == C.SHEPHERD:
                    right = grid[cell + 1] if col < size - 1 else None
                    below = grid[cell + size] if row < size - 1 else None
                    assert C.SHEPHERD not in (right, below), (seed, cell)
