"""The 100 sheep cards, loaded once from the reconstruction in cards.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

COLOURS: tuple[str, ...] = ("white", "black", "brown", "pink", "blue", "grey")
ICONS: tuple[str, ...] = ("none", "bell", "heart", "star", "one_vp", "draw")
NONE, BELL, HEART, STAR, ONE_VP, DRAW = range(len(ICONS))
DECK_SIZE = 100

_COLOUR_LETTER = {"white": "W", "black": "K", "brown": "N", "pink": "P", "blue": "B", "grey": "G"}
_ICON_LETTER = {"none": "", "bell": "b", "heart": "h", "star": "s", "one_vp": "v", "draw": "d"}


@dataclass(frozen=True, slots=True)
class Card:
    """One sheep card. `condition` is the exact group size that scores `vp`."""

    id: int
    colour: str
    number: int
    condition: int
    vp: int
    icon: str

    @property
    def code(self) -> str:
        """A short picture of the card: colour letter, number, icon letter (e.g. "G3b")."""
        return f"{_COLOUR_LETTER[self.colour]}{self.number}{_ICON_LETTER[self.icon]}"

    @property
    def text(self) -> str:
        icon = "" if self.icon == "none" else f" with {self.icon.replace('_', '-')}"
        return f"{self.colour} {self.number}{icon} (#{self.id})"


def load_cards(text: str | None = None) -> tuple[Card, ...]:
    """Parse the card list (the packaged cards.toml unless `text` is given)."""
    if text is None:
        text = resources.files(__package__).joinpath("cards.toml").read_text(encoding="utf-8")
    rows = tomllib.loads(text)["cards"]
    cards = tuple(Card(**row) for row in rows)
    if [card.id for card in cards] != list(range(len(cards))):
        raise ValueError("card ids must be 0..n-1 in order")
    return cards


CARDS: tuple[Card, ...] = load_cards()

# Flat per-id tables: the engine's hot paths index these instead of Card objects.
NUMBER: tuple[int, ...] = tuple(card.number for card in CARDS)
COLOUR: tuple[int, ...] = tuple(COLOURS.index(card.colour) for card in CARDS)
ICON: tuple[int, ...] = tuple(ICONS.index(card.icon) for card in CARDS)
CONDITION: tuple[int, ...] = tuple(card.condition for card in CARDS)
VP: tuple[int, ...] = tuple(card.vp for card in CARDS)
# Cards with the same face are interchangeable; the engine offers only one of them.
FACE: tuple[int, ...] = tuple((COLOUR[i] * 8 + ICON[i]) * 8 + NUMBER[i] for i in range(len(CARDS)))
# Every id of each face, lowest first: which copy of a face a seat shows is
# decided from what everybody has seen (see SheepNSheepState._reveal).
COPIES: dict[int, tuple[int, ...]] = {
    face: tuple(i for i in range(len(CARDS)) if FACE[i] == face) for face in set(FACE)
}
