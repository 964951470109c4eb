"""The Sheep Showdown engine.

The state is flat lists of ints. A turn is a chain of small decisions: a step
(after choosing the dog in Double Trouble), then whatever the card landed on
asks for (shepherd target, rocket direction, blocking target, the dog a wolf
pushes and where). A chain never needs a stack: every card effect ends the
moving dog's chain or continues it with the same or one other dog, so one
"pending decision" record is enough.

This module holds the state's fields, set-up, the contract methods and the
final result; each stage of a turn lives in its own module and is mixed in:
board (where dogs may go, legal actions), moves (movement and card effects,
the wolf's push included), stealing (blocked dogs and steals after a chain),
rounds (turn order, last steps, round scoring), observation (views) and
positions (hand-built positions for tests).

Engine rules the rulebook leaves open (see docs/games/sheep-showdown.md):
- A dog that is out stays on its cell (in every mode) and that cell can no
  longer be entered.
- Within one dog's chain a rocket sheep it already used cannot be landed on
  again; otherwise two rockets two cells apart would let a chain loop forever.
"""

from __future__ import annotations

import random
from typing import Any

from games.contract import Event, Result, State, listed
from games.errors import IllegalAction
from games.ranking import competition_ranks
from games.sheep_showdown import cards as C
from games.sheep_showdown.board import BoardQueries
from games.sheep_showdown.decisions import (
    BLOCKER,
    CAP_FACTOR,
    CHOOSE_DOG,
    DECISIONS,
    LAST_STEPS,
    NO_ROCKETS,
    NONE,
    PLACE,
    ROCKET,
    SHEPHERD,
    STEAL,
    STEP,
    USE_CARD,
    WOLF_DOG,
    WOLF_STEP,
)
from games.sheep_showdown.events import (
    BlockerPlaced,
    RoundStarted,
)
from games.sheep_showdown.moves import Moves
from games.sheep_showdown.observation import DogView, SheepShowdownObservation, Views
from games.sheep_showdown.positions import Positions
from games.sheep_showdown.rounds import Rounds
from games.sheep_showdown.stealing import Stealing

__all__ = [
    "BLOCKER",
    "CAP_FACTOR",
    "CHOOSE_DOG",
    "DECISIONS",
    "LAST_STEPS",
    "NONE",
    "PLACE",
    "ROCKET",
    "SHEPHERD",
    "STEAL",
    "STEP",
    "USE_CARD",
    "WOLF_DOG",
    "WOLF_STEP",
    "DogView",
    "SheepShowdownObservation",
    "SheepShowdownState",
]


class SheepShowdownState(BoardQueries, Moves, Stealing, Rounds, Views, Positions, State):
    """One game of Sheep Showdown (all rounds)."""

    def __init__(
        self, players: int, seed: int, rounds: int = 3, double_trouble: bool = False
    ) -> None:
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
        self.records = []
        self._events = []
        self._cache = None
        self._reset_round_fields()
        self._start_round()
        self._events = []

    # ------------------------------------------------------------------ set-up

    def _reset_round_fields(self) -> None:
        cells = self.geo.cells
        ndogs = self.players * self.dogs_per
        self.grid = [C.EMPTY] * cells
        self.removed = []
        self.pos = [-1] * ndogs
        self.occ = [-1] * cells
        self.out = [False] * ndogs
        self.out_at = [None] * self.players
        self.flocks = [[] for _ in range(self.players)]
        self.clock = 0
        self.bonus_player = None
        self.bonus_left = 0
        self.bomb_out: list[int] = []
        self.pending = NONE
        self.moving = -1
        self.decider = -1
        self.turn_player = None
        self.exclude = -1
        self.rockets = NO_ROCKETS
        self.place_queue = []
        self.began_free = 0
        self.steal_queue = []
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

    def apply(self, original: Any) -> list[Event]:
        # The listed value is played, not `original`: an equal copy may hold 1.0 for 1.
        action = listed(self.legal_actions(), original)
        if action is None:
            raise IllegalAction(f"{original!r} is not legal now ({self.prompt()})")
        events: list[Event] = []
        self._events = events
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
            self.rockets = NO_ROCKETS
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

    # ------------------------------------------------------------------ applying

    def _emit(self, payload: Any, seat: int | None = None, redacted: Any = None) -> None:
        self._events.append(Event(payload, seat, redacted))

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
                    "rounds": [dict(per_round[seat]) for per_round in self.records],
                }
                for seat in range(self.players)
            ],
        }
        return Result(tuple(float(total) for total in self.totals), ranks, details)
