"""What `apply` reports. Only CardDrawn is private (its redacted form has no card)."""

from __future__ import annotations

from dataclasses import dataclass

from games.sheep_n_sheep.cards import CARDS
from games.words import noun, seats

Cell = tuple[int, int]


def _cards(ids: tuple[int, ...]) -> str:
    return " and ".join(CARDS[card].text for card in ids)


@dataclass(frozen=True, slots=True)
class SetTaken:
    seat: int
    index: int
    cards: tuple[int, int]

    @property
    def text(self) -> str:
        return f"seat {self.seat} took set {self.index}: {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class SetFormed:
    """A new market set at `index`; `from_stock` of its cards came from the stock."""

    index: int
    cards: tuple[int, int]
    from_stock: int

    @property
    def text(self) -> str:
        source = f" ({self.from_stock} from the stock)" if self.from_stock else ""
        return f"new set {self.index}{source}: {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """An extra draw for a draw icon. `card` is None in the public version."""

    seat: int
    card: int | None
    from_stock: bool

    @property
    def text(self) -> str:
        what = "a card" if self.card is None else CARDS[self.card].text
        source = " from the stock" if self.from_stock else ""
        return f"seat {self.seat} drew {what}{source} for a draw icon"


@dataclass(frozen=True, slots=True)
class EndTriggered:
    """The deck could not form a set; `last_turn` is the index of the final turn."""

    seat: int
    last_turn: int

    @property
    def text(self) -> str:
        return f"the deck ran out during seat {self.seat}'s turn: the end is triggered"


@dataclass(frozen=True, slots=True)
class PlacementBegun:
    seat: int
    kind: str  # "same", "run" or "free"
    start: Cell | None

    @property
    def text(self) -> str:
        if self.kind == "free":
            return f"seat {self.seat} places one card of their choice"
        where = "on an empty pasture" if self.start is None else f"from {self.start}"
        what = "the same number" if self.kind == "same" else "a run"
        return f"seat {self.seat} places {what} {where}"


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    seat: int
    card: int

    @property
    def text(self) -> str:
        return f"seat {self.seat} discarded {CARDS[self.card].text}"


@dataclass(frozen=True, slots=True)
class CardPlaced:
    seat: int
    card: int
    x: int
    y: int
    branch: str

    @property
    def text(self) -> str:
        side = f" ({self.branch})" if self.branch else ""
        return f"seat {self.seat} placed {CARDS[self.card].text} at ({self.x},{self.y}){side}"


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int

    @property
    def text(self) -> str:
        return f"seat {self.seat} passed"


@dataclass(frozen=True, slots=True)
class TurnEnded:
    seat: int
    turn: int

    @property
    def text(self) -> str:
        return f"seat {self.seat} ended turn {self.turn}"


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def text(self) -> str:
        scores = ", ".join(str(score) for score in self.scores)
        winners = noun(len(self.winners), "winner")
        return f"game over: scores {scores}; {winners} {seats(self.winners)}"


SheepNSheepEvent = (
    SetTaken
    | SetFormed
    | CardDrawn
    | EndTriggered
    | PlacementBegun
    | CardDiscarded
    | CardPlaced
    | Passed
    | TurnEnded
    | GameEnded
)
