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
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations, permutations
from typing import Any

from games.contract import Event, Result, State
from games.errors import IllegalAction
from games.ranking import competition_ranks
from games.stubborn_sheep.actions import (
    BUMP,
    MOVES,
    PICK,
    PLACE,
    Continue,
    Decline,
    MoveSheep,
    PlaceFence,
    Score,
    StopScoring,
    TurnFence,
    UseBonus,
)
from games.stubborn_sheep.data import (
    ACTIVATE_EXTRA,
    ACTIVATE_TWICE,
    BLUE,
    BLUE_SINGLE_STEP,
    BLUE_STOPS_AFTER_ONE,
    BONUS_COLOUR,
    COLOURS,
    EFFECTIVE,
    MEADOW_TO_SIX,
    MOVED_COLOUR,
    N_FENCES,
    N_SHEEP,
    ORIENTATIONS,
    PEN_PLUS_ONE,
    RED,
    ROTATE_FENCE,
    SHEEP_BONUS,
    SHEEP_COLOUR,
    UP,
    WHITE,
    YELLOW,
    YELLOW_TAKES_TWO,
)
from games.stubborn_sheep.events import (
    BLUE_RUN,
    BONUS_MOVE,
    RED_BUMP,
    YELLOW_COMPANION,
    BonusUsed,
    FenceActivated,
    FenceDrawn,
    FenceOriented,
    FencePlaced,
    FenceRotated,
    FinalRound,
    GameOver,
    IconJump,
    SheepMoved,
    SheepPlaced,
    SheepReshuffled,
    SheepScored,
    TurnStarted,
    WolfMoved,
)
from games.stubborn_sheep.observation import AreaView, FenceView, StubbornSheepObservation

# Decision kinds.
(
    PH_ORIENT,
    PH_BLUE,
    PH_PLACE,
    PH_BETWEEN,
    PH_JUMPER,
    PH_TAKES_TWO,
    PH_COMPANION,
    PH_BUMP,
    PH_BLUE_MOD,
    PH_SCORE,
    PH_OVER,
) = range(11)
PHASES = (
    "orient",
    "blue_bonus",
    "place",
    "between",
    "jumper",
    "yellow_takes_two",
    "companion",
    "bump",
    "blue_modifier",
    "score",
    "over",
)
PROMPTS = (
    "keep or turn your fence",
    "use your blue bonus or not",
    "place your fence card",
    "continue, or use a bonus before the next activation",
    "choose which sheep jumps",
    "let the yellow sheep take 2 companions or not",
    "choose the sheep that goes with the yellow sheep",
    "choose the sheep the red sheep bumps and the side",
    "modify the blue sheep's run or not",
    "score sheep from your pen or stop",
    "the game is over",
)

# Decisions taken while one icon of the activating fence is being resolved.
_ICON_PHASES = frozenset((PH_JUMPER, PH_TAKES_TWO, PH_COMPANION, PH_BUMP, PH_BLUE_MOD))

# Steps on the task stack.
T_START, T_PLACE, T_BETWEEN, T_ICON, T_COMPANIONS, T_BUMP, T_SCORE, T_END = range(8)

REMOVED = {1: 0, 2: 13, 3: 8, 4: 3, 5: 0}
SOLO_PILE = 10
SOLO_RATINGS = (
    (5, "Woolly disaster"),
    (8, "Not great, baa..."),
    (11, "Occasional grazer"),
    (14, "Hoof honour"),
    (10**9, "Wool collector!"),
)

_CONTINUE = Continue()
_DECLINE = Decline()
_STOP = StopScoring()


def solo_rating(points: int) -> str:
    """The rulebook's solo table for a (wolf-adjusted) number of scored sheep."""
    for ceiling, name in SOLO_RATINGS:
        if points <= ceiling:
            return name
    raise AssertionError("unreachable")


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


class StubbornSheepState(State):
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
        self.areas: list[list[int]] = [[] for _ in range(n)]
        self.stacks: list[list[int]] = [[] for _ in range(n)]
        self.orient: list[int] = [UP] * n
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.fence_pile: list[int] = []
        self.fence_box: list[int] = []
        self.sheep_pile: list[int] = []
        self.discard: list[int] = []
        self.scored: list[list[list[int]]] = [[[], [], [], []] for _ in range(players)]
        self.wolf = self.n - 1 if wolf else -1
        self.current = 0
        self.turn = 0
        self.final_left = -1  # turns left in the final round, -1 before it
        self.used = 0  # bitmask of bonus colours used this turn
        self.queue: list[int] = []
        self.activated: list[int] = []
        self.activating = -1
        self.icon = -1  # icon of `activating` being resolved (see `observation`)
        self.setup_order: list[int] = []
        self.phase = -1
        self.ctx: tuple[int, ...] = ()
        # None: a scoring decision whose options are listed only when asked for
        # (they can run into the thousands, and search bots apply every one).
        self._legal: tuple[Any, ...] | None = ()
        self._legal_set: frozenset[Any] | None = None
        self._tasks: list[tuple[int, ...]] = []
        self._events: list[Event] = []

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
        self.setup_order = [f for seat in range(self.players) for f in self._own(seat)]
        self._next_orient()

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
    def custom(
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
    ) -> StubbornSheepState:
        """A hand-built position for tests, at the start of `current`'s turn
        (`start="turn"`, restock first), at its placement (`"place"`) or at its
        scoring step (`"score"`). Cards not named go to the piles (sheep pile and
        fence pile, in id order; the last id is drawn first)."""
        state = cls(players, seed, wolf is not None and wolf >= 0, bonus)
        n = state.n
        state.areas = [list(cards) for cards in areas]
        assert len(state.areas) == n
        tops = list(fences) if fences is not None else list(range(n))
        state.stacks = [[card] for card in tops]
        state.orient = list(orientations) if orientations is not None else [UP] * n
        if hands is None:
            hands = [[n + seat] for seat in range(players)]
        state.hands = [list(hand) for hand in hands]
        if scored is not None:
            state.scored = [[list(pile) for pile in piles] for piles in scored]
        state.discard = list(discard)
        used_sheep = {card for area in state.areas for card in area}
        used_sheep.update(state.discard)
        used_sheep.update(card for piles in state.scored for pile in piles for card in pile)
        if sheep_pile is None:
            state.sheep_pile = [c for c in range(N_SHEEP) if c not in used_sheep]
        else:
            state.sheep_pile = list(sheep_pile)
            used_sheep.update(state.sheep_pile)
            state.discard.extend(c for c in range(N_SHEEP) if c not in used_sheep)
        used_fences = set(tops) | {card for hand in state.hands for card in hand}
        if fence_pile is None:
            state.fence_pile = [c for c in range(N_FENCES) if c not in used_fences]
        else:
            state.fence_pile = list(fence_pile)
            used_fences.update(state.fence_pile)
            state.fence_box = [c for c in range(N_FENCES) if c not in used_fences]
        state.wolf = wolf if wolf is not None else -1
        state.current = current
        state.turn = 1
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
            return self.fence_owner[self.ctx[0]]
        return self.current

    def legal_actions(self) -> tuple[Any, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = (_STOP, *self.score_options())
            self._legal_set = frozenset(legal)
        return legal

    def prompt(self) -> str:
        return PROMPTS[self.phase]

    def apply(self, action: Any) -> list[Event]:
        legal = self.legal_actions()
        if action not in (self._legal_set if self._legal_set is not None else legal):
            raise IllegalAction(f"{action!r} is not legal now ({PROMPTS[self.phase]})")
        self._events = events = []
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
        self._legal_set = None

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

    def _bonus(self, colour: int) -> int:
        """The current player's bonus of `colour` if usable now, else -1."""
        if not self.bonus_option or self.used & (1 << colour):
            return -1
        pile = self.scored[self.current][colour]
        return SHEEP_BONUS[pile[-1]] if pile else -1

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
            self._emit(FenceOriented(self.fence_owner[f], f, self.orient[f], action.turn))
            self.setup_order.pop(0)
            self._next_orient()

    def _use(self, action: UseBonus) -> None:
        self.used |= 1 << BONUS_COLOUR[action.bonus]
        self._emit(BonusUsed(self.current, action.bonus, action.fence, action.area))

    # ------------------------------------------------------------ sheep moves

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

    # ------------------------------------------------------------------ turn

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
            self._decide(PH_BLUE, (), (_DECLINE, *options))

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

    def _place_step(self) -> None:
        hand = self.hands[self.current]
        options: list[Any] = [
            place for card in hand for pair in PLACE[card][: self.n] for place in pair
        ]
        bonus = self._bonus(RED)
        if bonus == ROTATE_FENCE:
            options.extend(UseBonus(bonus, fence=f) for f in range(self.n))
        elif bonus == ACTIVATE_EXTRA:
            own = self._own(self.current)
            options.extend(
                UseBonus(bonus, fence=f)
                for f in range(self.n)
                if f not in own and f not in self.activated
            )
        if self.activated:
            options.extend(self._white_moves())
        self._decide(PH_PLACE, (), tuple(options))

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

    def _rotate(self, f: int) -> None:
        self.orient[f] ^= 1
        self._emit(FenceRotated(f, self.orient[f]))

    def _white_moves(self) -> list[MoveSheep]:
        bonus = self._bonus(WHITE)
        if bonus < 0:
            return []
        colour = MOVED_COLOUR[bonus]
        moves = []
        for area in self.areas:
            for card in area:
                if SHEEP_COLOUR[card] == colour:
                    moves.extend(MOVES[card])
        return moves

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

    def _between(self) -> None:
        options: list[Any] = [_CONTINUE]
        bonus = self._bonus(RED)
        if bonus >= 0:
            if bonus == ACTIVATE_EXTRA:
                options.extend(
                    UseBonus(bonus, fence=f)
                    for f in range(self.n)
                    if f not in self.activated and f not in self.queue
                )
            elif self.queue:
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
        if action is _CONTINUE or isinstance(action, Continue):
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

    def _activate(self, f: int) -> None:
        if f not in self.activated:
            self.activated.append(f)
        self.activating = f
        self._emit(FenceActivated(f, self.stacks[f][-1], self.orient[f]))
        tasks = self._tasks
        tasks.append((T_ICON, f, 3))
        tasks.append((T_ICON, f, 2))
        tasks.append((T_ICON, f, 1))
        tasks.append((T_ICON, f, 0))

    def _icon(self, f: int, k: int) -> None:
        self.icon = k
        colour, side = EFFECTIVE[self.stacks[f][-1]][self.orient[f]][k]
        n = self.n
        if side == 0:
            src, dst, direction = (f - 1) % n, f, 1
        else:
            src, dst, direction = f, (f - 1) % n, -1
        candidates = [card for card in self.areas[src] if SHEEP_COLOUR[card] == colour]
        if not candidates:
            self._emit(IconJump(f, k, colour, src, dst, -1))
        elif len(candidates) == 1:
            self._icon_jump(candidates[0], f, k, src, dst)
        else:
            self._decide(
                PH_JUMPER,
                (f, k, src, dst, direction, colour),
                tuple(PICK[card] for card in candidates),
            )

    def _icon_jump(self, card: int, f: int, k: int, src: int, dst: int) -> None:
        self.areas[src].remove(card)
        self.areas[dst].append(card)
        colour = SHEEP_COLOUR[card]
        self._emit(IconJump(f, k, colour, src, dst, card))
        if colour == YELLOW:
            left = len(self.areas[src])
            if not left:
                return
            if left >= 2 and self._bonus(YELLOW) == YELLOW_TAKES_TWO:
                self._decide(PH_TAKES_TWO, (src, dst, f), (_DECLINE, UseBonus(YELLOW_TAKES_TWO)))
            else:
                self._tasks.append((T_COMPANIONS, src, dst, f, 1))
        elif colour == RED:
            self._tasks.append((T_BUMP, dst, card))
        elif colour == BLUE:
            self._blue(card, src, dst, 1 if dst == (src + 1) % self.n else -1)

    def _companions(self, src: int, dst: int, f: int, remaining: int) -> None:
        candidates = self.areas[src]
        if not candidates:
            return
        if len(candidates) == 1:
            self._move(candidates[0], src, dst, f, YELLOW_COMPANION)
            return
        self._decide(
            PH_COMPANION,
            (src, dst, f, remaining),
            tuple(PICK[card] for card in candidates),
        )

    def _bump(self, area: int, red: int) -> None:
        others = [card for card in self.areas[area] if card != red]
        if not others:
            return
        self._decide(PH_BUMP, (area, red), tuple(b for card in others for b in BUMP[card]))

    def _blue(self, card: int, src: int, dst: int, direction: int) -> None:
        n = self.n
        areas = self.areas
        elsewhere = any(
            SHEEP_COLOUR[other] == BLUE and other != card
            for a in range(n)
            if a != src
            for other in areas[a]
        )
        if not elsewhere:
            return
        path: list[tuple[int, int]] = []
        cur = dst
        while not any(SHEEP_COLOUR[other] == BLUE and other != card for other in areas[cur]):
            fence = (cur + 1) % n if direction > 0 else cur
            cur = (cur + direction) % n
            path.append((fence, cur))
        if not path:
            return
        bonus = self._bonus(YELLOW)
        if bonus == BLUE_SINGLE_STEP or (bonus == BLUE_STOPS_AFTER_ONE and len(path) >= 2):
            flat = tuple(x for step in path for x in step)
            self._decide(PH_BLUE_MOD, (card, dst, *flat), (_DECLINE, UseBonus(bonus)))
            return
        self._blue_walk(card, dst, path)

    def _blue_walk(self, card: int, cur: int, path: list[tuple[int, int]]) -> None:
        for fence, nxt in path:
            self._move(card, cur, nxt, fence, BLUE_RUN)
            cur = nxt

    # --------------------------------------------------------------- scoring

    def score_options(self) -> list[Score]:
        """Every way to score one group from the pen: "You choose which sheep are
        scored and which are discarded." The cards scored (in pile order, the last
        on top) and the two discarded are named; up to 2 whites may stand in for
        another colour, and then they are among the discarded."""
        pen = self.areas[self.pens[self.current]]
        by_colour: list[list[int]] = [[], [], [], []]
        for card in pen:
            by_colour[SHEEP_COLOUR[card]].append(card)
        whites = sorted(by_colour[WHITE])
        options: list[Score] = []
        for colour in (BLUE, RED, YELLOW, WHITE):
            cards = by_colour[colour]
            if not cards:
                continue
            max_jokers = 0 if colour == WHITE else min(2, len(whites))
            for size in (3, 4):
                for jokers in range(max_jokers + 1):
                    if len(cards) < size - jokers:
                        continue
                    joker_sets = list(combinations(whites, jokers))
                    for scored in permutations(cards, size - 2):
                        rest = sorted(card for card in cards if card not in scored)
                        for thrown in combinations(rest, 2 - jokers):
                            options.extend(
                                Score(colour, scored, stand_in + thrown) for stand_in in joker_sets
                            )
        return options

    def _can_score(self) -> bool:
        """Whether the pen holds any group `score_options` would offer."""
        counts = [0, 0, 0, 0]
        for card in self.areas[self.pens[self.current]]:
            counts[SHEEP_COLOUR[card]] += 1
        jokers = min(2, counts[WHITE])
        return counts[WHITE] >= 3 or any(
            counts[c] and counts[c] + jokers >= 3 for c in (BLUE, RED, YELLOW)
        )

    def _score_step(self) -> None:
        if not self._can_score():
            self._tasks.append((T_END,))
            return
        self._decide(PH_SCORE, (), None)

    def _do_score(self, action: Score) -> None:
        pen = self.areas[self.pens[self.current]]
        colour = action.colour
        for card in action.scored:
            pen.remove(card)
            self.scored[self.current][colour].append(card)
        for card in action.discarded:
            pen.remove(card)
        self.discard.extend(action.discarded)
        self._emit(SheepScored(self.current, colour, action.scored, action.discarded))

    # --------------------------------------------------------------- the end

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
            self.phase = PH_OVER
            self.ctx = ()
            self._legal = ()
            self._emit(GameOver(tuple(self.points(s) for s in range(self.players))))
            return
        self.current = (seat + 1) % self.players
        self.turn += 1
        self._tasks.append((T_START,))

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

    def points(self, seat: int) -> int:
        return sum(len(pile) for pile in self.scored[seat])

    def sets(self, seat: int) -> int:
        return min(len(pile) for pile in self.scored[seat])

    def result(self) -> Result:
        if self.phase != PH_OVER:
            raise ValueError("the game is not over")
        scores = tuple(float(self.points(s)) for s in range(self.players))
        keys = [(self.points(s), self.sets(s)) for s in range(self.players)]
        ranks = competition_ranks(keys)
        players = []
        for seat in range(self.players):
            entry: dict[str, Any] = {
                "seat": seat,
                "points": self.points(seat),
                "scored": {COLOURS[c]: len(self.scored[seat][c]) for c in range(4)},
                "sets": self.sets(seat),
            }
            if self.players == 1:
                rated = self.points(seat) + (3 if self.wolf_option else 0)
                entry["rating_points"] = rated
                entry["rating"] = solo_rating(rated)
            players.append(entry)
        details = {
            "players": players,
            "tie_break": "complete sets of 4 different colours",
        }
        return Result(scores, ranks, details)

    # ----------------------------------------------------------- observation

    def observation(self, seat: int | None) -> StubbornSheepObservation:
        n = self.n
        areas = tuple(AreaView(a, self.area_owner[a], tuple(self.areas[a])) for a in range(n))
        fences = []
        for f in range(n):
            card = self.stacks[f][-1]
            o = self.orient[f]
            left, right = (f - 1) % n, f
            jumps = tuple(
                (colour, left, right) if side == 0 else (colour, right, left)
                for colour, side in EFFECTIVE[card][o]
            )
            fences.append(
                FenceView(f, self.fence_owner[f], card, o, len(self.stacks[f]), left, right, jumps)
            )
        available = (
            tuple(b for b in (self._bonus(c) for c in range(4)) if b >= 0)
            if self.phase != PH_OVER
            else ()
        )
        used = tuple(c for c in range(4) if self.used & (1 << c))
        return StubbornSheepObservation(
            seat=seat,
            players=self.players,
            to_move=self.to_move,
            current=self.current,
            phase=PHASES[self.phase],
            turn=self.turn,
            final_round=self.final_left >= 0,
            turns_left=self.final_left,
            areas=areas,
            fences=tuple(fences),
            hand=tuple(self.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            scored=tuple(tuple(tuple(p) for p in piles) for piles in self.scored),
            sheep_pile=len(self.sheep_pile),
            discard_pile=len(self.discard),
            fence_pile=len(self.fence_pile),
            wolf=self.wolf,
            activating=self.activating,
            icon=self.icon if self.phase in _ICON_PHASES else -1,
            queue=tuple(self.queue),
            activated=tuple(self.activated),
            bonuses_available=available,
            bonuses_used=used,
            context=self.ctx,
            options_wolf=self.wolf_option,
            options_bonus_actions=self.bonus_option,
        )

    def render(self) -> str:
        lines = [f"turn {self.turn}, seat {self.current} to play, {PHASES[self.phase]}"]
        for a in range(self.n):
            f = a
            card = self.stacks[f][-1]
            icons = " ".join(
                f"{COLOURS[c][0]}{'<>'[s]}" for c, s in EFFECTIVE[card][self.orient[f]]
            )
            owner = self.fence_owner[f]
            lines.append(
                f"  fence {f} [{'-' if owner < 0 else owner}] card {card} "
                f"{ORIENTATIONS[self.orient[f]]}: {icons}"
            )
            kind = f"pen {self.area_owner[a]}" if self.area_owner[a] >= 0 else "meadow"
            wolf = " WOLF" if a == self.wolf else ""
            sheep = " ".join(f"{COLOURS[SHEEP_COLOUR[c]][0]}{c}" for c in self.areas[a])
            lines.append(f"  area {a} ({kind}{wolf}): {sheep}")
        for seat in range(self.players):
            piles = ", ".join(f"{COLOURS[c]} {len(self.scored[seat][c])}" for c in range(4))
            lines.append(f"  seat {seat}: {self.points(seat)} scored ({piles})")
        lines.append(
            f"  piles: sheep {len(self.sheep_pile)}, discard {len(self.discard)}, "
            f"fences {len(self.fence_pile)}"
        )
        return "\n".join(lines)
