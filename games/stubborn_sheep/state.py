"""The Stubborn Sheep rules engine.

The circle: fences and areas alternate. Fence f separates area f-1 (counter-
clockwise, the printed left side of an `up` card) from area f (clockwise). Play
passes clockwise, and clockwise is a seated player's left hand. With P >= 3
players fence 2s is seat s's right fence (towards the previous player), area 2s
its pen, fence 2s+1 its left fence and area 2s+1 the meadow towards seat s+1
(the next player, on the left). Two players: seat 0 owns fences 0 (right), 1
(left) and pen 0, seat 1 fences 3 (right), 4 (left) and pen 3, fences 2 and 5
are the unowned extra fences in the middle of the meadows. Solo: fences 0
(right), 1 (left) and pen 0 are the player's, areas 1..3 meadows, fences 2, 3
unowned. The wolf starts in the meadow to the right of seat 0: area n-1.

A turn is a run of small decisions. The engine keeps a stack of pending steps
(`_tasks`) and runs them until a step needs a decision with two or more options;
a forced choice (one candidate) is applied at once.

This module holds the state's fields, set-up, the contract methods and the task
loop that dispatches each step and decision to its stage, each in its own
module and mixed in: turn (start, placing, between activations, end),
activation (fence icons and sheep jumps), pasture (moving and drawing sheep),
bonuses (the bonus_actions option), wolf (the wolf option), scoring (pen
scoring and the result) and views (observation, render).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from games.contract import Event, State, listed
from games.errors import IllegalAction
from games.positions import check_position_seed
from games.stubborn_sheep.actions import (
    StopScoring,
    TurnFence,
    UseBonus,
)
from games.stubborn_sheep.activation import Activation
from games.stubborn_sheep.bonuses import Bonuses
from games.stubborn_sheep.data import (
    BLUE_STOPS_AFTER_ONE,
    N_FENCES,
    N_SHEEP,
    UP,
)
from games.stubborn_sheep.events import (
    RED_BUMP,
    YELLOW_COMPANION,
    FenceOriented,
    SheepPlaced,
)
from games.stubborn_sheep.pasture import Pasture
from games.stubborn_sheep.phases import (
    PH_BETWEEN,
    PH_BLUE,
    PH_BLUE_MOD,
    PH_BUMP,
    PH_COMPANION,
    PH_JUMPER,
    PH_ORIENT,
    PH_OVER,
    PH_PLACE,
    PH_SCORE,
    PH_TAKES_TWO,
    PHASES,
    PROMPTS,
    STOP,
    T_BETWEEN,
    T_BUMP,
    T_COMPANIONS,
    T_END,
    T_ICON,
    T_PLACE,
    T_SCORE,
    T_START,
)
from games.stubborn_sheep.positions import (
    check_bonus,
    check_fence_pile,
    check_position,
    check_turn,
    hand_sizes,
)
from games.stubborn_sheep.scoring import Scoring, solo_rating
from games.stubborn_sheep.turn import Turn
from games.stubborn_sheep.views import Views
from games.stubborn_sheep.wolf import Wolf

__all__ = [
    "PHASES",
    "PH_BETWEEN",
    "PH_BLUE",
    "PH_BLUE_MOD",
    "PH_BUMP",
    "PH_COMPANION",
    "PH_JUMPER",
    "PH_ORIENT",
    "PH_OVER",
    "PH_PLACE",
    "PH_SCORE",
    "PH_TAKES_TWO",
    "PROMPTS",
    "T_BETWEEN",
    "T_BUMP",
    "T_COMPANIONS",
    "T_END",
    "T_ICON",
    "T_PLACE",
    "T_SCORE",
    "T_START",
    "StubbornSheepState",
    "layout",
    "solo_rating",
]

REMOVED = {1: 0, 2: 13, 3: 8, 4: 3, 5: 0}
SOLO_PILE = 10


def layout(players: int) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(positions, fence owner, area owner (-1 meadow), pen area per seat)."""
    if players == 1:
        return 4, (0, 0, -1, -1), (0, -1, -1, -1), (0,)
    if players == 2:
        return 6, (0, 0, -1, 1, 1, -1), (0, -1, -1, 1, -1, -1), (0, 3)
    n = 2 * players
    fence_owner = tuple(f // 2 for f in range(n))
    area_owner = tuple(a // 2 if a % 2 == 0 else -1 for a in range(n))
    return n, fence_owner, area_owner, tuple(2 * s for s in range(players))


class StubbornSheepState(Turn, Activation, Bonuses, Pasture, Scoring, Wolf, Views, State):
    """One game of Stubborn Sheep."""

    def __init__(self, players: int, seed: int, wolf: bool = False, bonus: bool = False) -> None:
        self.players = players
        self.wolf_option = wolf
        self.bonus_option = bonus
        self.rng = random.Random(seed)
        n, fence_owner, area_owner, pens = layout(players)
        self.n = n
        self.fence_owner = fence_owner
        self.area_owner = area_owner
        self.pens = pens
        self.meadows = tuple(a for a in range(n) if area_owner[a] < 0)
        self.areas = [[] for _ in range(n)]
        self.stacks = [[] for _ in range(n)]
        self.orient = [UP] * n
        self.hands = [[] for _ in range(players)]
        self.fence_pile = []
        self.fence_box = []
        self.sheep_pile = []
        self.discard = []
        self.scored = [[[], [], [], []] for _ in range(players)]
        self.wolf = self.n - 1 if wolf else -1
        self.current = 0
        self.turn = 0
        self.final_left = -1
        self.used = 0
        self.queue = []
        self.activated = []
        self.activating = -1
        self.icon = -1  # icon of `activating` being resolved (see `observation`)
        self.setup_order = []
        self.phase = -1
        self.ctx = ()
        # None: a scoring decision whose options are listed only when asked for
        # (they can run into the thousands, and search bots apply every one).
        self._legal = ()
        self._legal_index = None
        self._tasks = []
        self._events = []

    # ----------------------------------------------------------------- setup

    @classmethod
    def new_game(cls, players: int, seed: int, wolf: bool, bonus: bool) -> StubbornSheepState:
        state = cls(players, seed, wolf, bonus)
        state._setup()
        return state

    def _setup(self) -> None:
        rng = self.rng
        fences = list(range(N_FENCES))
        rng.shuffle(fences)
        # Two per player as their left and right fences, then the 2-player extras.
        for seat in range(self.players):
            pen = self.pens[seat]
            self.stacks[pen].append(fences.pop())
            self.stacks[(pen + 1) % self.n].append(fences.pop())
        for f in range(self.n):
            if not self.stacks[f]:
                self.stacks[f].append(fences.pop())
        if self.players == 1:
            self.fence_box = fences[: len(fences) - SOLO_PILE]
            fences = fences[len(fences) - SOLO_PILE :]
        else:
            removed = REMOVED[self.players]
            self.fence_box = fences[:removed]
            fences = fences[removed:]
        rng.shuffle(fences)
        self.fence_pile = fences
        for seat in range(self.players):
            self.hands[seat].append(self.fence_pile.pop())
        self.sheep_pile = list(range(N_SHEEP))
        rng.shuffle(self.sheep_pile)
        events = self._events
        for a in range(self.n):
            want = 1 if self.area_owner[a] >= 0 else 4
            cards = tuple(self.sheep_pile.pop() for _ in range(want))
            self.areas[a].extend(cards)
            events.append(Event(SheepPlaced(a, cards, "setup")))
        self.setup_order = self.orient_order()
        self._next_orient()

    def orient_order(self) -> list[int]:
        """The fences turned or kept at setup, in seat order: each player's own
        two (solo: all four, which the solo player draws and places)."""
        if self.players == 1:
            return list(range(self.n))
        return [f for seat in range(self.players) for f in self._own(seat)]

    def _orienting_seat(self, fence: int) -> int:
        return 0 if self.players == 1 else self.fence_owner[fence]

    def _own(self, seat: int) -> tuple[int, int]:
        """The seat's (right, left) fences: circle order, the left one clockwise."""
        pen = self.pens[seat]
        return pen, (pen + 1) % self.n

    def _next_orient(self) -> None:
        if self.setup_order:
            f = self.setup_order[0]
            self._decide(PH_ORIENT, (f,), (TurnFence(f, False), TurnFence(f, True)))
        else:
            self._tasks.append((T_START,))

    @classmethod
    def from_position(
        cls,
        players: int,
        *,
        areas: Sequence[Iterable[int]],
        fences: Sequence[int] | None = None,
        orientations: Sequence[int] | None = None,
        hands: Sequence[Iterable[int]] | None = None,
        scored: Sequence[Sequence[Iterable[int]]] | None = None,
        sheep_pile: Iterable[int] | None = None,
        discard: Iterable[int] = (),
        fence_pile: Iterable[int] | None = None,
        wolf: int | None = None,
        bonus: bool = False,
        current: int = 0,
        start: str = "turn",
        seed: int = 0,
        final_left: int = -1,
        turn: int | None = None,
    ) -> StubbornSheepState:
        """A hand-built position (tests, puzzles, search), at the start of
        `current`'s turn (`start="turn"`, restock first), at its placement
        (`"place"`) or at its scoring step (`"score"`). Sheep not named go to the
        sheep pile, or to the discard pile when `sheep_pile` is given; fences not
        named go to the fence pile, or out of the game when `fence_pile` is given
        or in the final round (piles are drawn from their end). Turns count from
        0, turn t being seat t mod `players`'s: `turn` defaults to `current`, the
        first round. A card named twice, a card that does not exist, a part of the
        wrong size, a scored sheep in another colour's pile, a wolf outside the
        meadows (None or -1: no wolf), a seed that is not a whole number, a bool
        for a seat, area or orientation, a turn that is not `current`'s or a hand
        no game holds at that point (see `positions.hand_sizes`, which also gives
        the default hands) is a ValueError."""
        if type(players) is not int or players not in REMOVED:
            raise ValueError(f"players {players!r}: this game is for 1 to 5")
        check_position_seed(seed)
        check_bonus(bonus)
        state = cls(players, seed, wolf not in (None, -1), bonus)
        n = state.n
        state.areas = [list(cards) for cards in areas]
        tops = list(fences) if fences is not None else list(range(n))
        state.stacks = [[card] for card in tops]
        state.orient = list(orientations) if orientations is not None else [UP] * n
        if hands is None:
            sizes = hand_sizes(players, current, start, final_left)
            hands = [[n + seat] * size for seat, size in enumerate(sizes)]
        state.hands = [list(hand) for hand in hands]
        if scored is not None:
            state.scored = [[list(pile) for pile in piles] for piles in scored]
        state.discard = list(discard)
        named = [card for area in state.areas for card in area]
        named += state.discard
        named += [card for piles in state.scored for pile in piles for card in pile]
        if sheep_pile is not None:
            state.sheep_pile = list(sheep_pile)
            named += state.sheep_pile
        named_fences = tops + [card for hand in state.hands for card in hand]
        if fence_pile is not None:
            state.fence_pile = list(fence_pile)
            named_fences += state.fence_pile
        check_position(
            players,
            n,
            state.meadows,
            areas=state.areas,
            fences=tops,
            orientations=state.orient,
            hands=state.hands,
            scored=state.scored,
            sheep=named,
            fence_cards=named_fences,
            wolf=wolf,
            current=current,
            start=start,
            final_left=final_left,
        )
        named_set, named_fence_set = set(named), set(named_fences)
        unnamed = [c for c in range(N_SHEEP) if c not in named_set]
        if sheep_pile is None:
            state.sheep_pile = unnamed
        else:
            state.discard.extend(unnamed)
        unnamed_fences = [c for c in range(N_FENCES) if c not in named_fence_set]
        if fence_pile is None and final_left == -1:
            state.fence_pile = unnamed_fences
        else:  # the final round's pile is empty: the draw that emptied it began the round
            state.fence_box = unnamed_fences
        check_fence_pile(state.fence_pile, final_left)
        state.wolf = wolf if wolf is not None else -1
        state.current = current
        state.turn = current if turn is None else check_turn(players, current, turn)
        state.final_left = final_left
        if start == "turn":
            state._tasks.append((T_START,))
        else:
            state._begin_turn_bookkeeping()
            state._tasks.append((T_SCORE,) if start == "score" else (T_PLACE,))
        state._run()
        state._events = []
        return state

    # -------------------------------------------------------------- contract

    @property
    def to_move(self) -> int | None:
        if self.phase == PH_OVER:
            return None
        if self.phase == PH_ORIENT:
            return self._orienting_seat(self.ctx[0])
        return self.current

    def legal_actions(self) -> tuple[Any, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = (STOP, *self.score_options())
            self._legal_index = {action: action for action in legal}
        return legal

    def prompt(self) -> str:
        return PROMPTS[self.phase]

    def apply(self, original: Any) -> list[Event]:
        if self.phase == PH_OVER:
            raise IllegalAction("the game is over")
        # The listed value is played, not `original`: an equal copy may hold 0 for False.
        action = listed(self.legal_actions(), original, self._legal_index)
        if action is None:
            raise IllegalAction(f"{original!r} is not legal now ({PROMPTS[self.phase]})")
        events: list[Event] = []
        self._events = events
        phase = self.phase
        self.phase = -1
        self._resolve(phase, action)
        self._run()
        return events

    def clone(self) -> StubbornSheepState:
        other = object.__new__(StubbornSheepState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.areas = [list(a) for a in self.areas]
        other.stacks = [list(s) for s in self.stacks]
        other.orient = list(self.orient)
        other.hands = [list(h) for h in self.hands]
        other.fence_pile = list(self.fence_pile)
        other.fence_box = list(self.fence_box)
        other.sheep_pile = list(self.sheep_pile)
        other.discard = list(self.discard)
        other.scored = [[list(p) for p in piles] for piles in self.scored]
        other.queue = list(self.queue)
        other.activated = list(self.activated)
        other.setup_order = list(self.setup_order)
        other._tasks = list(self._tasks)
        other._events = []
        return other

    # ------------------------------------------------------------- machinery

    def _decide(self, phase: int, ctx: tuple[int, ...], legal: tuple[Any, ...] | None) -> None:
        self.phase = phase
        self.ctx = ctx
        self._legal = legal
        self._legal_index = None

    def _run(self) -> None:
        tasks = self._tasks
        while self.phase < 0:
            if not tasks:
                raise AssertionError("no decision and nothing left to do")
            task = tasks.pop()
            kind = task[0]
            if kind == T_ICON:
                self._icon(task[1], task[2])
            elif kind == T_COMPANIONS:
                self._companions(task[1], task[2], task[3], task[4])
            elif kind == T_BUMP:
                self._bump(task[1], task[2])
            elif kind == T_BETWEEN:
                self._between()
            elif kind == T_SCORE:
                self._score_step()
            elif kind == T_PLACE:
                self._place_step()
            elif kind == T_START:
                self._start_turn()
            else:
                self._end_turn()

    def _emit(self, payload: Any) -> None:
        self._events.append(Event(payload))

    def _resolve(self, phase: int, action: Any) -> None:
        ctx = self.ctx
        if phase == PH_JUMPER:
            f, k, src, dst = ctx[0], ctx[1], ctx[2], ctx[3]
            self._icon_jump(action.card, f, k, src, dst)
        elif phase == PH_COMPANION:
            src, dst, f, remaining = ctx
            self._move(action.card, src, dst, f, YELLOW_COMPANION)
            if remaining > 1:
                self._tasks.append((T_COMPANIONS, src, dst, f, remaining - 1))
        elif phase == PH_BUMP:
            area = ctx[0]
            if action.clockwise:
                self._move(action.card, area, (area + 1) % self.n, (area + 1) % self.n, RED_BUMP)
            else:
                self._move(action.card, area, (area - 1) % self.n, area, RED_BUMP)
        elif phase == PH_SCORE:
            if isinstance(action, StopScoring):
                self._tasks.append((T_END,))
            else:
                self._do_score(action)
                self._tasks.append((T_SCORE,))
        elif phase == PH_BETWEEN:
            self._resolve_between(action)
        elif phase == PH_PLACE:
            self._resolve_place(action)
        elif phase == PH_TAKES_TWO:
            src, dst, f = ctx
            companions = 1
            if isinstance(action, UseBonus):
                self._use(action)
                companions = 2
            self._tasks.append((T_COMPANIONS, src, dst, f, companions))
        elif phase == PH_BLUE_MOD:
            card, dst = ctx[0], ctx[1]
            path = [(ctx[i], ctx[i + 1]) for i in range(2, len(ctx), 2)]
            if isinstance(action, UseBonus):
                self._use(action)
                path = path[:1] if action.bonus == BLUE_STOPS_AFTER_ONE else []
            self._blue_walk(card, dst, path)
        elif phase == PH_BLUE:
            if isinstance(action, UseBonus):
                self._use(action)
                self._blue_bonus(action)
        elif phase == PH_ORIENT:
            f = ctx[0]
            if action.turn:
                self.orient[f] ^= 1
            self._emit(FenceOriented(self._orienting_seat(f), f, self.orient[f], action.turn))
            self.setup_order.pop(0)
            self._next_orient()
