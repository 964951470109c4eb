"""Board queries: where a dog may step, rocket or be sent, and the legal actions
of the pending decision. Read-only: nothing here changes the state."""

from __future__ import annotations

from typing import Any, Literal, overload

from games.sheep_showdown import cards as C
from games.sheep_showdown import decisions
from games.sheep_showdown.actions import (
    PlaceBlocker,
    PlaceDog,
    RocketJump,
    SelectDog,
    ShepherdJump,
    Steal,
    Step,
    UseCard,
)
from games.sheep_showdown.fields import SheepShowdownFields


class BoardQueries(SheepShowdownFields):
    """Where dogs may go; mixed into SheepShowdownState."""

    def _can_enter(self, cell: int, d: int, used: frozenset[int]) -> bool:
        """May a dog moving in direction d arrive on `cell` (effects included)?"""
        if cell < 0 or self.occ[cell] >= 0:
            return False
        card = self.grid[cell]
        if card == C.EMPTY or card >= C.BLOCKED_FLAG:
            return False
        if card == C.SLIDING:
            return self._can_enter(self.step[cell * 8 + d], d, used)
        if card == C.ROCKET:
            if cell in used:
                return False
            return self._rocket_dirs(cell, used | {cell}, True)
        return True

    @overload
    def _rocket_dirs(self, cell: int, used: frozenset[int], any_one: Literal[True]) -> bool: ...

    @overload
    def _rocket_dirs(
        self, cell: int, used: frozenset[int], any_one: Literal[False]
    ) -> list[int]: ...

    def _rocket_dirs(self, cell: int, used: frozenset[int], any_one: bool) -> bool | list[int]:
        """The directions a rocket at `cell` can jump (or just whether any exists)."""
        step = self.step
        occ = self.occ
        found: list[int] = []
        for d in C.ORTHOGONAL:
            mid = step[cell * 8 + d]
            if mid < 0 or occ[mid] >= 0:
                continue
            if self._can_enter(step[mid * 8 + d], d, used):
                if any_one:
                    return True
                found.append(d)
        return False if any_one else found

    @overload
    def _step_dirs(self, dog: int, any_one: Literal[True]) -> bool: ...

    @overload
    def _step_dirs(self, dog: int, any_one: Literal[False]) -> list[int]: ...

    def _step_dirs(self, dog: int, any_one: bool) -> bool | list[int]:
        """The directions `dog` can step (with the dog lifted off its cell).

        Steps are orthogonal, except that a dog may step diagonally onto a
        sliding sheep and slide on diagonally (Moose: "diagonal sliding ... is
        permitted with this card"). A wolf's push is such a step too: it "must
        be allowed according to the game rules", and these are the steps the
        rules allow."""
        here = self.pos[dog]
        occ = self.occ
        occ[here] = -1
        try:
            found: list[int] = []
            step = self.step
            grid = self.grid
            diagonal = C.DIAGONAL
            for d in C.ALL_DIRECTIONS:
                target = step[here * 8 + d]
                if d in diagonal and (target < 0 or grid[target] != C.SLIDING):
                    continue
                if self._can_enter(target, d, decisions.NO_ROCKETS):
                    if any_one:
                        return True
                    found.append(d)
            return False if any_one else found
        finally:
            occ[here] = dog

    def has_step(self, dog: int) -> bool:
        """Can `dog` move, on its own turn or pushed by a wolf (a diagonal slide counts)?"""
        return self._step_dirs(dog, True)

    def _owner(self, dog: int) -> int:
        return dog // self.dogs_per

    def _alive_dogs(self, seat: int) -> list[int]:
        base = seat * self.dogs_per
        return [dog for dog in range(base, base + self.dogs_per) if not self.out[dog]]

    def _compute_legal(self) -> tuple[Any, ...]:
        kind = self.pending
        size = self.size
        if kind == decisions.NONE:
            return ()
        if kind == decisions.PLACE:
            dog = self.moving
            return tuple(
                PlaceDog(dog, cell // size, cell % size)
                for cell, card in enumerate(self.grid)
                if card == C.SHEPHERD and self.occ[cell] < 0
            )
        if kind == decisions.CHOOSE_DOG:
            return tuple(
                SelectDog(dog, "move")
                for dog in self._alive_dogs(self.decider)
                if self.has_step(dog)
            )
        if kind in (decisions.STEP, decisions.WOLF_STEP):
            dog = self.moving
            return tuple(Step(dog, d) for d in self._step_dirs(dog, False))
        if kind == decisions.SHEPHERD:
            dog = self.moving
            return tuple(
                ShepherdJump(dog, cell // size, cell % size) for cell in self._free_shepherds()
            )
        if kind == decisions.ROCKET:
            dog = self.moving
            here = self.pos[dog]
            self.occ[here] = -1
            try:
                dirs = self._rocket_dirs(here, self.rockets, False)
            finally:
                self.occ[here] = dog
            return tuple(RocketJump(dog, d) for d in dirs)
        if kind == decisions.BLOCKER:
            return tuple(PlaceBlocker(cell // size, cell % size) for cell in self._block_targets())
        if kind == decisions.WOLF_DOG:
            return tuple(SelectDog(dog, "wolf") for dog in self._wolf_targets())
        if kind == decisions.STEAL:
            victim = self.steal_queue[0]
            return (Steal(victim, True), Steal(victim, False))
        if kind == decisions.USE_CARD:
            dog = self.moving
            card = self.grid[self.pos[dog]]
            return (UseCard(dog, card, True), UseCard(dog, card, False))
        raise AssertionError(kind)

    def _free_shepherds(self) -> list[int]:
        occ = self.occ
        return [cell for cell, card in enumerate(self.grid) if card == C.SHEPHERD and occ[cell] < 0]

    def _block_targets(self) -> list[int]:
        occ = self.occ
        return [
            cell
            for cell, card in enumerate(self.grid)
            if C.SHEEP1 <= card <= C.SHEEP5 and occ[cell] < 0
        ]

    def _wolf_targets(self) -> list[int]:
        seat = self.decider
        per = self.dogs_per
        return [
            dog
            for dog in range(len(self.pos))
            if dog // per != seat
            and not self.out[dog]
            and dog != self.exclude
            and self.has_step(dog)
        ]
