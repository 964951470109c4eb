"""What a hand-built Sheep & Garden position must be, checked before it is
built: a bad tile id, rotation or seat would otherwise index the wrong tile
(a negative id counts from the end) or fail deep inside the engine, and a bad
objective slot would fail at the scoring or score silently for the wrong seat."""

from __future__ import annotations

from collections.abc import Sequence

from games.positions import check_position_seed
from games.sheep_and_garden.data import (
    DIRECTION_NAMES,
    DIRECTIONS,
    MIRROR,
    OBJECTIVE_BY_ID,
    TILE_COUNT,
    TILES,
)
from games.sheep_and_garden.model import END_REASONS, Slot

ROTATIONS = 4


def check_position(
    players: int,
    placed: Sequence[tuple[int, int, int, int]],
    display: Sequence[int],
    deck: Sequence[int],
    display_size: int,
    to_move: int | None,
    slots: Sequence[Slot] | None = None,
    end_reason: str = "",
    seed: object = 0,
) -> None:
    """ValueError naming the first thing no game holds: 1 to 4 players, real
    tile ids (placed, shown or in the deck), no tile twice among those shown
    and in the deck, at least one tile placed, one tile a cell, rotations 0 to
    3, a display no larger than the game's, a seat to move among the players
    (or None, the game over), no `end_reason` while a seat is to move and one
    of END_REASONS when none is (a free text was shown
    to the seats as the reason), a whole-number seed, tiles that meet their
    neighbours as `check_matching` wants, and slots as `check_slots` wants them."""
    if type(players) is not int or not 1 <= players <= 4:
        raise ValueError(f"{players!r} players: Sheep & Garden takes 1 to 4")
    check_position_seed(seed)
    if to_move is not None and (type(to_move) is not int or not 0 <= to_move < players):
        raise ValueError(f"seat {to_move!r} to move is not one of 0 to {players - 1}")
    if to_move is not None and end_reason:
        raise ValueError(
            f"ended ({end_reason!r}) with seat {to_move} to move: "
            "a finished game has no seat to move (to_move None)"
        )
    if to_move is None and not end_reason:
        raise ValueError(
            "no seat to move and no end_reason: a game in play has a seat to move, "
            "a finished one says why it ended"
        )
    if end_reason and end_reason not in END_REASONS:
        raise ValueError(
            f"end_reason {end_reason!r} is no way a game ends: "
            f"{' or '.join(map(repr, END_REASONS))}"
        )
    if len(display) > display_size:
        raise ValueError(
            f"{len(display)} tiles shown: at most {display_size} in a {players}-player game"
        )
    for tile in [tile for tile, _, _, _ in placed] + list(display) + list(deck):
        if type(tile) is not int or not 0 <= tile < TILE_COUNT:
            raise ValueError(f"tile {tile!r} is no tile: ids are 0 to {TILE_COUNT - 1}")
    unplaced = list(display) + list(deck)
    for tile in unplaced:
        if unplaced.count(tile) > 1:
            raise ValueError(
                f"tile {tile} is shown or in the deck twice: each tile is there once "
                "(shown twice, every placement of it would be a choice listed twice)"
            )
    if not placed:
        raise ValueError("no tile placed: a game starts with one in the centre")
    cells: set[tuple[int, int]] = set()
    for tile, x, y, rotation in placed:
        if type(x) is not int or type(y) is not int:
            raise ValueError(f"cell {(x, y)!r} of tile {tile} is not a pair of whole numbers")
        if (x, y) in cells:
            raise ValueError(f"cell {(x, y)} holds two tiles")
        cells.add((x, y))
        if type(rotation) is not int or not 0 <= rotation < ROTATIONS:
            raise ValueError(f"rotation {rotation!r} of tile {tile}: rotations are 0 to 3")
    check_matching(placed)
    if slots is not None:
        check_slots(players, slots)


def check_matching(placed: Sequence[tuple[int, int, int, int]]) -> None:
    """ValueError naming the first tile whose edge does not meet a neighbour
    placed before it segment by segment (a road a road, a lake a lake): every
    game's landscape obeys the matching rule, and scoring joins areas and roads
    through it (a road against grass failed with an IndexError, a lake against
    grass became grass)."""
    board: dict[tuple[int, int], tuple[int, int]] = {}
    for tile, x, y, rotation in placed:
        edges = TILES[tile].edges[rotation]
        for d, (dx, dy) in enumerate(DIRECTIONS):
            other = board.get((x + dx, y + dy))
            back = (d + 2) % 4
            if other is None or edges[d] == MIRROR[TILES[other[0]].edges[other[1]][back]]:
                continue
            edge = TILES[tile].letters(rotation)[3 * d : 3 * d + 3]
            theirs = TILES[other[0]].letters(other[1])[3 * back : 3 * back + 3][::-1]
            raise ValueError(
                f"tile {tile} at {(x, y)} does not match tile {other[0]} at "
                f"{(x + dx, y + dy)}: its {DIRECTION_NAMES[d]} edge {edge} meets {theirs}"
            )
        board[(x, y)] = (tile, rotation)


def check_slots(players: int, slots: Sequence[Slot]) -> None:
    """ValueError naming the first slot no game deals: a real card, held by
    seats of the table, each once, in a tuple (views of the slots are memoised
    by value); solo's enemy cards, and only they, are held by no seat (a held
    enemy card would count for the player as well). A card may repeat, as a
    tile may, for what-if positions."""
    for index, slot in enumerate(slots):
        if type(slot) is not Slot:
            raise ValueError(f"slot {index}: {slot!r} is not a Slot")
        if slot.card not in OBJECTIVE_BY_ID:
            raise ValueError(
                f"slot {index}: {slot.card!r} is no objective card: "
                f"ids are {', '.join(OBJECTIVE_BY_ID)}"
            )
        where = f"slot {index} ({slot.card})"
        if type(slot.holders) is not tuple:
            raise ValueError(f"{where}: holders {slot.holders!r} is not a tuple")
        for seat in slot.holders:
            if type(seat) is not int or not 0 <= seat < players:
                raise ValueError(f"{where}: seat {seat!r} is not one of 0 to {players - 1}")
        twice = [seat for seat in slot.holders if slot.holders.count(seat) > 1]
        if twice:
            raise ValueError(f"{where}: seat {twice[0]} holds it twice")
        if slot.enemy and players != 1:
            raise ValueError(f"{where}: only solo has the enemy's cards")
        if slot.enemy and slot.holders:
            raise ValueError(f"{where}: the enemy's card is held by no seat")
        if not slot.enemy and not slot.holders:
            raise ValueError(f"{where} is held by no seat")
