"""Actions, events and observations of Sheep & Garden (plain frozen data)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from games.sheep_and_garden.data import OBJECTIVE_BY_ID, TILES
from games.words import count

# Why a game ended: every tile placed, or none of the deck fits the board.
ALL_PLACED = "all tiles placed"
DEADLOCK = "no tile fits"
END_REASONS = (ALL_PLACED, DEADLOCK)


class Place(NamedTuple):
    """Place display tile `tile` at cell (x, y), turned `rotation` quarter turns clockwise."""

    tile: int
    x: int
    y: int
    rotation: int

    @property
    def label(self) -> str:
        return f"place tile {self.tile} at ({self.x},{self.y}) turned {90 * self.rotation}"


@dataclass(frozen=True, slots=True)
class Slot:
    """One objective card on the table. `holders` score it; `enemy` marks solo's enemy."""

    card: str
    holders: tuple[int, ...]
    face_up: bool
    enemy: bool = False

    def visible_to(self, seat: int | None) -> bool:
        return self.face_up or (seat is not None and seat in self.holders)


class PlacedTile(NamedTuple):
    """A tile on the landscape (a tuple: boards are hashed tile by tile)."""

    tile: int
    x: int
    y: int
    rotation: int


@dataclass(frozen=True, slots=True)
class ObjectiveView:
    """An objective slot as one viewer sees it: `card` is None when face down to them."""

    slot: int
    card: str | None
    holders: tuple[int, ...]
    face_up: bool
    enemy: bool


@dataclass(frozen=True, slots=True)
class SheepAndGardenObservation:
    players: int
    seat: int | None
    to_move: int | None
    placed: tuple[PlacedTile, ...]  # in placement order; the first is the start tile
    display: tuple[int, ...]  # solo: the one drawn tile
    deck_size: int
    objectives: tuple[ObjectiveView, ...]
    finished: bool
    end_reason: str  # "" in play, else one of END_REASONS


@dataclass(frozen=True, slots=True)
class TilePlaced:
    seat: int
    tile: int
    x: int
    y: int
    rotation: int

    @property
    def text(self) -> str:
        name = TILES[self.tile].name
        return (
            f"seat {self.seat} placed tile {self.tile} ({name}) at ({self.x},{self.y}) "
            f"turned {90 * self.rotation}"
        )


@dataclass(frozen=True, slots=True)
class TilesShown:
    """Tiles turned face up from the deck (display refill, or solo's draw)."""

    tiles: tuple[int, ...]

    @property
    def text(self) -> str:
        return "shown: " + ", ".join(f"tile {t} ({TILES[t].name})" for t in self.tiles)


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """No shown tile fitted: they went back into the deck, which was shuffled."""

    returned: tuple[int, ...]

    @property
    def text(self) -> str:
        tiles = ", ".join(str(t) for t in self.returned)
        return f"no shown tile fits: tiles {tiles} shuffled back into the deck"


@dataclass(frozen=True, slots=True)
class GameEnded:
    reason: str
    placed: int
    scores: tuple[float, ...]

    @property
    def text(self) -> str:
        scores = ", ".join(f"{s:g}" for s in self.scores)
        return f"game over ({self.reason}) after {count(self.placed, 'tile')}; scores {scores}"


def card_name(card: str) -> str:
    return OBJECTIVE_BY_ID[card].name
