"""Helpers to build Sheep 'n' Sheep positions by hand."""

from __future__ import annotations

from collections.abc import Iterable

from games.sheep_n_sheep.cards import CARDS
from games.sheep_n_sheep.state import SheepNSheepState


def find(
    colour: str | None = None,
    number: int | None = None,
    icon: str | None = "none",
    exclude: Iterable[int] = (),
) -> int:
    """The lowest card id with these attributes (None = any) not in `exclude`."""
    skip = set(exclude)
    for card in CARDS:
        if card.id in skip:
            continue
        if colour is not None and card.colour != colour:
            continue
        if number is not None and card.number != number:
            continue
        if icon is not None and card.icon != icon:
            continue
        return card.id
    raise LookupError(f"no free card {colour} {number} {icon}")


class Picker:
    """Hands out distinct cards, so a built position never uses a card twice."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(
        self, colour: str | None = None, number: int | None = None, icon: str | None = "none"
    ) -> int:
        card = find(colour, number, icon, self.used)
        self.used.add(card)
        return card

    def filler(self, count: int) -> list[int]:
        """`count` unused cards without a draw icon (deck, stock, market padding)."""
        out = []
        for card in CARDS:
            if len(out) == count:
                break
            if card.id not in self.used and card.icon != "draw":
                out.append(card.id)
        if len(out) < count:
            raise LookupError(f"only {len(out)} filler cards left")
        self.used.update(out)
        return out

    def any(self, count: int) -> list[int]:
        """`count` unused cards of any kind."""
        return [self(icon=None) for _ in range(count)]


def two_player_position(hand: list[int], pick: Picker, **kw: object) -> SheepNSheepState:
    """A two-player position with seat 0 holding `hand`; seat 1's hand, the
    market and the deck are filler unless given."""
    market = kw.pop("market", None)
    if market is None:
        market = [tuple(pick.filler(2)) for _ in range(4)]
    deck = kw.pop("deck", None)
    if deck is None:
        deck = pick.filler(10)
    return SheepNSheepState.from_position(
        2, hands=[hand, pick.filler(2)], market=market, deck=deck, **kw
    )


def _row(cards: list[int]) -> dict[tuple[int, int], int]:
    return {(x, 0): card for x, card in enumerate(cards)}
