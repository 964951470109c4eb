"""What every game's `from_position` checks alike."""

from __future__ import annotations

from games.options import brief

__all__ = ["check_position_seed", "whole_number"]


def whole_number(value: object) -> bool:
    """An int that is not a bool: True would pass for seat, area or count 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_position_seed(seed: object) -> None:
    """ValueError unless `seed` is a whole number. A position's later shuffles
    (a reshuffle, a new round's deal) come from it: None would seed them from
    the operating system, a position no one could build twice alike."""
    if not whole_number(seed):
        raise ValueError(f"seed must be a whole number, not {brief(seed)}")
