"""The movement stage: placing, stepping, rocketing and sliding a dog, and the
effect of the card it lands on (sheep, shepherd, rocket, blocking sheep,
bomb, and the wolf, which hands its holder an opponent's dog to push)."""

from __future__ import annotations

from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import (
    PlaceDog,
    UseCard,
)
from games.sheep_showdown.decisions import (
    ACTION_CARDS,
    BLOCKER,
    NO_ROCKETS,
    ROCKET,
    SHEPHERD,
    USE_CARD,
    WOLF_DOG,
)
from games.sheep_showdown.events import (
    BlockerDiscarded,
    BombExploded,
    CardDeclined,
    CardTaken,
    DogMoved,
    DogOut,
    DogPlaced,
    ShepherdStays,
    WolfNoTarget,
)
from games.sheep_showdown.fields import SheepShowdownFields


class Moves(SheepShowdownFields):
    """Moving dogs and carrying out cards; mixed into SheepShowdownState."""

    def _do_place(self, action: PlaceDog) -> None:
        cell = action.row * self.size + action.col
        seat, dog = self.place_queue.pop(0)
        self.pos[dog] = cell
        self.occ[cell] = dog
        self._emit(DogPlaced(seat, dog, action.row, action.col))
        if self.place_queue:
            self._ask_place()
        else:
            # Through _advance, so that a round in which only one dog can step
            # once all are placed starts with that player's two last moves.
            self._advance((self._first_mover() - 1) % self.players)

    def _move_dog(self, dog: int, target: int, how: str) -> None:
        source = self.pos[dog]
        size = self.size
        if self.occ[source] == dog:
            self.occ[source] = -1
        self.pos[dog] = target
        self.occ[target] = dog
        self._emit(
            DogMoved(
                dog // self.dogs_per,
                dog,
                source // size,
                source % size,
                target // size,
                target % size,
                how,
                self.decider,
            )
        )

    def _do_step(self, dog: int, d: int, how: str) -> None:
        self.rockets = NO_ROCKETS
        self._arrive(dog, self.step[self.pos[dog] * 8 + d], d, how)

    def _do_rocket(self, d: int) -> None:
        dog = self.moving
        here = self.pos[dog]
        mid = self.step[here * 8 + d]
        self._arrive(dog, self.step[mid * 8 + d], d, "rocket")

    def _arrive(self, dog: int, cell: int, d: int, how: str) -> None:
        """`dog` arrives on `cell` moving in direction d; carry out the card.

        A dog a wolf pushed onto an action card only carries it out if the wolf's
        player chooses to ("you may execute the action of that card")."""
        while True:
            self._move_dog(dog, cell, how)
            card = self.grid[cell]
            if how == "wolf" and card in ACTION_CARDS and self._can_carry_out(card):
                self.pending = USE_CARD
                self.moving = dog
                self.entered = d
                return
            if card != C.SLIDING:
                break
            cell = self.step[cell * 8 + d]
            how = "slide"
        self._effect(dog, cell, card)

    def _can_carry_out(self, card: int) -> bool:
        return card != C.SHEPHERD or bool(self._free_shepherds())

    def _do_use_card(self, action: UseCard) -> None:
        dog = self.moving
        cell = self.pos[dog]
        d = self.entered
        self.entered = -1
        if not action.use:
            self._emit(CardDeclined(dog // self.dogs_per, dog, action.card, self.decider))
            self._chain_done()
        elif action.card == C.SLIDING:
            self._arrive(dog, self.step[cell * 8 + d], d, "slide")
        else:
            self._effect(dog, cell, action.card)

    def _effect(self, dog: int, cell: int, card: int) -> None:
        """Carry out the card at `cell` that `dog` now stands on (not a sliding sheep)."""
        size = self.size
        owner = dog // self.dogs_per
        if C.SHEEP1 <= card <= C.SHEEP5:
            self.grid[cell] = C.EMPTY
            self.flocks[owner].append(card)
            self._emit(CardTaken(owner, dog, card, cell // size, cell % size))
            self._chain_done()
        elif card == C.SHEPHERD:
            if self._free_shepherds():
                self.pending = SHEPHERD
                self.moving = dog
            else:
                self._emit(ShepherdStays(owner, dog))
                self._chain_done()
        elif card == C.ROCKET:
            self.rockets = self.rockets | {cell}
            self.pending = ROCKET
            self.moving = dog
        elif card == C.BLOCKING:
            self.grid[cell] = C.EMPTY
            if self._block_targets():
                self.pending = BLOCKER
                self.moving = dog
            else:
                self.removed.append(C.BLOCKING)
                self._emit(BlockerDiscarded(self.decider))
                self._chain_done()
        elif card == C.BOMB:
            self._explode(dog, cell)
            self._chain_done()
        elif card == C.WOLF:
            self.grid[cell] = C.EMPTY
            self.flocks[owner].append(C.WOLF)
            self._emit(CardTaken(owner, dog, C.WOLF, cell // size, cell % size))
            # The wolf's holder pushes one of their opponents' dogs.
            self.decider = owner
            self.exclude = dog
            if self._wolf_targets():
                self.pending = WOLF_DOG
                self.moving = -1
            else:
                self._emit(WolfNoTarget(owner))
                self._chain_done()
        else:  # pragma: no cover - _can_enter forbids everything else
            raise AssertionError(f"dog {dog} arrived on card {card}")

    def _explode(self, dog: int, cell: int) -> None:
        size = self.size
        removed = 0
        for target in self.geo.around[cell]:
            card = self.grid[target]
            if card >= C.BLOCKED_FLAG:
                self.removed.append(card ^ C.BLOCKED_FLAG)
                self.removed.append(C.BLOCKING)
                removed += 2
            elif card != C.EMPTY:
                self.removed.append(card)
                removed += 1
            self.grid[target] = C.EMPTY
        self._emit(BombExploded(dog // self.dogs_per, dog, cell // size, cell % size, removed))
        for target in self.geo.around[cell]:
            victim = self.occ[target]
            if victim >= 0 and not self.out[victim]:
                self.out[victim] = True
                self.bomb_out.append(victim)
                self._emit(DogOut(victim // self.dogs_per, victim, "bomb", self.turn_player))
