"""The Sheep 'n' Sheep game state: setup, applying decisions, turn order and the end.

Which actions each phase allows lives in legal.py, the packed cell keys in cells.py
and the read-only views (accessors, observation, prompt, render) in views.py.

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
from games.sheep_n_sheep.cells import _DIRS, _OFF, _ORIGIN, _W, REACH, pack, unpack
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


def _check_each_card_once(cards: list[int]) -> None:
    """A built position names each card at most once, and only real cards."""
    seen: set[int] = set()
    for card in cards:
        if not (isinstance(card, int) and 0 <= card < DECK_SIZE):
            raise ValueError(f"card {card!r} is no card: ids are 0 to {DECK_SIZE - 1}")
        if card in seen:
            raise ValueError(f"card {card} is in the position twice")
        seen.add(card)


def _check_cells(pastures: Sequence[Mapping[Cell, int]]) -> None:
    """A built pasture's cells are pairs of whole numbers within REACH of the
    origin: a cell beyond the packed keys' range would land on another cell."""
    for pasture in pastures:
        for cell in pasture:
            if not (
                isinstance(cell, tuple)
                and len(cell) == 2
                and all(type(v) is int and -REACH <= v <= REACH for v in cell)
            ):
                raise ValueError(
                    f"cell {cell!r} is not a pasture cell: x and y are whole numbers"
                    f" from {-REACH} to {REACH}"
                )


def _check_shape(
    players: int, hands: int, sets: int, pastures: Sequence[object] | None, seat: int
) -> None:
    """A built position has 2 to 4 players, a hand (and a pasture) per seat, at
    most MARKET_SETS sets and a seat to move among them."""
    if players not in (2, 3, 4):
        raise ValueError(f"{players!r} players: Sheep 'n' Sheep takes 2 to 4")
    if hands != players or (pastures is not None and len(pastures) != players):
        raise ValueError(f"{players} players need {players} hands and pastures")
    if sets > MARKET_SETS:
        raise ValueError(f"{sets} market sets: at most {MARKET_SETS}")
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat!r} is not one of 0 to {players - 1}")


def _check_deck_end(deck: Sequence[int], last_turn: int | None) -> None:
    """The end is triggered by a refill that finds fewer than 2 cards in the deck,
    and the deck never grows: once there is a last turn, it holds 1 card at most.
    A deck of 2 or more after the trigger is a position no game reaches, and one
    that went on forming sets from it (with 4 players, none is formed after the
    trigger; with 2-3 they come from the stock)."""
    if last_turn is not None and len(deck) >= 2:
        raise ValueError(
            f"a deck of {len(deck)} with a last turn: the end is triggered when a refill"
            " finds fewer than 2 cards in the deck, so after it the deck holds 1 at most"
        )


def _check_stock(players: int, stock: Sequence[int]) -> None:
    """Only 2 and 3 players set a stock aside; with 4 the whole deck is the deck."""
    if players == 4 and stock:
        raise ValueError(
            f"a stock of {len(stock)} with 4 players: 4 players have no stock (the whole"
            " deck is the deck), only 2 and 3 players set one aside"
        )


def _check_market_end(sets: int, last_turn: int | None) -> None:
    """The market only holds fewer than MARKET_SETS sets once a set could not be
    replaced, and that same refill triggers the end: a short market without a
    last turn is a position no game reaches (and one nobody could end)."""
    if sets < MARKET_SETS and last_turn is None:
        raise ValueError(
            f"{sets} market sets without a last turn: the market holds fewer than"
            f" {MARKET_SETS} sets only after the end is triggered, so give the position"
            " a last_turn"
        )


def _check_turns(players: int, seat: int, turn: int, last_turn: int | None, phase: str) -> None:
    """Turn t is seat t mod N's (seat 0 starts, turns go round), the game's last
    turn is the last of a round and not already past, the phase is one of PHASES,
    and a game is over only once its last turn is played: anything else is a
    position no game reaches."""
    if phase not in PHASES:
        raise ValueError(f"phase {phase!r} is not one of {', '.join(PHASES)}")
    if turn < 0 or turn % players != seat:
        raise ValueError(f"turn {turn!r} is not seat {seat}'s: turn t is seat t mod {players}")
    if last_turn is not None and (last_turn < turn or last_turn % players != players - 1):
        raise ValueError(
            f"last turn {last_turn!r} must be turn {turn} or later and the turn of seat"
            f" {players - 1}, the last of a round"
        )
    if phase == "over" and last_turn != turn:
        raise ValueError(
            f"phase 'over' at turn {turn} with last turn {last_turn!r}: the game ends when"
            " its last turn ends, so an 'over' position is at its last turn"
        )


def _check_placement(
    phase: str, placement: Placement | None, pasture: Mapping[Cell, int], hand: int
) -> None:
    """A placement in progress is one a game reaches: its kind is the phase's, the
    hand can go on (a discard needs 2 cards, every other step 1), and a same-number
    or run placement either has no start and an empty pasture (its first card goes
    to (0, 0)) or starts from a card of the pasture, with tips on the pasture and
    the numbers those cards have. Anything else laid a card on top of another
    (the one at (0, 0)), offered numbers the tip does not lead to, or left the seat
    with no legal action."""
    if phase in ("turn", "over"):
        if placement is not None:
            raise ValueError(f"a placement in phase {phase!r}: only a placement phase has one")
        return
    if placement is not None and placement.kind != phase:
        raise ValueError(f"a {placement.kind!r} placement in phase {phase!r}")
    need = 2 if phase == "discard" else 1
    if hand < need:
        raise ValueError(
            f"{hand} card{'' if hand == 1 else 's'} in hand in phase {phase!r}: a"
            f" {phase} step needs {need}, and a placement ends once the hand is empty"
        )
    if phase in ("discard", "free"):
        return
    start = None if placement is None else placement.start
    if start is None:
        if pasture:
            raise ValueError(
                f"a {phase} placement with no start is one begun on an empty pasture, but"
                " the seat's pasture has cards: name its start, a card of the pasture"
            )
        if placement is not None and (placement.placed or placement.tip or placement.up_tip):
            raise ValueError(f"a {phase} placement with no start has no card placed yet")
        return
    assert placement is not None
    for name, cell in (
        ("start", start),
        ("tip", placement.tip),
        ("up tip", placement.up_tip),
        ("down tip", placement.down_tip),
    ):
        if cell is not None and cell not in pasture:
            raise ValueError(f"the placement's {name} {cell} is no card of the seat's pasture")
    if phase == "same":
        number = NUMBER[pasture[start]]
        if placement.tip is None:
            raise ValueError("a same-number placement with a start has no tip: give its tip")
        if placement.number != number or NUMBER[pasture[placement.tip]] != number:
            raise ValueError(
                f"a same-number placement from a {number} places {number}s: number"
                f" {placement.number!r}, tip a {NUMBER[pasture[placement.tip]]}"
            )
        return
    up_tip, down_tip = placement.up_tip, placement.down_tip
    if up_tip is None:
        raise ValueError("a run with a start has an up tip (the start before its first card)")
    up = 5 if placement.up_next is None else placement.up_next - 1
    if NUMBER[pasture[up_tip]] != up:
        raise ValueError(
            f"the run's up tip is a {NUMBER[pasture[up_tip]]}: up next"
            f" {placement.up_next!r} does not follow it"
        )
    if down_tip is None:
        if len(pasture) > placement.placed:
            raise ValueError(
                "a run from a card of the pasture grows both ways: give its down tip (the"
                " start before its first descending card)"
            )
        return
    down = 1 if placement.down_next is None else placement.down_next + 1
    if NUMBER[pasture[down_tip]] != down:
        raise ValueError(
            f"the run's down tip is a {NUMBER[pasture[down_tip]]}: down next"
            f" {placement.down_next!r} does not follow it"
        )


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
        of its hand everybody saw it take from the market (default: none).
        Each card may be named once at most (ValueError otherwise); a card left
        out of every zone is out of the game, so positions may use a few cards."""
        _check_shape(players, len(hands), len(market), pastures, seat)
        turn = seat if turn is None else turn
        _check_turns(players, seat, turn, last_turn, phase)
        _check_cells(pastures or [])
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
        _check_each_card_once([*hidden, *shown])
        _check_market_end(len(market), last_turn)
        _check_stock(players, state._stock)
        _check_deck_end(deck, last_turn)
        _check_placement(phase, placement, (pastures or [{}] * players)[seat], len(hands[seat]))
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
