"""The fields of a Sheep 'n' Sheep state, declared once for the type checker.

The state's behaviour is split into mixins (legal.py, views.py) that read these
fields; declaring them on a base all mixins share lets each mixin be checked
on its own. Nothing here runs: the fields are set in state.py.
"""

from __future__ import annotations

import random

from games.contract import State
from games.sheep_n_sheep.actions import SheepNSheepAction
from games.sheep_n_sheep.observation import PastureView


class SheepNSheepFields(State):
    """The state's fields: pastures map a packed cell key (cells.py) to a card id."""

    __slots__ = ()

    _rng: random.Random
    _deck: list[int]  # drawn from its end
    _stock: list[int]
    _hands: list[list[int]]  # each sorted
    _market: list[tuple[int, int]]
    _revealed: set[int]  # cards whose place everybody knows
    _pastures: list[dict[int, int]]
    _pasture_views: list[tuple[int, PastureView]]  # (card count, view) per pasture
    _discard: list[int]
    _turn: int
    _seat: int
    _last_turn: int | None
    _phase: int  # an index into legal.PHASES
    # The placement in progress: cards placed, start and tip cell keys, numbers.
    _placed: int
    _start: int | None
    _tip: int | None
    _up_tip: int | None
    _down_tip: int | None
    _up_num: int
    _down_num: int
    _legal: tuple[SheepNSheepAction, ...] | None
