"""The Sheep Showdown engine.

The state is flat lists of ints. A turn is a chain of small decisions: a step
(after choosing the dog in Double Trouble), then whatever the card landed on
asks for (shepherd target, rocket direction, blocking target, the dog a wolf
pushes and where). A chain never needs a stack: every card effect ends the
moving dog's chain or continues it with the same or one other dog, so one
"pending decision" record is enough.

Engine rules the rulebook leaves open (see docs/games/sheep-showdown.md):
- A dog that is out stays on its cell (in every mode) and that cell can no
  longer be entered.
- Within one dog's chain a rocket sheep it already used cannot be landed on
  again; otherwise two rockets two cells apart would let a chain loop forever.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.contract import Event, Result, State
from games.errors import IllegalAction
from games.ranking import competition_ranks
from games.sheep_showdown import cards as C
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
from games.sheep_showdown.events import (
    BlockerDiscarded,
    BlockerPlaced,
    BombExploded,
    CardDeclined,
    CardStolen,
    CardTaken,
    DogMoved,
    DogOut,
    DogPlaced,
    GameEnded,
    LastPlayer,
    PlayerOut,
    RoundEnded,
    RoundStarted,
    ShepherdStays,
    StealDeclined,
    WolfNoTarget,
)

# Pending decision kinds (index into DECISIONS).
(
    NONE,
    PLACE,
    CHOOSE_DOG,
    STEP,
    SHEPHERD,
    ROCKET,
    BLOCKER,
    WOLF_DOG,
    WOLF_STEP,
    STEAL,
    USE_CARD,
) = range(11)
DECISIONS = (
    "none",
    "place_dog",
    "choose_dog",
    "step",
    "shepherd",
    "rocket",
    "blocker",
    "wolf_dog",
    "wolf_step",
    "steal",
    "use_card",
)
LAST_STEPS = 2
CAP_FACTOR = 4
_NO_ROCKETS: frozenset[int] = frozenset()
# The cards whose action a wolf's player may decline for a pushed dog.
_ACTION_CARDS = frozenset((C.SHEPHERD, C.ROCKET, C.BLOCKING, C.SLIDING, C.BOMB))


@dataclass(frozen=True, slots=True)
class DogView:
    dog: int
    owner: int
    row: int | None  # None before the dog is placed
    col: int | None
    out: bool


@dataclass(frozen=True, slots=True)
class SheepShowdownObservation:
    """What one seat (or a spectator, seat None) may see."""

    seat: int | None
    players: int
    double_trouble: bool
    size: int
    round: int
    rounds: int
    first_player: int
    to_move: int | None
    turn_player: int | None
    decision: str  # one of DECISIONS
    decision_dog: int | None  # the dog the pending decision is about
    grid: tuple[int, ...]  # card code per cell, row by row; BLOCKED for covered cards
    dogs: tuple[DogView, ...]
    flock_sizes: tuple[int, ...]
    own_flock: tuple[int, ...]  # sorted card codes; empty for a spectator
    totals: tuple[int, ...]  # sum of finished rounds
    round_scores: tuple[tuple[int, ...], ...]  # per finished round, per seat
    players_in: tuple[bool, ...]
    turn: int  # turns started this round
    turn_cap: int
    last_player: int | None  # the one player left, making the last steps
    last_steps_left: int
    # Public, and needed to rebuild the exact decision (search bots sample from it):
    out_at_turn: tuple[int, ...] = ()  # per seat: the turn it went out (0 while still in)
    used_rockets: tuple[tuple[int, int], ...] = ()  # rockets the moving dog's chain used
    # The opponents' dogs that had a legal step when this turn began: only those
    # can be blocked by this turn's mover.
    free_at_turn_start: tuple[int, ...] = ()
    steal_from: tuple[int, ...] = ()  # STEAL: the victims still to decide, first is now
    entered_direction: int | None = None  # USE_CARD: the direction the pushed dog moved


class SheepShowdownState(State):
    """One game of Sheep Showdown (all rounds)."""

    def __init__(self, players: int, seed: int, rounds: int = 3, double_trouble: bool = False):
        self.players = players
        self.rounds = rounds
        self.dt = double_trouble
        self.dogs_per = 2 if double_trouble else 1
        self.size = 7 if players <= 4 else 9
        self.geo = C.geometry(self.size)
        self.step = self.geo.step
        self.cap = CAP_FACTOR * self.geo.cells
        self.rng = random.Random(seed)
        self.round = 0
        self.first_player = 0
        self.totals = [0] * players
        self.records: list[list[dict[str, Any]]] = []  # per round, per seat
        self._events: list[Event] = []
        self._cache: tuple[Any, ...] | None = None
        self._reset_round_fields()
        self._start_round()
        self._events = []

    # ------------------------------------------------------------------ set-up

    def _reset_round_fields(self) -> None:
        cells = self.geo.cells
        ndogs = self.players * self.dogs_per
        self.grid: list[int] = [C.EMPTY] * cells
        self.removed: list[int] = []
        self.pos = [-1] * ndogs
        self.occ = [-1] * cells
        self.out = [False] * ndogs
        self.out_at: list[int | None] = [None] * self.players
        self.flocks: list[list[int]] = [[] for _ in range(self.players)]
        self.clock = 0
        self.bonus_player: int | None = None
        self.bonus_left = 0
        self.bomb_out: list[int] = []
        self.pending = NONE
        self.moving = -1
        self.decider: int | None = None
        self.turn_player: int | None = None
        self.exclude = -1
        self.rockets: frozenset[int] = _NO_ROCKETS
        self.place_queue: list[tuple[int, int]] = []
        self.began_free = 0  # bit per dog: had a legal step when the turn began
        self.steal_queue: list[int] = []
        self.entered = -1

    def _start_round(self) -> None:
        self.round += 1
        self._reset_round_fields()
        cards = list(C.deck(self.size))
        self.rng.shuffle(cards)
        self.grid = C.repair_layout(cards, self.size)
        first = self.first_player
        if self.dt:
            other = 1 - first
            self.place_queue = [
                (first, first * 2),
                (other, other * 2),
                (other, other * 2 + 1),
                (first, first * 2 + 1),
            ]
        else:
            self.place_queue = [
                ((first - i) % self.players, (first - i) % self.players)
                for i in range(self.players)
            ]
        self._emit(RoundStarted(self.round, first, self.size, self._public_grid()))
        self._ask_place()

    def _ask_place(self) -> None:
        seat, dog = self.place_queue[0]
        self.pending = PLACE
        self.decider = seat
        self.moving = dog

    def _first_mover(self) -> int:
        if self.dt:
            return 1 - self.first_player
        return (self.first_player + 1) % self.players  # the last one to place

    # ------------------------------------------------------------------ contract

    @property
    def to_move(self) -> int | None:
        return self.decider if self.pending != NONE else None

    def legal_actions(self) -> tuple[Any, ...]:
        cache = self._cache
        if cache is None:
            cache = self._cache = self._compute_legal()
        return cache

    def apply(self, action: Any) -> list[Event]:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r} is not legal now ({self.prompt()})")
        self._events = events = []
        self._cache = None
        kind = self.pending
        if kind == PLACE:
            self._do_place(action)
        elif kind == CHOOSE_DOG:
            self.pending = STEP
            self.moving = action.dog
        elif kind in (STEP, WOLF_STEP):
            self._do_step(action.dog, action.direction, "step" if kind == STEP else "wolf")
        elif kind == SHEPHERD:
            target = action.row * self.size + action.col
            self._move_dog(self.moving, target, "shepherd")
            self._chain_done()
        elif kind == ROCKET:
            self._do_rocket(action.direction)
        elif kind == BLOCKER:
            target = action.row * self.size + action.col
            self.grid[target] = C.BLOCKED_FLAG | self.grid[target]
            self._emit(BlockerPlaced(self.decider, action.row, action.col))
            self._chain_done()
        elif kind == WOLF_DOG:
            self.pending = WOLF_STEP
            self.moving = action.dog
            self.rockets = _NO_ROCKETS
        elif kind == STEAL:
            self._do_steal(action)
        elif kind == USE_CARD:
            self._do_use_card(action)
        self._events = []
        return events

    def clone(self) -> SheepShowdownState:
        new = object.__new__(SheepShowdownState)
        new.players = self.players
        new.rounds = self.rounds
        new.dt = self.dt
        new.dogs_per = self.dogs_per
        new.size = self.size
        new.geo = self.geo
        new.step = self.step
        new.cap = self.cap
        # __new__ skips the seeding from os.urandom that setstate overwrites anyway
        # (search bots clone once per iteration, so this halves the cost of clone()).
        rng = random.Random.__new__(random.Random)
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.round = self.round
        new.first_player = self.first_player
        new.totals = self.totals[:]
        new.records = [[dict(rec) for rec in per_round] for per_round in self.records]
        new._events = []
        new._cache = self._cache
        new.grid = self.grid[:]
        new.removed = self.removed[:]
        new.pos = self.pos[:]
        new.occ = self.occ[:]
        new.out = self.out[:]
        new.out_at = self.out_at[:]
        new.flocks = [flock[:] for flock in self.flocks]
        new.clock = self.clock
        new.bonus_player = self.bonus_player
        new.bonus_left = self.bonus_left
        new.bomb_out = self.bomb_out[:]
        new.pending = self.pending
        new.moving = self.moving
        new.decider = self.decider
        new.turn_player = self.turn_player
        new.exclude = self.exclude
        new.rockets = self.rockets
        new.place_queue = self.place_queue[:]
        new.began_free = self.began_free
        new.steal_queue = self.steal_queue[:]
        new.entered = self.entered
        return new

    # ------------------------------------------------------------------ movement rules

    def _can_enter(self, cell: int, d: int, used: frozenset[int]) -> bool:
        """May a dog moving in direction d arrive on `cell` (effects included)?"""
        if cell < 0 or self.occ[cell] >= 0:
            return False
        card = self.grid[cell]
        if card == C.EMPTY or card >= C.BLOCKED_FLAG:
            return False
        if card == C.SLIDING:
            return self._can_enter(self.step[cell * 4 + d], d, used)
        if card == C.ROCKET:
            if cell in used:
                return False
            return self._rocket_dirs(cell, used | {cell}, True)
        return True

    def _rocket_dirs(self, cell: int, used: frozenset[int], any_one: bool) -> Any:
        """The directions a rocket at `cell` can jump (or just whether any exists)."""
        step = self.step
        occ = self.occ
        found = []
        for d in range(4):
            mid = step[cell * 4 + d]
            if mid < 0 or occ[mid] >= 0:
                continue
            if self._can_enter(step[mid * 4 + d], d, used):
                if any_one:
                    return True
                found.append(d)
        return False if any_one else found

    def _step_dirs(self, dog: int, any_one: bool) -> Any:
        """The directions `dog` can step (with the dog lifted off its cell)."""
        here = self.pos[dog]
        occ = self.occ
        occ[here] = -1
        try:
            found = []
            step = self.step
            for d in range(4):
                if self._can_enter(step[here * 4 + d], d, _NO_ROCKETS):
                    if any_one:
                        return True
                    found.append(d)
            return False if any_one else found
        finally:
            occ[here] = dog

    def has_step(self, dog: int) -> bool:
        return self._step_dirs(dog, True)

    def _owner(self, dog: int) -> int:
        return dog // self.dogs_per

    def _alive_dogs(self, seat: int) -> list[int]:
        base = seat * self.dogs_per
        return [dog for dog in range(base, base + self.dogs_per) if not self.out[dog]]

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> tuple[Any, ...]:
        kind = self.pending
        size = self.size
        if kind == NONE:
            return ()
        if kind == PLACE:
            dog = self.moving
            return tuple(
                PlaceDog(dog, cell // size, cell % size)
                for cell, card in enumerate(self.grid)
                if card == C.SHEPHERD and self.occ[cell] < 0
            )
        if kind == CHOOSE_DOG:
            return tuple(
                SelectDog(dog, "move")
                for dog in self._alive_dogs(self.decider)
                if self.has_step(dog)
            )
        if kind in (STEP, WOLF_STEP):
            dog = self.moving
            return tuple(Step(dog, d) for d in self._step_dirs(dog, False))
        if kind == SHEPHERD:
            dog = self.moving
            return tuple(
                ShepherdJump(dog, cell // size, cell % size) for cell in self._free_shepherds()
            )
        if kind == ROCKET:
            dog = self.moving
            here = self.pos[dog]
            self.occ[here] = -1
            try:
                dirs = self._rocket_dirs(here, self.rockets, False)
            finally:
                self.occ[here] = dog
            return tuple(RocketJump(dog, d) for d in dirs)
        if kind == BLOCKER:
            return tuple(PlaceBlocker(cell // size, cell % size) for cell in self._block_targets())
        if kind == WOLF_DOG:
            return tuple(SelectDog(dog, "wolf") for dog in self._wolf_targets())
        if kind == STEAL:
            victim = self.steal_queue[0]
            return (Steal(victim, True), Steal(victim, False))
        if kind == USE_CARD:
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

    # ------------------------------------------------------------------ applying

    def _emit(self, payload: Any, seat: int | None = None, redacted: Any = None) -> None:
        self._events.append(Event(payload, seat, redacted))

    def _do_place(self, action: PlaceDog) -> None:
        cell = action.row * self.size + action.col
        seat, dog = self.place_queue.pop(0)
        self.pos[dog] = cell
        self.occ[cell] = dog
        self._emit(DogPlaced(seat, dog, action.row, action.col))
        if self.place_queue:
            self._ask_place()
        else:
            self._start_turn(self._first_mover())

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
        self.rockets = _NO_ROCKETS
        self._arrive(dog, self.step[self.pos[dog] * 4 + d], d, how)

    def _do_rocket(self, d: int) -> None:
        dog = self.moving
        here = self.pos[dog]
        mid = self.step[here * 4 + d]
        self._arrive(dog, self.step[mid * 4 + d], d, "rocket")

    def _arrive(self, dog: int, cell: int, d: int, how: str) -> None:
        """`dog` arrives on `cell` moving in direction d; carry out the card.

        A dog a wolf pushed onto an action card only carries it out if the wolf's
        player chooses to ("you may execute the action of that card")."""
        while True:
            self._move_dog(dog, cell, how)
            card = self.grid[cell]
            if how == "wolf" and card in _ACTION_CARDS and self._can_carry_out(card):
                self.pending = USE_CARD
                self.moving = dog
                self.entered = d
                return
            if card != C.SLIDING:
                break
            cell = self.step[cell * 4 + d]
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
            self._arrive(dog, self.step[cell * 4 + d], d, "slide")
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

    def _chain_done(self) -> None:
        """The turn's whole chain is over: blocked dogs, then the mover's steals.

        Only a dog that could step when the turn began and cannot now was blocked
        by the mover; one already stuck goes out at the start of its own turn."""
        self.pending = NONE
        self.moving = -1
        self.exclude = -1
        self.rockets = _NO_ROCKETS
        mover = self.turn_player
        assert mover is not None
        self.decider = mover
        per = self.dogs_per
        lost = list(self.bomb_out)
        self.bomb_out = []
        free = self.began_free
        for dog in range(len(self.pos)):
            if (
                not self.out[dog]
                and dog // per != mover
                and free >> dog & 1
                and not self.has_step(dog)
            ):
                self.out[dog] = True
                lost.append(dog)
                self._emit(DogOut(dog // per, dog, "blocked", mover))
        self._mark_players_out()
        self.steal_queue = [dog // per for dog in lost if dog // per != mover]
        self._next_steal()

    def _next_steal(self) -> None:
        """Ask the mover about the next victim with a non-empty flock, or end the turn."""
        queue = self.steal_queue
        while queue and not self.flocks[queue[0]]:
            queue.pop(0)
        if queue:
            self.pending = STEAL
            self.moving = -1
            return
        self.pending = NONE
        mover = self.turn_player
        assert mover is not None
        if self.bonus_player is not None and mover == self.bonus_player:
            self.bonus_left -= 1
        self._advance(mover)

    def _do_steal(self, action: Steal) -> None:
        thief = self.decider
        assert thief is not None
        victim = self.steal_queue.pop(0)
        if action.take:
            self._steal(thief, victim)
        else:
            self._emit(StealDeclined(thief, victim))
        self._next_steal()

    def _steal(self, thief: int, victim: int) -> None:
        flock = self.flocks[victim]
        card = flock.pop(self.rng.randrange(len(flock)))
        self.flocks[thief].append(card)
        full = CardStolen(thief, victim, card)
        self._emit(full, seat=thief, redacted=CardStolen(thief, victim, None))
        self._emit(full, seat=victim, redacted=None)

    def _mark_players_out(self) -> None:
        for seat in range(self.players):
            if self.out_at[seat] is None and not self._alive_dogs(seat):
                self.out_at[seat] = self.clock
                self._emit(PlayerOut(seat, self.clock))

    def _advance(self, previous: int) -> None:
        """Start the next turn after `previous`'s, or end the round."""
        players_in = [seat for seat in range(self.players) if self.out_at[seat] is None]
        if not players_in:
            self._end_round("nobody_left")
            return
        if len(players_in) == 1:
            seat = players_in[0]
            if self.bonus_player is None:
                self.bonus_player = seat
                self.bonus_left = LAST_STEPS
                self._emit(LastPlayer(seat, LAST_STEPS))
            elif self.bonus_left <= 0:
                self._end_round("last_steps")
                return
            self._start_turn(seat)
            return
        for offset in range(1, self.players + 1):
            seat = (previous + offset) % self.players
            if self.out_at[seat] is None:
                self._start_turn(seat)
                return

    def _start_turn(self, seat: int) -> None:
        if self.clock >= self.cap:
            self._end_round("turn_cap")
            return
        self.clock += 1
        movable = []
        for dog in self._alive_dogs(seat):
            if self.has_step(dog):
                movable.append(dog)
            else:
                self.out[dog] = True
                self._emit(DogOut(seat, dog, "no_step", None))
        if not movable:
            self.out_at[seat] = self.clock
            self._emit(PlayerOut(seat, self.clock))
            if self.bonus_player == seat:
                self.bonus_left = 0
            self._advance(seat)
            return
        self.turn_player = seat
        self.decider = seat
        self.rockets = _NO_ROCKETS
        per = self.dogs_per
        free = 0
        for dog in range(len(self.pos)):
            if dog // per != seat and not self.out[dog] and self.has_step(dog):
                free |= 1 << dog
        self.began_free = free
        if len(movable) > 1:
            self.pending = CHOOSE_DOG
            self.moving = -1
        else:
            self.pending = STEP
            self.moving = movable[0]

    def _end_round(self, reason: str) -> None:
        self.pending = NONE
        self.moving = -1
        self.decider = None
        self.turn_player = None
        records = []
        scores = []
        for seat in range(self.players):
            flock = self.flocks[seat]
            sheep = sum(C.SHEEP_POINTS.get(card, 0) for card in flock)
            wolves = flock.count(C.WOLF)
            score = sheep - wolves
            scores.append(score)
            self.totals[seat] += score
            records.append(
                {
                    "round": self.round,
                    "sheep_points": sheep,
                    "wolves": wolves,
                    "round_score": score,
                    "out_at_turn": self.out_at[seat],
                }
            )
        self.records.append(records)
        self._emit(RoundEnded(self.round, reason, tuple(scores), tuple(self.totals)))
        if self.round >= self.rounds:
            result = self.result()
            self._emit(GameEnded(tuple(self.totals), result.ranks))
            return
        self.first_player = self._next_first_player()
        self._start_round()

    def _next_first_player(self) -> int:
        best = None
        for offset in range(1, self.players + 1):
            seat = (self.first_player + offset) % self.players
            if best is None or self.totals[seat] < self.totals[best]:
                best = seat
        assert best is not None
        return best

    # ------------------------------------------------------------------ views

    def _public_grid(self) -> tuple[int, ...]:
        return tuple(C.BLOCKED if card >= C.BLOCKED_FLAG else card for card in self.grid)

    def observation(self, seat: int | None) -> SheepShowdownObservation:
        size = self.size
        per = self.dogs_per
        dogs = tuple(
            DogView(
                dog,
                dog // per,
                cell // size if cell >= 0 else None,
                cell % size if cell >= 0 else None,
                self.out[dog],
            )
            for dog, cell in enumerate(self.pos)
        )
        over = self.pending == NONE
        return SheepShowdownObservation(
            seat=seat,
            players=self.players,
            double_trouble=self.dt,
            size=size,
            round=self.round,
            rounds=self.rounds,
            first_player=self.first_player,
            to_move=self.to_move,
            turn_player=self.turn_player,
            decision=DECISIONS[self.pending],
            decision_dog=None if over or self.moving < 0 else self.moving,
            grid=self._public_grid(),
            dogs=dogs,
            flock_sizes=tuple(len(flock) for flock in self.flocks),
            own_flock=tuple(sorted(self.flocks[seat])) if seat is not None else (),
            totals=tuple(self.totals),
            round_scores=tuple(
                tuple(rec["round_score"] for rec in per_round) for per_round in self.records
            ),
            players_in=tuple(at is None for at in self.out_at),
            turn=self.clock,
            turn_cap=self.cap,
            last_player=self.bonus_player,
            last_steps_left=self.bonus_left if self.bonus_player is not None else 0,
            out_at_turn=tuple(at if at is not None else 0 for at in self.out_at),
            used_rockets=tuple(divmod(cell, size) for cell in sorted(self.rockets)),
            free_at_turn_start=tuple(
                dog for dog in range(len(self.pos)) if self.began_free >> dog & 1
            ),
            steal_from=tuple(self.steal_queue) if self.pending == STEAL else (),
            entered_direction=self.entered if self.pending == USE_CARD else None,
        )

    def result(self) -> Result:
        if self.pending != NONE or len(self.records) < self.rounds:
            raise ValueError("the game is not over")
        last = self.records[-1]
        stayed = [
            rec["out_at_turn"] if rec["out_at_turn"] is not None else self.cap + 1 for rec in last
        ]
        keys = [(self.totals[seat], stayed[seat]) for seat in range(self.players)]
        ranks = competition_ranks(keys)
        details: dict[str, Any] = {
            "rounds": self.rounds,
            "double_trouble": self.dt,
            "tie_break": "later out in the final round ranks higher; still in at the end is best",
            "players": [
                {
                    "seat": seat,
                    "total": self.totals[seat],
                    "final_round_out_at_turn": last[seat]["out_at_turn"],
                    "rounds": [per_round[seat] for per_round in self.records],
                }
                for seat in range(self.players)
            ],
        }
        return Result(tuple(float(total) for total in self.totals), ranks, details)

    def prompt(self) -> str:
        kind = self.pending
        dog = self.moving
        if kind == NONE:
            return "the game is over"
        if kind == PLACE:
            return f"choose a shepherd card for dog {dog}"
        if kind == CHOOSE_DOG:
            return "choose which of your dogs moves"
        if kind == STEP:
            return f"choose where dog {dog} steps"
        if kind == SHEPHERD:
            return f"choose the shepherd card dog {dog} moves to"
        if kind == ROCKET:
            return f"choose the direction dog {dog} rockets"
        if kind == BLOCKER:
            return "choose the sheep card to cover with the blocking sheep"
        if kind == WOLF_DOG:
            return "choose the opponent dog your wolf moves"
        if kind == STEAL:
            return f"steal a random card from seat {self.steal_queue[0]}'s flock or decline"
        if kind == USE_CARD:
            card = C.CARD_NAMES[self.grid[self.pos[dog]]]
            return f"carry out the {card} with dog {dog} or decline"
        return f"choose where the wolf moves dog {dog}"

    def render(self) -> str:
        size = self.size
        lines = [
            f"Sheep Showdown round {self.round}/{self.rounds}, turn {self.clock}, "
            f"first player {self.first_player}, totals {self.totals}"
        ]
        public = self._public_grid()
        header = "   " + " ".join(chr(ord("a") + col) + " " for col in range(size))
        lines.append(header)
        for row in range(size):
            cells = []
            for col in range(size):
                cell = row * size + col
                dog = self.occ[cell]
                mark = str(dog) if dog >= 0 else " "
                if dog >= 0 and self.out[dog]:
                    mark = "x"
                cells.append(C.CARD_CHARS[public[cell]] + mark)
            lines.append(f"{row + 1:>2} " + " ".join(cells))
        lines.append("flock sizes: " + ", ".join(str(len(f)) for f in self.flocks))
        if self.pending != NONE:
            lines.append(f"seat {self.decider}: {self.prompt()}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ tests

    @classmethod
    def from_position(
        cls,
        rows: list[str],
        dogs: Mapping[int, tuple[int, int]],
        *,
        to_move: int = 0,
        players: int | None = None,
        double_trouble: bool = False,
        rounds: int = 1,
        round: int = 1,
        seed: int = 0,
        out_dogs: tuple[int, ...] = (),
        flocks: Mapping[int, list[int]] | None = None,
        first_player: int = 0,
        totals: list[int] | None = None,
    ) -> SheepShowdownState:
        """A hand-built position at the start of `to_move`'s turn.

        `rows` are strings of card characters (C.CARD_CHARS; '#' is a blocked
        1-sheep), `dogs` maps dog number to (row, col); every dog of every seat
        must be placed. Seats whose every dog is in `out_dogs` are out. Any grid
        size works (the turn cap follows it).
        """
        size = len(rows)
        per = 2 if double_trouble else 1
        if players is None:
            players = max(2, max(dogs) // per + 1)
        state = object.__new__(cls)
        state.players = players
        state.rounds = rounds
        state.dt = double_trouble
        state.dogs_per = 2 if double_trouble else 1
        state.size = size
        state.geo = C.geometry(size)
        state.step = state.geo.step
        state.cap = CAP_FACTOR * state.geo.cells
        state.rng = random.Random(seed)
        state.round = round
        state.first_player = first_player
        state.totals = list(totals) if totals is not None else [0] * players
        state.records = [
            [
                {
                    "round": r + 1,
                    "sheep_points": 0,
                    "wolves": 0,
                    "round_score": 0,
                    "out_at_turn": None,
                }
                for _ in range(players)
            ]
            for r in range(round - 1)
        ]
        state._events = []
        state._cache = None
        state._reset_round_fields()
        grid = []
        for line in rows:
            cells = line.split() if " " in line.strip() else list(line)
            if len(cells) != size:
                raise ValueError(f"row {line!r} does not have {size} cells")
            for char in cells:
                card = C.CHAR_CARDS[char]
                grid.append(C.BLOCKED_FLAG | C.SHEEP1 if card == C.BLOCKED else card)
        state.grid = grid
        for dog, (row, col) in dogs.items():
            cell = row * size + col
            state.pos[dog] = cell
            state.occ[cell] = dog
        for dog in out_dogs:
            state.out[dog] = True
        for seat in range(players):
            if not state._alive_dogs(seat):
                state.out_at[seat] = 0
        if flocks:
            for seat, flock in flocks.items():
                state.flocks[seat] = list(flock)
        # Start `to_move`'s turn the way the game would (last-player steps included).
        state._advance((to_move - 1) % players)
        state._events = []
        return state

    def decision_name(self) -> str:
        """The pending decision's kind (one of DECISIONS)."""
        return DECISIONS[self.pending]

    def cell(self, row: int, col: int) -> int:
        return row * self.size + col

    def card_at(self, row: int, col: int) -> int:
        """The public card code at (row, col)."""
        card = self.grid[row * self.size + col]
        return C.BLOCKED if card >= C.BLOCKED_FLAG else card

    def all_cards(self) -> list[int]:
        """Every card of the round: on the grid (a blocked cell holds the sheep and
        the blocking sheep), in flocks, removed, and a blocking sheep in hand."""
        cards = list(self.removed)
        for card in self.grid:
            if card >= C.BLOCKED_FLAG:
                cards.extend((card ^ C.BLOCKED_FLAG, C.BLOCKING))
            elif card != C.EMPTY:
                cards.append(card)
        for flock in self.flocks:
            cards.extend(flock)
        if self.pending == BLOCKER:
            cards.append(C.BLOCKING)
        return cards

    def cards_in_play(self) -> int:
        return len(self.all_cards())
