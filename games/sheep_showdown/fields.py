"""The fields of a Sheep Showdown state and the methods its stages call across
modules, declared once for the type checker.

Each stage of a turn is a mixin in its own module (board, moves, stealing,
rounds, observation, positions); declaring what they share on a base they all
inherit lets each be checked on its own. Nothing here runs: the fields are set
in state.py (and positions.py), the methods are defined where the comments say.
"""

from __future__ import annotations

import abc
import random
from typing import Any

from games.contract import Event, State
from games.sheep_showdown.cards import Geometry


class SheepShowdownFields(State):
    """What a Sheep Showdown state holds. Cells are row * size + col; dogs are
    numbered seat * dogs_per + i; a pending decision is an index into DECISIONS."""

    rounds: int
    dt: bool  # Double Trouble
    dogs_per: int
    size: int
    geo: Geometry
    step: tuple[int, ...]  # geo.step
    cap: int  # the turn cap
    rng: random.Random
    round: int
    first_player: int
    totals: list[int]
    records: list[list[dict[str, Any]]]  # per round, per seat
    _events: list[Event]  # what the action being applied emits
    _cache: tuple[Any, ...] | None  # the legal actions
    # The round's fields (state.py's _reset_round_fields).
    grid: list[int]  # card codes, with C.BLOCKED_FLAG on a blocked cell
    removed: list[int]
    pos: list[int]  # per dog: its cell, -1 before it is placed
    occ: list[int]  # per cell: the dog on it, or -1
    out: list[bool]  # per dog
    out_at: list[int | None]  # per seat: the turn it went out
    flocks: list[list[int]]
    clock: int
    bonus_player: int | None  # the last player, once there is one
    bonus_left: int
    bomb_out: list[int]
    pending: int
    moving: int
    decider: int  # the seat deciding now, -1 while nobody does (pending is NONE)
    turn_player: int | None
    exclude: int
    rockets: frozenset[int]  # the rockets the moving dog's chain has used
    place_queue: list[tuple[int, int]]  # (seat, dog)
    began_free: int  # bit per dog: had a legal step when the turn began
    steal_queue: list[int]
    entered: int

    # state.py
    @abc.abstractmethod
    def _emit(self, payload: Any, seat: int | None = None, redacted: Any = None) -> None: ...

    @abc.abstractmethod
    def _reset_round_fields(self) -> None: ...

    @abc.abstractmethod
    def _start_round(self) -> None: ...

    @abc.abstractmethod
    def _ask_place(self) -> None: ...

    @abc.abstractmethod
    def _first_mover(self) -> int: ...

    # board.py
    @abc.abstractmethod
    def has_step(self, dog: int) -> bool: ...

    @abc.abstractmethod
    def _alive_dogs(self, seat: int) -> list[int]: ...

    @abc.abstractmethod
    def _free_shepherds(self) -> list[int]: ...

    @abc.abstractmethod
    def _block_targets(self) -> list[int]: ...

    @abc.abstractmethod
    def _wolf_targets(self) -> list[int]: ...

    # stealing.py
    @abc.abstractmethod
    def _chain_done(self) -> None: ...

    # rounds.py
    @abc.abstractmethod
    def _advance(self, previous: int) -> None: ...
