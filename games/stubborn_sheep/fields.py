"""The fields of a Stubborn Sheep state and the methods its stages call across
modules, declared once for the type checker.

Each stage of a turn is a mixin in its own module (turn, activation, bonuses,
pasture, scoring, wolf, views); declaring what they share on a base they all
inherit lets each be checked on its own. Nothing here runs: the fields are set
in state.py, the methods are defined where the comments say.
"""

from __future__ import annotations

import abc
import random
from typing import Any

from games.contract import Event, State
from games.stubborn_sheep.actions import MoveSheep, UseBonus


class StubbornSheepFields(State):
    """What a Stubborn Sheep state holds (the circle is described in state.py)."""

    wolf_option: bool
    bonus_option: bool
    rng: random.Random
    n: int  # fences, and as many areas
    fence_owner: tuple[int, ...]  # per fence: its seat, -1 for an unowned one
    area_owner: tuple[int, ...]  # per area: its seat, -1 for a meadow
    pens: tuple[int, ...]  # per seat: its pen's area
    meadows: tuple[int, ...]
    areas: list[list[int]]  # the sheep cards in each area
    stacks: list[list[int]]  # per fence position: its fence cards, the top one last
    orient: list[int]  # per fence: UP or DOWN (data.py)
    hands: list[list[int]]
    fence_pile: list[int]
    fence_box: list[int]
    sheep_pile: list[int]
    discard: list[int]
    scored: list[list[list[int]]]  # per seat, per colour
    wolf: int  # the wolf's area, -1 without the wolf
    current: int
    turn: int
    final_left: int  # turns left in the final round, -1 before it
    used: int  # bitmask of bonus colours used this turn
    queue: list[int]  # the fences still to activate this turn
    activated: list[int]
    activating: int
    icon: int  # the icon of `activating` being resolved
    setup_order: list[int]
    phase: int  # the pending decision (phases.py), -1 while none is
    ctx: tuple[int, ...]  # what the pending decision is about
    # None: a scoring decision whose options are listed only when asked for.
    _legal: tuple[Any, ...] | None
    _legal_index: dict[Any, Any] | None
    _tasks: list[tuple[int, ...]]  # the stack of pending steps
    _events: list[Event]

    # state.py
    @abc.abstractmethod
    def _emit(self, payload: Any) -> None: ...

    @abc.abstractmethod
    def _decide(self, phase: int, ctx: tuple[int, ...], legal: tuple[Any, ...] | None) -> None: ...

    @abc.abstractmethod
    def _own(self, seat: int) -> tuple[int, int]: ...

    # activation.py
    @abc.abstractmethod
    def _activate(self, f: int) -> None: ...

    @abc.abstractmethod
    def _moves_a_sheep(
        self, f: int, orientation: int | None = None, areas: list[list[int]] | None = None
    ) -> bool: ...

    @abc.abstractmethod
    def _rotation_matters(self, f: int) -> bool: ...

    # pasture.py
    @abc.abstractmethod
    def _move(self, card: int, src: int, dst: int, fence: int, cause: int) -> None: ...

    @abc.abstractmethod
    def _fill(self, area: int, target: int, reason: str) -> None: ...

    @abc.abstractmethod
    def _add(self, area: int, count: int, reason: str) -> None: ...

    # bonuses.py
    @abc.abstractmethod
    def _bonus(self, colour: int) -> int: ...

    @abc.abstractmethod
    def _use(self, action: UseBonus) -> None: ...

    @abc.abstractmethod
    def _blue_options(self) -> tuple[UseBonus, ...]: ...

    @abc.abstractmethod
    def _rotate(self, f: int) -> None: ...

    @abc.abstractmethod
    def _white_moves(self) -> list[MoveSheep]: ...

    @abc.abstractmethod
    def _white_move(self, action: MoveSheep) -> None: ...

    @abc.abstractmethod
    def _moved_table(self, action: MoveSheep) -> list[list[int]]: ...

    # wolf.py
    @abc.abstractmethod
    def _wolf(self) -> None: ...

    # scoring.py
    @abc.abstractmethod
    def points(self, seat: int) -> int: ...
