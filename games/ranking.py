"""Ranks from scores and tie-break keys, shared by every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Rank seats by descending key; equal keys share a rank (1, 1, 3).

    A key is anything comparable, typically a tuple (score, tie-break, ...).
    """
    order = sorted(range(len(keys)), key=lambda seat: keys[seat], reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        if position > 0 and keys[seat] == keys[order[position - 1]]:
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    return tuple(ranks)
