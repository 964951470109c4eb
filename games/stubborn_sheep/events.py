"""What happens in a Stubborn Sheep game, as the engine reports it."""

from __future__ import annotations

from dataclasses import dataclass

from games.stubborn_sheep.data import BONUSES, COLOURS, ORIENTATIONS
from games.words import count

# Why a sheep moved other than by an icon.
YELLOW_COMPANION, RED_BUMP, BLUE_RUN, BONUS_MOVE = 0, 1, 2, 3
CAUSES = ("yellow companion", "red bump", "blue run", "bonus move")


def _cards(cards: tuple[int, ...]) -> str:
    return ", ".join(str(card) for card in cards) or "none"


@dataclass(frozen=True, slots=True)
class FenceOriented:
    """Setup: a player kept or turned one of their fences."""

    seat: int
    fence: int
    orientation: int
    turned: bool

    @property
    def text(self) -> str:
        verb = "turned" if self.turned else "kept"
        return f"seat {self.seat} {verb} fence {self.fence} ({ORIENTATIONS[self.orientation]})"


@dataclass(frozen=True, slots=True)
class SheepPlaced:
    """Sheep from the draw pile put face up in an area (setup, restock or a blue bonus)."""

    area: int
    cards: tuple[int, ...]
    reason: str

    @property
    def text(self) -> str:
        return f"{self.reason}: sheep {_cards(self.cards)} into area {self.area}"


@dataclass(frozen=True, slots=True)
class SheepReshuffled:
    count: int

    @property
    def text(self) -> str:
        return f"the {self.count} discarded sheep were shuffled into a new draw pile"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: int
    turn: int
    final: bool

    @property
    def text(self) -> str:
        final = " (final round)" if self.final else ""
        return f"turn {self.turn}: seat {self.seat} plays{final}"


@dataclass(frozen=True, slots=True)
class BonusUsed:
    seat: int
    bonus: int
    fence: int = -1
    area: int = -1

    @property
    def text(self) -> str:
        target = f" on fence {self.fence}" if self.fence >= 0 else ""
        target += f" on area {self.area}" if self.area >= 0 else ""
        return f"seat {self.seat} used bonus {BONUSES[self.bonus]}{target}"


@dataclass(frozen=True, slots=True)
class FencePlaced:
    seat: int
    fence: int
    card: int
    orientation: int

    @property
    def text(self) -> str:
        where = ORIENTATIONS[self.orientation]
        return f"seat {self.seat} placed fence card {self.card} on fence {self.fence} ({where})"


@dataclass(frozen=True, slots=True)
class FenceRotated:
    fence: int
    orientation: int

    @property
    def text(self) -> str:
        return f"fence {self.fence} was rotated ({ORIENTATIONS[self.orientation]})"


@dataclass(frozen=True, slots=True)
class FenceActivated:
    fence: int
    card: int
    orientation: int

    @property
    def text(self) -> str:
        where = ORIENTATIONS[self.orientation]
        return f"fence {self.fence} (card {self.card}, {where}) activates"


@dataclass(frozen=True, slots=True)
class IconJump:
    """One icon of an activated fence: `card` jumped, or -1 when no sheep of
    the colour was there and nothing moved."""

    fence: int
    icon: int
    colour: int
    from_area: int
    to_area: int
    card: int

    @property
    def text(self) -> str:
        colour = COLOURS[self.colour]
        if self.card < 0:
            return (
                f"fence {self.fence} icon {self.icon + 1}: no {colour} sheep in area "
                f"{self.from_area}, nothing jumps"
            )
        return (
            f"fence {self.fence} icon {self.icon + 1}: {colour} sheep {self.card} jumps "
            f"from area {self.from_area} to area {self.to_area}"
        )


@dataclass(frozen=True, slots=True)
class SheepMoved:
    """A sheep moved by another sheep's ability or by a white bonus, over one fence."""

    cause: int
    card: int
    from_area: int
    to_area: int
    fence: int

    @property
    def text(self) -> str:
        return (
            f"{CAUSES[self.cause]}: sheep {self.card} jumps over fence {self.fence} "
            f"from area {self.from_area} to area {self.to_area}"
        )


@dataclass(frozen=True, slots=True)
class SheepScored:
    seat: int
    colour: int
    scored: tuple[int, ...]
    discarded: tuple[int, ...]

    @property
    def text(self) -> str:
        return (
            f"seat {self.seat} scored {COLOURS[self.colour]} sheep {_cards(self.scored)}, "
            f"discarded {_cards(self.discarded)}"
        )


@dataclass(frozen=True, slots=True)
class FenceDrawn:
    """The active player drew a fence card; `card` is -1 in the public version."""

    seat: int
    card: int

    @property
    def text(self) -> str:
        if self.card < 0:
            return f"seat {self.seat} drew a fence card"
        return f"seat {self.seat} drew fence card {self.card}"


@dataclass(frozen=True, slots=True)
class FinalRound:
    seat: int

    @property
    def text(self) -> str:
        return f"seat {self.seat} drew the last fence: the final round begins"


@dataclass(frozen=True, slots=True)
class WolfMoved:
    from_area: int
    to_area: int
    discarded: tuple[int, ...]

    @property
    def text(self) -> str:
        move = (
            f"the wolf moves from area {self.from_area} to area {self.to_area}"
            if self.from_area != self.to_area
            else f"the wolf stays in area {self.to_area}"
        )
        return f"{move} and scares off sheep {_cards(self.discarded)}"


@dataclass(frozen=True, slots=True)
class GameOver:
    scores: tuple[int, ...]

    @property
    def text(self) -> str:
        # "seat 0 1 pt", as the board says "seat 0 · 1 pt": "seat 0 1" alone
        # left the seat and its score to be told apart.
        return "game over: " + ", ".join(
            f"seat {seat} {count(score, 'pt')}" for seat, score in enumerate(self.scores)
        )
