"""What one seat (or a spectator) may see of a Stubborn Sheep game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AreaView:
    """A pen (owner >= 0) or a meadow (owner -1); `sheep` in arrival order, oldest first."""

    index: int
    owner: int
    sheep: tuple[int, ...]

    @property
    def is_pen(self) -> bool:
        return self.owner >= 0


@dataclass(frozen=True, slots=True)
class FenceView:
    """A fence position. `card` is the top card, `orientation` 0 up / 1 down.

    `jumps` are its 4 icons in activation order as the card lies:
    (colour, from_area, to_area). `left_area` is the counter-clockwise area.
    """

    index: int
    owner: int
    card: int
    orientation: int
    height: int
    left_area: int
    right_area: int
    jumps: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class StubbornSheepObservation:
    seat: int | None
    players: int
    to_move: int | None
    current: int
    phase: str
    turn: int
    final_round: bool
    turns_left: int
    areas: tuple[AreaView, ...]
    fences: tuple[FenceView, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    scored: tuple[tuple[tuple[int, ...], ...], ...]
    sheep_pile: int
    discard_pile: int
    fence_pile: int
    wolf: int
    activating: int
    # The icon (0..3, activation order) of `activating` being resolved while a
    # jumper, companion, bump or yellow-bonus decision is pending; -1 otherwise.
    icon: int
    queue: tuple[int, ...]
    activated: tuple[int, ...]
    bonuses_available: tuple[int, ...]
    bonuses_used: tuple[int, ...]
    context: tuple[int, ...]
    options_wolf: bool
    options_bonus_actions: bool
