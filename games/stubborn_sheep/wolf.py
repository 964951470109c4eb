"""The wolf option: at the end of each turn the wolf moves to the fullest
meadow and eats the sheep of the commonest colour there."""

from __future__ import annotations

from games.stubborn_sheep.data import (
    SHEEP_COLOUR,
)
from games.stubborn_sheep.events import (
    WolfMoved,
)
from games.stubborn_sheep.fields import StubbornSheepFields


class Wolf(StubbornSheepFields):
    """The wolf's end-of-turn move; mixed into StubbornSheepState."""

    def _wolf(self) -> None:
        counts = [len(area) for area in self.areas]
        most = max(counts[m] for m in self.meadows)
        start = self.wolf
        target = start
        if counts[start] != most:
            for step in range(1, self.n):
                a = (start + step) % self.n
                if self.area_owner[a] < 0 and counts[a] == most:
                    target = a
                    break
        self.wolf = target
        area = self.areas[target]
        per_colour = [0, 0, 0, 0]
        for card in area:
            per_colour[SHEEP_COLOUR[card]] += 1
        top = max(per_colour)
        discarded: list[int] = []
        if top:
            tied = [c for c in range(4) if per_colour[c] == top]
            quota = [0, 0, 0, 0]
            if len(tied) == 1:
                quota[tied[0]] = 2
            else:
                for c in tied:
                    quota[c] = 1
            for card in list(area):
                c = SHEEP_COLOUR[card]
                if quota[c]:
                    quota[c] -= 1
                    area.remove(card)
                    discarded.append(card)
        self.discard.extend(discarded)
        self._emit(WolfMoved(start, target, tuple(discarded)))
