"""The Sheep 'n' Sheep game state: setup, applying decisions, turn order and the end.

Which actions each phase allows lives in legal.py, the packed cell keys in cells.py,
the read-only views (accessors, observation, prompt, render) in views.py and what a
hand-built position must be in positions.py.

Pastures are dicts from a packed cell key to a card id; the key packs (x, y)
into one int so that neighbours are key +- 1 and key +- _W.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from typing import Any

from games.contract import Event, Result, State, listed
from games.errors import IllegalAction
from games.positions import check_position_seed
from games.sheep_n_sheep import events as ev
from games.sheep_n_sheep.actions import (
    BeginFree,
    BeginRun,
    BeginSame,
    Cell,
    Discard,
    Place,
    SheepNSheepAction,
    Stop,
    TakeSet,
)
from games.sheep_n_sheep.cards import COPIES, DECK_SIZE, DRAW, FACE, ICON, NUMBER
from games.sheep_n_sheep.cells import _DIRS, _OFF, _ORIGIN, _W, pack, unpack
from games.sheep_n_sheep.legal import (
    _FREE,
    _PASS,
    _STOP,
    _TAKE,
    DISCARD,
    FREE,
    HAND_LIMIT,
    MARKET_SETS,
    OVER,
    PHASES,
    RUN,
    SAME,
    TURN,
    LegalActions,
    _distinct,
)
from games.sheep_n_sheep.observation import Placement
from games.sheep_n_sheep.positions import (
    check_cells,
    check_deck_beside_stock,
    check_deck_end,
    check_each_card_once,
    check_market_end,
    check_market_full,
    check_market_short,
    check_placement,
    check_placement_shown,
    check_seen_in_hands,
    check_shape,
    check_stock,
    check_turns,
)
from games.sheep_n_sheep.scoring import score
from games.sheep_n_sheep.views import Views

__all__ = [
    "DISCARD",
    "FREE",
    "HAND_LIMIT",
    "MARKET_SETS",
    "OVER",
    "PHASES",
    "RUN",
    "SAME",
    "TURN",
    "_DIRS",
    "_FREE",
    "_OFF",
    "_ORIGIN",
    "_PASS",
    "_STOP",
    "_TAKE",
    "_W",
    "SheepNSheepState",
    "_distinct",
    "pack",
    "unpack",
]


class SheepNSheepState(LegalActions, Views, State):
    """One game. Seat 0 starts; turns go 0, 1, ..., N-1, 0, ..."""

    __slots__ = (
        "_deck",
        "_discard",
        "_down_num",
        "_down_tip",
        "_hands",
        "_last_turn",
        "_legal",
        "_market",
        "_pasture_views",
        "_pastures",
        "_phase",
        "_placed",
        "_revealed",
        "_rng",
        "_seat",
        "_start",
        "_stock",
        "_tip",
        "_turn",
        "_up_num",
        "_up_tip",
        "players",
    )

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self._rng = random.Random(seed)
        cards = list(range(DECK_SIZE))
        self._rng.shuffle(cards)
        # The deck is drawn from its end. 2 players: half is the stock; 3: a quarter.
        stock_size = {2: DECK_SIZE // 2, 3: DECK_SIZE // 4}.get(players, 0)
        self._stock = cards[:stock_size]
        self._deck = cards[stock_size:]
        self._hands = []
        for _ in range(players):
            self._hands.append(sorted((self._deck.pop(), self._deck.pop())))
        self._market = [(self._deck.pop(), self._deck.pop()) for _ in range(MARKET_SETS)]
        # Every card whose place everybody knows: the market, the pastures, the
        # discard and the cards seen going from the market into a hand. A card
        # never becomes hidden again, so the set only grows.
        self._revealed = {card for pair in self._market for card in pair}
        self._pastures = [{} for _ in range(players)]
        # Each pasture as observations show it, with the card count it was made at
        # (a pasture only ever gains cards): rebuilt only after a placement there.
        self._pasture_views = [(0, ())] * players
        self._discard = []
        self._turn = 0
        self._seat = 0
        self._last_turn = None
        self._phase = TURN
        self._reset_placement()
        self._legal = None

    def _reset_placement(self) -> None:
        self._placed = 0
        self._start = None  # the start cell key of the placement
        self._tip = None
        self._up_tip = None
        self._down_tip = None
        self._up_num = 0
        self._down_num = 0

    # ----------------------------------------------------------------- test setup

    @classmethod
    def from_position(
        cls,
        players: int,
        *,
        hands: list[list[int]],
        market: list[tuple[int, int]],
        deck: list[int],
        stock: list[int] | None = None,
        pastures: Sequence[Mapping[Cell, int]] | None = None,
        discard: list[int] | None = None,
        seat: int = 0,
        turn: int | None = None,
        last_turn: int | None = None,
        seed: int = 0,
        phase: str = "turn",
        placement: Placement | None = None,
        seen_in_hands: list[list[int]] | None = None,
    ) -> SheepNSheepState:
        """A position built by hand (tests, puzzles, search). `deck` and `stock` are
        drawn from their end. Turn `turn` (default: `seat`) is the one being played.
        `phase` and `placement` (as an observation shows them) resume a decision
        in the middle of a placement. `seen_in_hands` names, per seat, the cards
        of its hand everybody saw it take from the market (default: none; each
        in that seat's hand).
        Each card may be named once at most (ValueError otherwise); a card left
        out of every zone is out of the game, so positions may use a few cards."""
        check_shape(players, len(hands), len(market), pastures, seat)
        turn = seat if turn is None else turn
        check_turns(players, seat, turn, last_turn, phase)
        check_cells(pastures or [])
        check_position_seed(seed)
        state = cls(players, seed)
        state._hands = [sorted(hand) for hand in hands]
        state._market = [(first, second) for first, second in market]
        state._deck = list(deck)
        state._stock = list(stock or [])
        state._pastures = [
            {pack(x, y): card for (x, y), card in (p or {}).items()}
            for p in (pastures or [{} for _ in range(players)])
        ]
        state._discard = list(discard or [])
        hidden = [*(c for hand in state._hands for c in hand), *state._deck, *state._stock]
        shown = [*(c for pair in state._market for c in pair), *state._discard]
        for pasture in state._pastures:
            shown.extend(pasture.values())
        check_each_card_once([*hidden, *shown])
        check_market_end(len(market), last_turn)
        check_market_full(players, len(market), last_turn)
        check_stock(players, state._stock)
        check_deck_end(deck, last_turn)
        check_market_short(players, len(market), len(state._deck), len(state._stock))
        check_deck_beside_stock(len(state._deck), len(state._stock), last_turn)
        check_placement(phase, placement, (pastures or [{}] * players)[seat], hands[seat])
        check_seen_in_hands(state._hands, seen_in_hands or [])
        # A card in no zone is out of this game, which everybody knows: like a
        # face-up card, no card shown is ever traded with it (see _reveal).
        state._revealed = set(range(DECK_SIZE)).difference(hidden)
        for seen in seen_in_hands or []:
            state._revealed.update(seen)
        state._seat = seat
        state._turn = turn
        state._last_turn = last_turn
        state._phase = PHASES.index(phase)
        if placement is not None:
            state._restore_placement(placement)
            as_shown = state._placement() if phase in ("same", "run") else Placement(phase, None, 0)
            assert as_shown is not None
            check_placement_shown(placement, as_shown)
        return state

    def _restore_placement(self, placement: Placement) -> None:
        """The inverse of `_placement()`: the fields the next decisions depend on."""
        self._placed = placement.placed
        if placement.kind == "same":
            self._start = None if placement.start is None else pack(*placement.start)
            self._tip = None if placement.tip is None else pack(*placement.tip)
            self._up_num = placement.number or 0
        elif placement.kind == "run" and placement.up_tip is not None:
            assert placement.start is not None
            self._start = self._tip = pack(*placement.start)
            self._up_tip = pack(*placement.up_tip)
            self._up_num = 5 if placement.up_next is None else placement.up_next - 1
            if placement.down_tip is not None:
                self._down_tip = pack(*placement.down_tip)
                self._down_num = 1 if placement.down_next is None else placement.down_next + 1

    # ----------------------------------------------------------------- contract

    @property
    def to_move(self) -> int | None:
        return None if self._phase == OVER else self._seat

    def legal_actions(self) -> tuple[SheepNSheepAction, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def apply(self, original: Any) -> list[Event]:
        # The listed value is played, not `original`: an equal copy may hold 1.0 for 1.
        action = listed(self.legal_actions(), original)
        if action is None:
            raise IllegalAction(f"{original!r} is not legal now")
        out: list[Event] = []
        seat = self._seat
        match action:
            case Place():
                self._place(action, out)
            case TakeSet():
                self._take(action.index, out)
            case Stop():
                self._end_turn(out)
            case BeginSame() | BeginRun():
                start = action.start
                same = type(action) is BeginSame
                self._phase = SAME if same else RUN
                self._reset_placement()
                if start is not None:
                    key = pack(*start)
                    num = NUMBER[self._pastures[seat][key]]
                    self._start = self._tip = self._up_tip = self._down_tip = key
                    self._up_num = self._down_num = num
                out.append(Event(ev.PlacementBegun(seat, "same" if same else "run", start)))
                self._legal = None
            case BeginFree():
                self._phase = DISCARD
                self._reset_placement()
                out.append(Event(ev.PlacementBegun(seat, "free", None)))
                self._legal = None
            case Discard():
                card = self._reveal(seat, action.card)
                self._hands[seat].remove(card)
                self._discard.append(card)
                self._phase = FREE
                out.append(Event(ev.CardDiscarded(seat, card)))
                self._legal = None
            case _:  # Pass
                out.append(Event(ev.Passed(seat)))
                self._end_turn(out)
        return out

    # ----------------------------------------------------------------- effects

    def _take(self, index: int, out: list[Event]) -> None:
        seat = self._seat
        taken = self._market[index]
        hand = self._hands[seat]
        insort(hand, taken[0])
        insort(hand, taken[1])
        out.append(Event(ev.SetTaken(seat, index, taken)))
        self._refill(index, out)
        for card in taken:
            if ICON[card] == DRAW:
                self._extra_draw(seat, out)
        self._end_turn(out)

    def _refill(self, index: int, out: list[Event]) -> None:
        deck = self._deck
        if self._last_turn is None and len(deck) < 2:
            # The first time a refill finds no full set in the deck: the end is
            # triggered; the current round finishes, then one more round.
            n = self.players
            self._last_turn = (self._turn // n + 2) * n - 1
            out.append(Event(ev.EndTriggered(self._seat, self._last_turn)))
        if len(deck) >= 2:
            new = (deck.pop(), deck.pop())
            from_stock = 0
        elif self.players < 4 and len(deck) + len(self._stock) >= 2:
            from_stock = 2 - len(deck)
            cards = [deck.pop() for _ in range(len(deck))]
            cards += [self._stock.pop() for _ in range(from_stock)]
            new = (cards[0], cards[1])
        else:
            del self._market[index]
            return
        self._market[index] = new
        self._revealed.update(new)
        out.append(Event(ev.SetFormed(index, new, from_stock)))

    def _extra_draw(self, seat: int, out: list[Event]) -> None:
        if self._deck:
            card, from_stock = self._deck.pop(), False
        elif self.players < 4 and self._stock:
            card, from_stock = self._stock.pop(), True
        else:
            return
        insort(self._hands[seat], card)
        out.append(
            Event(
                ev.CardDrawn(seat, card, from_stock),
                seat=seat,
                redacted=ev.CardDrawn(seat, None, from_stock),
            )
        )

    def _reveal(self, seat: int, card: int) -> int:
        """The copy of `card`'s face that `seat` shows as it places or discards it.

        Copies of a face are interchangeable, so the id shown must tell the other
        seats nothing about the hand: a copy everybody saw enter the hand if it
        holds one (the legal actions offer that one), else the lowest copy of the
        face whose place nobody knows. When that copy is not in the hand, it and
        `card` trade places (the deck, the stock or a hand, all hidden from the
        other seats), so that showing the lowest id never says which copies the
        hand holds and which it lacks."""
        revealed = self._revealed
        if card in revealed:
            return card
        shown = next(copy for copy in COPIES[FACE[card]] if copy not in revealed)
        revealed.add(shown)
        hand = self._hands[seat]
        if shown == card or shown in hand:
            return shown
        for pile in (self._deck, self._stock):
            if shown in pile:
                pile[pile.index(shown)] = card
                break
        else:
            holder = next(h for h in self._hands if shown in h)
            holder.remove(shown)
            insort(holder, card)
        hand.remove(card)
        insort(hand, shown)
        return shown

    def _place(self, action: Place, out: list[Event]) -> None:
        seat = self._seat
        card = self._reveal(seat, action.card)
        key = pack(action.x, action.y)
        self._hands[seat].remove(card)
        self._pastures[seat][key] = card
        self._placed += 1
        out.append(Event(ev.CardPlaced(seat, card, action.x, action.y, action.branch)))
        phase = self._phase
        if phase == FREE:
            self._end_turn(out)
            return
        if phase == SAME:
            if self._tip is None:
                self._start = key
                self._up_num = NUMBER[card]
            self._tip = key
        elif self._up_tip is None:  # the first card of a run on an empty pasture
            self._start = self._up_tip = key
            self._up_num = NUMBER[card]
        elif action.branch == "up":
            self._up_tip = key
            self._up_num += 1
        else:
            self._down_tip = key
            self._down_num -= 1
        self._legal = None
        # The placement ends by itself only when everybody can tell it must: the
        # hand is empty, or no card at all could follow on the pasture. Ending it
        # because no card *in the hand* fits would tell the other seats which
        # numbers the hand lacks; then the seat is asked, with `stop` alone.
        if not self._hands[seat] or not self._could_follow(seat):
            self._end_turn(out)

    def _could_follow(self, seat: int) -> bool:
        """Whether some card, in anybody's hand or not, could continue the
        placement: a public fact, unlike whether the seat's own hand can."""
        pasture = self._pastures[seat]

        def open_next_to(tip: int | None) -> bool:
            return tip is not None and any(tip + d not in pasture for d in _DIRS)

        if self._phase == SAME:
            return open_next_to(self._tip)
        up = self._up_num < 5 and open_next_to(self._up_tip)
        down = self._down_tip is not None and self._down_num > 1 and open_next_to(self._down_tip)
        return up or down

    def _end_turn(self, out: list[Event]) -> None:
        seat = self._seat
        out.append(Event(ev.TurnEnded(seat, self._turn)))
        self._legal = None
        self._reset_placement()
        if self._last_turn is not None and self._turn >= self._last_turn:
            self._phase = OVER
            result = self.result()
            out.append(Event(ev.GameEnded(tuple(int(s) for s in result.scores), result.winners)))
            return
        self._turn += 1
        self._seat = self._turn % self.players
        self._phase = TURN

    def result(self) -> Result:
        if self._phase != OVER:
            raise ValueError("the game is not over")
        scores, ranks, details = score([self.pasture(s) for s in range(self.players)])
        return Result(tuple(float(s) for s in scores), ranks, details)

    def clone(self) -> SheepNSheepState:
        new = object.__new__(SheepNSheepState)
        new.players = self.players
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        new._rng = rng
        new._deck = self._deck[:]
        new._stock = self._stock[:]
        new._hands = [hand[:] for hand in self._hands]
        new._market = self._market[:]
        new._pastures = [p.copy() for p in self._pastures]
        new._pasture_views = self._pasture_views[:]  # tuples: safe to share
        new._discard = self._discard[:]
        new._revealed = set(self._revealed)
        new._turn = self._turn
        new._seat = self._seat
        new._last_turn = self._last_turn
        new._phase = self._phase
        new._placed = self._placed
        new._start = self._start
        new._tip = self._tip
        new._up_tip = self._up_tip
        new._down_tip = self._down_tip
        new._up_num = self._up_num
        new._down_num = self._down_num
        new._legal = self._legal  # tuples of frozen actions: safe to share
        return new
