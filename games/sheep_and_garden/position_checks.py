"""What a hand-built Sheep & Garden position must be, checked before it is
built: a bad tile id, rotation or seat would otherwise index the wrong tile
(a negative id counts from the end) or fail deep inside the engine."""

from __future__ import annotations

from collections.abc import Sequence

from games.sheep_and_garden.data import TILE_COUNT

ROTATIONS = 4


def check_position(
    players: int,
    placed: Sequence[tuple[int, int, int, int]],
    display: Sequence[int],
    deck: Sequence[int],
    display_size: int,
    to_move: int | None,
) -> None:
    """ValueError naming the first thing no game holds: 1 to 4 players, real
    tile ids (placed, shown or in the deck), one tile a cell,
    rotations 0 to 3, a display no larger than the game's and a seat to move
    among the players (or None, the game over)."""
    if type(players) is not int or not 1 <= players <= 4:
        raise ValueError(f"{players!r} players: Sheep & Garden takes 1 to 4")
    if to_move is not None and (type(to_move) is not int or not 0 <= to_move < players):
        raise ValueError(f"seat {to_move!r} to move is not one of 0 to {players - 1}")
    if len(display) > display_size:
        raise ValueError(
            f"{len(display)} tiles shown: at most {display_size} in a {players}-player game"
        )
    for tile in [tile for tile, _, _, _ in placed] + list(display) + list(deck):
        if type(tile) is not int or not 0 <= tile < TILE_COUNT:
            raise ValueError(f"tile {tile!r} is no tile: ids are 0 to {TILE_COUNT - 1}")
    cells: set[tuple[int, int]] = set()
    for tile, x, y, rotation in placed:
        if type(x) is not int or type(y) is not int:
            raise ValueError(f"cell {(x, y)!r} of tile {tile} is not a pair of whole numbers")
        if (x, y) in cells:
            raise ValueError(f"cell {(x, y)} holds two tiles")
        cells.add((x, y))
        if type(rotation) is not int or not 0 <= rotation < ROTATIONS:
            raise ValueError(f"rotation {rotation!r} of tile {tile}: rotations are 0 to 3")
