"""The bonus_actions option: which bonus the current player may use now, and
the blue (restock), red (rotate) and white (move a sheep) bonus effects.
The yellow bonuses modify an activation and are offered in activation.py;
the red activate-extra/twice bonuses are offered in turn.py."""

from __future__ import annotations

from games.stubborn_sheep.actions import (
    MOVES,
    MoveSheep,
    UseBonus,
)
from games.stubborn_sheep.data import (
    BLUE,
    BONUS_COLOUR,
    MEADOW_TO_SIX,
    MOVED_COLOUR,
    PEN_PLUS_ONE,
    SHEEP_BONUS,
    SHEEP_COLOUR,
    WHITE,
)
from games.stubborn_sheep.events import (
    BONUS_MOVE,
    BonusUsed,
    FenceRotated,
)
from games.stubborn_sheep.fields import StubbornSheepFields


class Bonuses(StubbornSheepFields):
    """Bonus availability and effects; mixed into StubbornSheepState."""

    def _bonus(self, colour: int) -> int:
        """The current player's bonus of `colour` if usable now, else -1."""
        if not self.bonus_option or self.used & (1 << colour):
            return -1
        pile = self.scored[self.current][colour]
        return SHEEP_BONUS[pile[-1]] if pile else -1

    def _use(self, action: UseBonus) -> None:
        self.used |= 1 << BONUS_COLOUR[action.bonus]
        self._emit(BonusUsed(self.current, action.bonus, action.fence, action.area))

    def _blue_options(self) -> tuple[UseBonus, ...]:
        """The blue bonus, offered only where it would add at least one sheep."""
        bonus = self._bonus(BLUE)
        if bonus < 0 or not (self.sheep_pile or self.discard):
            return ()
        open_meadows = [m for m in self.meadows if m != self.wolf]
        if bonus == MEADOW_TO_SIX:
            return tuple(UseBonus(bonus, area=m) for m in open_meadows if len(self.areas[m]) < 6)
        if bonus == PEN_PLUS_ONE:
            return (UseBonus(bonus),)
        if any(len(self.areas[m]) < 5 for m in open_meadows):
            return (UseBonus(bonus),)
        return ()

    def _blue_bonus(self, action: UseBonus) -> None:
        if action.bonus == PEN_PLUS_ONE:
            self._add(self.pens[self.current], 1, "bonus")
        elif action.bonus == MEADOW_TO_SIX:
            self._fill(action.area, 6, "bonus")
        else:
            for meadow in self.meadows:
                if meadow != self.wolf:
                    self._fill(meadow, 5, "bonus")

    def _rotate(self, f: int) -> None:
        self.orient[f] ^= 1
        self._emit(FenceRotated(f, self.orient[f]))

    def _white_moves(self) -> list[MoveSheep]:
        bonus = self._bonus(WHITE)
        if bonus < 0:
            return []
        colour = MOVED_COLOUR[bonus]
        moves: list[MoveSheep] = []
        for area in self.areas:
            for card in area:
                if SHEEP_COLOUR[card] == colour:
                    moves.extend(MOVES[card])
        return moves

    def _moved_table(self, action: MoveSheep) -> list[list[int]]:
        """A copy of the table with the white bonus's move made (nothing emitted)."""
        table = [list(area) for area in self.areas]
        area = next(a for a in range(self.n) if action.card in table[a])
        step = 1 if action.clockwise else -1
        table[area].remove(action.card)
        table[(area + step * action.fences) % self.n].append(action.card)
        return table

    def _white_move(self, action: MoveSheep) -> None:
        self.used |= 1 << WHITE
        bonus = SHEEP_BONUS[self.scored[self.current][WHITE][-1]]
        self._emit(BonusUsed(self.current, bonus))
        area = next(a for a in range(self.n) if action.card in self.areas[a])
        for _ in range(action.fences):
            if action.clockwise:
                nxt = (area + 1) % self.n
                self._move(action.card, area, nxt, nxt, BONUS_MOVE)
            else:
                nxt = (area - 1) % self.n
                self._move(action.card, area, nxt, area, BONUS_MOVE)
            area = nxt
