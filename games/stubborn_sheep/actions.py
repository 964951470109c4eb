"""The decisions a Stubborn Sheep player takes, as small immutable values."""

from __future__ import annotations

from dataclasses import dataclass

from games.stubborn_sheep.data import BONUSES, COLOURS, ORIENTATIONS, SHEEP_COLOUR, WHITE


@dataclass(frozen=True, slots=True)
class TurnFence:
    """Setup: keep (`turn=False`) or turn one of one's own two fences."""

    fence: int
    turn: bool

    @property
    def label(self) -> str:
        return f"{'turn' if self.turn else 'keep'} fence {self.fence}"


@dataclass(frozen=True, slots=True)
class PlaceFence:
    """Play the hand card onto fence position `fence` in `orientation` (0 up, 1 down)."""

    fence: int
    orientation: int
    card: int

    @property
    def label(self) -> str:
        return (
            f"place fence card {self.card} on fence {self.fence} {ORIENTATIONS[self.orientation]}"
        )


@dataclass(frozen=True, slots=True)
class PickSheep:
    """Choose the sheep that jumps (an icon's jumper or a yellow sheep's companion)."""

    card: int

    @property
    def label(self) -> str:
        return f"pick sheep {self.card}"


@dataclass(frozen=True, slots=True)
class Bump:
    """Red ability: send `card` over the clockwise or counter-clockwise fence."""

    card: int
    clockwise: bool

    @property
    def label(self) -> str:
        return f"bump sheep {self.card} {'clockwise' if self.clockwise else 'counter-clockwise'}"


@dataclass(frozen=True, slots=True)
class Score:
    """Score a group of 3 or 4 sheep of `colour` from the pen, chosen card by card.

    `scored` (1 or 2 cards of the colour) go to the score pile, the last one on
    top; `discarded` (2 cards) go to the discard pile in this order: the white
    sheep standing in for another colour (at most 2, always discarded, "before
    discarding sheep of the chosen colour") first, then the colour's, by id.
    """

    colour: int
    scored: tuple[int, ...]
    discarded: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.scored) + len(self.discarded)

    @property
    def jokers(self) -> int:
        if self.colour == WHITE:
            return 0
        return sum(1 for card in self.discarded if SHEEP_COLOUR[card] == WHITE)

    @property
    def label(self) -> str:
        jokers = f" with {self.jokers} white" if self.jokers else ""
        keep = ", ".join(str(card) for card in self.scored)
        top = " on top" if len(self.scored) > 1 else ""
        gone = ", ".join(str(card) for card in self.discarded)
        return f"score {self.size} {COLOURS[self.colour]}{jokers}: keep {keep}{top}, discard {gone}"


@dataclass(frozen=True, slots=True)
class StopScoring:
    @property
    def label(self) -> str:
        return "stop scoring"


@dataclass(frozen=True, slots=True)
class Continue:
    """Go on with the next fence activation (or end the build step) without a bonus."""

    @property
    def label(self) -> str:
        return "continue"


@dataclass(frozen=True, slots=True)
class Decline:
    """Do not use the bonus offered now."""

    @property
    def label(self) -> str:
        return "no bonus"


@dataclass(frozen=True, slots=True)
class UseBonus:
    """Use a blue, red or yellow bonus. `fence` or `area` name its target when it has one."""

    bonus: int
    fence: int = -1
    area: int = -1

    @property
    def label(self) -> str:
        target = ""
        if self.fence >= 0:
            target = f" on fence {self.fence}"
        elif self.area >= 0:
            target = f" on area {self.area}"
        return f"bonus {BONUSES[self.bonus]}{target}"


@dataclass(frozen=True, slots=True)
class MoveSheep:
    """White bonus: move `card` over 1 or 2 fences in a direction; no ability."""

    card: int
    clockwise: bool
    fences: int

    @property
    def label(self) -> str:
        way = "clockwise" if self.clockwise else "counter-clockwise"
        return f"bonus move sheep {self.card} {self.fences} {way}"


StubbornSheepActionType = (
    TurnFence
    | PlaceFence
    | PickSheep
    | Bump
    | Score
    | StopScoring
    | Continue
    | Decline
    | UseBonus
    | MoveSheep
)


# Every action value is immutable, so the engine hands out shared instances from
# these constant tables instead of building new ones at every decision.
MAX_POSITIONS = 10
PLACE = tuple(
    tuple(tuple(PlaceFence(f, o, card) for o in (0, 1)) for f in range(MAX_POSITIONS))
    for card in range(35)
)
PICK = tuple(PickSheep(card) for card in range(78))
BUMP = tuple((Bump(card, False), Bump(card, True)) for card in range(78))
MOVES = tuple(
    (
        MoveSheep(card, False, 1),
        MoveSheep(card, False, 2),
        MoveSheep(card, True, 1),
        MoveSheep(card, True, 2),
    )
    for card in range(78)
)
