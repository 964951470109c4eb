"""Moving sheep between areas, and drawing sheep from the pile to fill an area
(reshuffling the discard when the pile runs out)."""

from __future__ import annotations

from games.stubborn_sheep.events import (
    SheepMoved,
    SheepPlaced,
    SheepReshuffled,
)
from games.stubborn_sheep.fields import StubbornSheepFields


class Pasture(StubbornSheepFields):
    """Sheep moves and refills; mixed into StubbornSheepState."""

    def _move(self, card: int, src: int, dst: int, fence: int, cause: int) -> None:
        self.areas[src].remove(card)
        self.areas[dst].append(card)
        self._emit(SheepMoved(cause, card, src, dst, fence))

    def _draw_sheep(self) -> int:
        if not self.sheep_pile:
            if not self.discard:
                return -1
            self.sheep_pile = self.discard
            self.discard = []
            self.rng.shuffle(self.sheep_pile)
            self._emit(SheepReshuffled(len(self.sheep_pile)))
        return self.sheep_pile.pop()

    def _fill(self, area: int, target: int, reason: str) -> None:
        cards = []
        have = self.areas[area]
        while len(have) < target:
            card = self._draw_sheep()
            if card < 0:
                break
            have.append(card)
            cards.append(card)
        if cards:
            self._emit(SheepPlaced(area, tuple(cards), reason))

    def _add(self, area: int, count: int, reason: str) -> None:
        self._fill(area, len(self.areas[area]) + count, reason)
