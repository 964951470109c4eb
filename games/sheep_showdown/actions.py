"""The actions of Sheep Showdown: one small decision each.

Cells are given as (row, col), row 0 at the top. Directions are 0 up, 1 right,
2 down, 3 left, and the diagonals 4 up-right, 5 down-right, 6 down-left, 7
up-left (only a step onto a sliding sheep goes diagonally). Dogs are numbered
seat * dogs_per_player + j.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.sheep_showdown.cards import CARD_NAMES, DIRECTIONS


def cell_name(row: int, col: int) -> str:
    """A short cell name: column letter and row number from 1, like "c4"."""
    return f"{chr(ord('a') + col)}{row + 1}"


@dataclass(frozen=True, slots=True)
class PlaceDog:
    """Set-up: put `dog` on the free shepherd card at (row, col)."""

    dog: int
    row: int
    col: int

    @property
    def label(self) -> str:
        return f"place dog {self.dog} on {cell_name(self.row, self.col)}"


@dataclass(frozen=True, slots=True)
class SelectDog:
    """Pick a dog: `purpose` "move" (Double Trouble: which own dog moves this turn)
    or "wolf" (which opponent dog the wolf moves)."""

    dog: int
    purpose: str

    @property
    def label(self) -> str:
        if self.purpose == "wolf":
            return f"wolf moves dog {self.dog}"
        return f"move dog {self.dog}"


@dataclass(frozen=True, slots=True)
class Step:
    """Move `dog` one cell in `direction` (its own turn's step, or a wolf's push;
    either may go diagonally, but only onto a sliding sheep)."""

    dog: int
    direction: int

    @property
    def label(self) -> str:
        return f"step dog {self.dog} {DIRECTIONS[self.direction]}"


@dataclass(frozen=True, slots=True)
class ShepherdJump:
    """Shepherd card: move `dog` to the free shepherd card at (row, col)."""

    dog: int
    row: int
    col: int

    @property
    def label(self) -> str:
        return f"dog {self.dog} to shepherd {cell_name(self.row, self.col)}"


@dataclass(frozen=True, slots=True)
class RocketJump:
    """Rocket sheep: `dog` jumps two cells in `direction`."""

    dog: int
    direction: int

    @property
    def label(self) -> str:
        return f"rocket dog {self.dog} {DIRECTIONS[self.direction]}"


@dataclass(frozen=True, slots=True)
class PlaceBlocker:
    """Blocking sheep: cover the sheep card at (row, col)."""

    row: int
    col: int

    @property
    def label(self) -> str:
        return f"block {cell_name(self.row, self.col)}"


@dataclass(frozen=True, slots=True)
class Steal:
    """After a turn that blocked or blew up a dog of `victim`: take one random
    face-down card from their flock (`take=True`) or decline."""

    victim: int
    take: bool

    @property
    def label(self) -> str:
        return f"steal from seat {self.victim}" if self.take else "decline"


@dataclass(frozen=True, slots=True)
class UseCard:
    """A wolf pushed `dog` onto an action card (`card`, a card code): the wolf's
    player carries out its action with that dog (`use=True`) or declines."""

    dog: int
    card: int
    use: bool

    @property
    def label(self) -> str:
        if not self.use:
            return "decline"
        return f"carry out the {CARD_NAMES[self.card]} with dog {self.dog}"


SheepShowdownAction = (
    PlaceDog | SelectDog | Step | ShepherdJump | RocketJump | PlaceBlocker | Steal | UseCard
)
