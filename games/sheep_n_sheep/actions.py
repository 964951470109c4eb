"""The actions of Sheep 'n' Sheep: small decisions that together make a turn.

A turn starts with one of TakeSet, BeginSame, BeginRun, BeginFree or Pass (when
no set is left and the hand may take one, or when nothing else is legal). A
placement then continues with Place decisions (after a Discard for BeginFree)
until the player plays Stop, the hand is empty, or no card at all could follow
(whether one in the hand fits is the hand's secret: then only Stop is offered).
Cards are named by id; coordinates are pasture cells (x, y).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.sheep_n_sheep.cards import CARDS

Cell = tuple[int, int]


def _where(start: Cell | None) -> str:
    return "an empty pasture" if start is None else f"({start[0]},{start[1]})"


@dataclass(frozen=True, slots=True)
class TakeSet:
    """A: take both cards of market set `index` into the hand."""

    index: int

    @property
    def label(self) -> str:
        return f"take set {self.index}"


@dataclass(frozen=True, slots=True)
class BeginSame:
    """B a): place cards of the start card's number in one path from `start`.

    `start` is None on an empty pasture: the first card placed becomes the start.
    """

    start: Cell | None

    @property
    def label(self) -> str:
        return f"same number from {_where(self.start)}"


@dataclass(frozen=True, slots=True)
class BeginRun:
    """B b): place consecutive numbers from `start`, ascending and descending.

    `start` is None on an empty pasture: the first card placed is the smallest
    of the run and only the ascending branch exists.
    """

    start: Cell | None

    @property
    def label(self) -> str:
        return f"run from {_where(self.start)}"


@dataclass(frozen=True, slots=True)
class BeginFree:
    """B c): discard one card, then place one card of your choice."""

    @property
    def label(self) -> str:
        return "discard one, place one"


@dataclass(frozen=True, slots=True)
class Discard:
    """The discard of B c): `card` leaves the game face up."""

    card: int

    @property
    def label(self) -> str:
        return f"discard {CARDS[self.card].code} #{self.card}"


@dataclass(frozen=True, slots=True)
class Place:
    """Place `card` from the hand at (x, y).

    `branch` is "up" or "down" for the two branches of a run, "" otherwise
    (including the first card of a run on an empty pasture).
    """

    card: int
    x: int
    y: int
    branch: str = ""

    @property
    def label(self) -> str:
        side = f" {self.branch}" if self.branch else ""
        return f"place {CARDS[self.card].code} #{self.card} at ({self.x},{self.y}){side}"


@dataclass(frozen=True, slots=True)
class Stop:
    """End the placement (legal once at least one card of it is placed)."""

    @property
    def label(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing: choosing to take a set when none is left (a hand under 6), or
    the only move when no set can be taken and no card placed."""

    @property
    def label(self) -> str:
        return "pass"


SheepNSheepAction = TakeSet | BeginSame | BeginRun | BeginFree | Discard | Place | Stop | Pass
