"""Packed cell keys: a pasture cell (x, y) as one int, so that neighbours are
key +- 1 and key +- _W."""

from __future__ import annotations

from games.sheep_n_sheep.actions import Cell

_W = 1024
_OFF = 512
_ORIGIN = _OFF * _W + _OFF
_DIRS = (_W, -_W, 1, -1)  # right, left, up, down: the order Place actions are listed in


def pack(x: int, y: int) -> int:
    return (x + _OFF) * _W + y + _OFF


def unpack(key: int) -> Cell:
    return key // _W - _OFF, key % _W - _OFF
