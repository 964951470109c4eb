"""Packed cell keys: a pasture cell (x, y) as one int, so that neighbours are
key +- 1 and key +- _W."""

from __future__ import annotations

from games.sheep_n_sheep.actions import Cell
from games.sheep_n_sheep.cards import DECK_SIZE

_W = 1024
_OFF = 512
_ORIGIN = _OFF * _W + _OFF
_DIRS = (_W, -_W, 1, -1)  # right, left, up, down: the order Place actions are listed in
# Keys hold x and y from -_OFF to _OFF - 1. A built position's cells stay within
# REACH of the origin, so every card of the game can still be laid beyond them.
REACH = _OFF - 1 - DECK_SIZE


def pack(x: int, y: int) -> int:
    return (x + _OFF) * _W + y + _OFF


def unpack(key: int) -> Cell:
    return key // _W - _OFF, key % _W - _OFF
