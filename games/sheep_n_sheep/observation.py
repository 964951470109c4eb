"""What one seat (or a spectator) may see of a Sheep 'n' Sheep game."""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


# A pasture as observations show it: (x, y, card) per placed card, in cell order.
PastureView = tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class Placement:
    """The placement in progress and what it still allows.

    kind: "same", "run", "discard" (B c before its discard) or "free" (B c after it).
    same: `number` is the number every card must have, `tip` the cell the next
    card must touch (None while the first card of an empty pasture is pending).
    run: `up_tip`/`up_next` and `down_tip`/`down_next` are the branch tips and
    the numbers they take next (None when no number follows: past 5 or 1, or
    no descending branch on a run begun on an empty pasture; a tip boxed in by
    cards keeps its number, the legal actions alone show it has no free cell).
    """

    kind: str
    start: Cell | None
    placed: int
    number: int | None = None
    tip: Cell | None = None
    up_tip: Cell | None = None
    up_next: int | None = None
    down_tip: Cell | None = None
    down_next: int | None = None


@dataclass(frozen=True, slots=True)
class SheepNSheepObservation:
    """`hand` is the viewer's own hand (empty for a spectator); cards are ids.

    `pastures[s]` lists seat s's cards as (x, y, card), sorted by cell.
    `last_turn` is the index of the game's final turn once the end is triggered.
    """

    seat: int | None
    players: int
    to_move: int | None
    phase: str
    turn: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    market: tuple[tuple[int, int], ...]
    pastures: tuple[PastureView, ...]
    deck_size: int
    stock_size: int
    discard: tuple[int, ...]
    end_triggered: bool
    last_turn: int | None
    placement: Placement | None
