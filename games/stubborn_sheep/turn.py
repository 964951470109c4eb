"""The turn's frame: the start (restocking), placing a fence, the decisions
between fence activations, and the end (drawing a fence, the final round,
the wolf's move, the next player)."""

from __future__ import annotations

from typing import Any

from games.contract import Event
from games.stubborn_sheep.actions import (
    PLACE,
    Continue,
    MoveSheep,
    PlaceFence,
    UseBonus,
)
from games.stubborn_sheep.data import (
    ACTIVATE_EXTRA,
    ACTIVATE_TWICE,
    RED,
    ROTATE_FENCE,
    WHITE,
)
from games.stubborn_sheep.events import (
    FenceDrawn,
    FencePlaced,
    FinalRound,
    GameOver,
    TurnStarted,
)
from games.stubborn_sheep.fields import StubbornSheepFields
from games.stubborn_sheep.phases import (
    CONTINUE,
    DECLINE,
    PH_BETWEEN,
    PH_BLUE,
    PH_OVER,
    PH_PLACE,
    T_BETWEEN,
    T_PLACE,
    T_SCORE,
    T_START,
)


class Turn(StubbornSheepFields):
    """Start, placement, between activations, end; mixed into StubbornSheepState."""

    def _begin_turn_bookkeeping(self) -> None:
        self.used = 0
        self.queue = []
        self.activated = []
        self.activating = -1

    def distinct_colours(self, seat: int) -> int:
        return sum(1 for pile in self.scored[seat] if pile)

    def _start_turn(self) -> None:
        self._begin_turn_bookkeeping()
        self._emit(TurnStarted(self.current, self.turn, self.final_left >= 0))
        for meadow in self.meadows:
            if meadow != self.wolf:
                self._fill(meadow, 4, "restock")
        if self.players > 1:
            most = max(self.distinct_colours(seat) for seat in range(self.players))
            gap = most - self.distinct_colours(self.current)
            self._fill(self.pens[self.current], gap, "restock")
        self._tasks.append((T_PLACE,))
        options = self._blue_options()
        if options:
            self._decide(PH_BLUE, (), (DECLINE, *options))

    def _place_step(self) -> None:
        hand = self.hands[self.current]
        bonus = self._bonus(RED)
        if bonus == ACTIVATE_EXTRA and self.used & (1 << WHITE):
            # A white move made before the placing was made "immediately before" the
            # extra activation it was offered for: that activation comes next.
            self._decide(PH_PLACE, (), tuple(self._extra_before_placing()))
            return
        # A fence given an extra activation before the placing (the only way one is
        # activated before it) must be one the turn "would not" activate otherwise:
        # placing on it would activate it again.
        options: list[Any] = [
            place
            for card in hand
            for pair in PLACE[card][: self.n]
            for place in pair
            if place.fence not in self.activated
        ]
        if bonus == ROTATE_FENCE:
            # "Rotate a fence before activating it": before the placing, the fences
            # sure to be activated this turn are the player's own two; each only if
            # turning it would change what it moves on the table as it is.
            options.extend(
                UseBonus(bonus, fence=f)
                for f in sorted(self._own(self.current))
                if self._rotation_matters(f)
            )
        elif bonus == ACTIVATE_EXTRA:
            options.extend(self._extra_before_placing())
        if self.activated:
            # The white move goes "immediately before or after activating a fence":
            # after an extra activation made before placing,
            options.extend(self._white_moves())
        elif bonus == ACTIVATE_EXTRA:
            # or right before one, which must then still be worth offering.
            options.extend(
                move
                for move in self._white_moves()
                if self._extra_before_placing(self._moved_table(move))
            )
        self._decide(PH_PLACE, (), tuple(options))

    def _extra_before_placing(self, areas: list[list[int]] | None = None) -> list[UseBonus]:
        """The red extra activation before the placing: a fence not the player's own
        (those are activated this turn anyway), and only one whose activation would
        make a sheep jump on the table (`areas`, by default the table as it is)."""
        own = self._own(self.current)
        return [
            UseBonus(ACTIVATE_EXTRA, fence=f)
            for f in range(self.n)
            if f not in own and f not in self.activated and self._moves_a_sheep(f, areas=areas)
        ]

    def _resolve_place(self, action: Any) -> None:
        if isinstance(action, PlaceFence):
            f = action.fence
            self.hands[self.current].remove(action.card)
            self.stacks[f].append(action.card)
            self.orient[f] = action.orientation
            self._emit(FencePlaced(self.current, f, action.card, action.orientation))
            right, left = self._own(self.current)
            if f == left:
                self.queue = [f, right]
            elif f == right:
                self.queue = [f, left]
            else:
                self.queue = [f, left, right]
            self._tasks.append((T_BETWEEN,))
        elif isinstance(action, MoveSheep):
            self._white_move(action)
            self._tasks.append((T_PLACE,))
        else:
            self._use(action)
            self._tasks.append((T_PLACE,))
            if action.bonus == ROTATE_FENCE:
                self._rotate(action.fence)
            else:
                self._activate(action.fence)

    def _between(self) -> None:
        options: list[Any] = [CONTINUE]
        bonus = self._bonus(RED)
        if bonus >= 0:
            # Each red bonus only where it would change something on the table as
            # it is: an activation that makes no sheep jump changes nothing (nor does
            # the second of two in a row if the first moves nothing: same table).
            if bonus == ACTIVATE_EXTRA:
                options.extend(
                    UseBonus(bonus, fence=f)
                    for f in range(self.n)
                    if f not in self.activated and f not in self.queue and self._moves_a_sheep(f)
                )
            else:
                useful = self._moves_a_sheep if bonus == ACTIVATE_TWICE else self._rotation_matters
                if bonus == ACTIVATE_TWICE and self.activating >= 0 and useful(self.activating):
                    # "Activate a fence twice in a row": also decided right after the
                    # first of the two, the turn's last activation included.
                    options.append(UseBonus(bonus, fence=self.activating))
                if self.queue and self.queue[0] != self.activating and useful(self.queue[0]):
                    options.append(UseBonus(bonus, fence=self.queue[0]))
        options.extend(self._white_moves())
        if len(options) == 1:
            self._continue()
        else:
            self._decide(PH_BETWEEN, (), tuple(options))

    def _continue(self) -> None:
        if self.queue:
            f = self.queue.pop(0)
            self._tasks.append((T_BETWEEN,))
            self._activate(f)
        else:
            self.activating = -1
            self._tasks.append((T_SCORE,))

    def _resolve_between(self, action: Any) -> None:
        if action is CONTINUE or isinstance(action, Continue):
            self._continue()
            return
        self._tasks.append((T_BETWEEN,))
        if isinstance(action, MoveSheep):
            self._white_move(action)
            return
        self._use(action)
        if action.bonus == ROTATE_FENCE:
            self._rotate(action.fence)
        elif action.bonus == ACTIVATE_TWICE:
            self.queue.insert(0, action.fence)
        else:
            self._activate(action.fence)

    def _end_turn(self) -> None:
        seat = self.current
        if self.final_left < 0:
            if self.fence_pile:
                card = self.fence_pile.pop()
                self.hands[seat].append(card)
                self._events.append(
                    Event(FenceDrawn(seat, card), seat=seat, redacted=FenceDrawn(seat, -1))
                )
            if not self.fence_pile:
                self.final_left = self.players
                self._emit(FinalRound(seat))
        else:
            self.final_left -= 1
        if self.wolf >= 0:
            self._wolf()
        if self.final_left == 0:
            self._decide(PH_OVER, (), ())  # also forgets the last decision's index
            self._emit(GameOver(tuple(self.points(s) for s in range(self.players))))
            return
        self.current = (seat + 1) % self.players
        self.turn += 1
        self._tasks.append((T_START,))
