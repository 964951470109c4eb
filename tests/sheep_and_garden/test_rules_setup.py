"""Rulebook sentences of the set-up that had no scenario of their own: 1 to 4
players, the game's options, the tile set-up at every player count (solo too),
and a first display that fits nowhere reshuffled before the first turn.

Rule sentences are quoted from the rulebook or the project's rules notes.
"""

from __future__ import annotations

import pytest

from games.errors import InvalidOptions
from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import TILES
from games.sheep_and_garden.model import Reshuffled, TilesShown

# ------------------------------------------------------------------ options


@pytest.mark.parametrize("players", [0, 5])
def test_one_to_four_players(players: int) -> None:
    """Solo rule plus set-ups "for 2 players" and "for 3-4 players": 1 to 4 seats."""
    with pytest.raises(InvalidOptions):
        GAME.new_state(players, 1)


def test_the_game_has_no_options() -> None:
    """The rulebook has no variants: any option is refused."""
    with pytest.raises(InvalidOptions, match="unknown option"):
        GAME.new_state(2, 1, {"rounds": "3"})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_table_sets_up_the_tiles_as_for_two_players(players: int) -> None:
    """ "Shuffle the tiles, then put 1 on the centre of the table and 3 on the side of
    the table, face up. The rest are stacked face down as a deck"; for 3-4 players
    "Set up tiles as for 2 players". Notes: the start tile lies at (0, 0) unrotated."""
    starts = set()
    for seed in range(20):
        state = GAME.new_state(players, seed)
        [start] = state.placed
        assert (start.x, start.y, start.rotation) == (0, 0, 0)
        assert len(state.display) == 3 and state.deck_size == 33
        assert start.tile not in state.display
        starts.add(start.tile)
    assert len(starts) > 5  # shuffled: the start tile differs from seed to seed


def test_solo_sets_up_one_tile_in_the_centre_and_draws_one() -> None:
    """Solo: "Shuffle the tiles, and place 1 tile on the centre of the table"; "draw a
    tile from the deck and place it immediately": one start tile at (0, 0), the one
    drawn tile shown, 35 left face down, and no three-tile display."""
    starts = set()
    for seed in range(20):
        state = GAME.new_state(1, seed)
        [start] = state.placed
        assert (start.x, start.y, start.rotation) == (0, 0, 0)
        assert len(state.display) == 1 and state.deck_size == 35
        assert {a.tile for a in state.legal_actions()} == set(state.display)
        starts.add(start.tile)
    assert len(starts) > 5


def _fits_beside_the_start(start: int, tile: int) -> bool:
    """Whether `tile`, in some turn, can lie on some side of the unrotated `start`
    tile with every segment of the shared edge meeting one of the same kind (read
    from the tile letters, not through the engine's edge codes)."""
    theirs = TILES[start].letters(0)
    for d in range(4):
        edge = theirs[3 * d : 3 * d + 3][::-1]  # as the neighbour reads it, clockwise
        back = (d + 2) % 4
        if any(TILES[tile].letters(r)[3 * back : 3 * back + 3] == edge for r in range(4)):
            return True
    return False


@pytest.mark.parametrize("players", [1, 2, 4])
def test_a_first_display_that_fits_nowhere_is_reshuffled_before_the_first_turn(
    players: int,
) -> None:
    """ "If all 3 tiles cannot be placed, shuffle their tiles, reveal new tiles and
    choose from them" holds from the set-up on (solo: the drawn tile). Over 200 dealt
    games, the first tiles shown are shuffled back exactly when none of them fits
    beside the start tile, and the first player then always has a placement among the
    tiles shown, with every tile but the start tile still shown or in the deck."""
    reshuffled = 0
    for seed in range(200):
        state = GAME.new_state(players, seed)
        events = [e.payload for e in state.setup_events]
        assert isinstance(events[0], TilesShown)
        first = events[0].tiles
        start = state.placed[0].tile
        if any(_fits_beside_the_start(start, tile) for tile in first):
            assert len(events) == 1, seed
        else:
            assert isinstance(events[1], Reshuffled) and events[1].returned == first, seed
            reshuffled += 1
        legal = state.legal_actions()
        assert legal and {a.tile for a in legal} <= set(state.display), seed
        assert len(state.display) == (1 if players == 1 else 3)
        assert len(state.display) + state.deck_size == 36
    assert reshuffled >= 1
