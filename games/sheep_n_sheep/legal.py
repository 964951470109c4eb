"""The phases of a Sheep 'n' Sheep turn and the actions each one allows
(taking a market set, beginning or continuing a placement, discarding)."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from games.sheep_n_sheep.actions import (
    BeginFree,
    BeginRun,
    BeginSame,
    Discard,
    Pass,
    Place,
    SheepNSheepAction,
    Stop,
    TakeSet,
)
from games.sheep_n_sheep.cards import FACE, NUMBER
from games.sheep_n_sheep.cells import (
    _DIRS,
    _ORIGIN,
    _W,
    unpack,
)
from games.sheep_n_sheep.fields import SheepNSheepFields

TURN, SAME, RUN, DISCARD, FREE, OVER = range(6)
PHASES = ("turn", "same", "run", "discard", "free", "over")
HAND_LIMIT = 6  # a hand of this many cards or more must place
MARKET_SETS = 4
_STOP = Stop()
_PASS = Pass()
_FREE = BeginFree()
_TAKE = tuple(TakeSet(i) for i in range(MARKET_SETS))


def _distinct(hand: Iterable[int], revealed: AbstractSet[int]) -> list[int]:
    """One card per face (same colour, number and icon are interchangeable), in
    the order the faces first appear in the hand: a copy everybody has seen
    enter the hand if there is one, else the lowest id."""
    chosen: dict[int, int] = {}
    for card in hand:
        face = FACE[card]
        held = chosen.get(face)
        if held is None or (card in revealed and held not in revealed):
            chosen[face] = card
    return list(chosen.values())


class LegalActions(SheepNSheepFields):
    """Legal-action generation; mixed into SheepNSheepState."""

    __slots__ = ()

    def _compute_legal(self) -> tuple[SheepNSheepAction, ...]:
        phase = self._phase
        if phase == TURN:
            return self._turn_actions()
        if phase == OVER:
            return ()
        hand = self._hands[self._seat]
        revealed = self._revealed
        pasture = self._pastures[self._seat]
        acts: list[SheepNSheepAction] = []
        if phase == SAME:
            if self._tip is None:
                acts = [Place(card, 0, 0) for card in _distinct(hand, revealed)]
            else:
                num = self._up_num  # a same-number placement keeps its number here
                cards = _distinct((c for c in hand if NUMBER[c] == num), revealed)
                if cards:
                    self._add_places(acts, cards, self._tip, pasture, "")
        elif phase == RUN:
            if self._up_tip is None:
                acts = [Place(card, 0, 0) for card in _distinct(hand, revealed)]
            else:
                up = self._up_num + 1
                if up <= 5:
                    cards = _distinct((c for c in hand if NUMBER[c] == up), revealed)
                    if cards:
                        self._add_places(acts, cards, self._up_tip, pasture, "up")
                down = self._down_num - 1
                if self._down_tip is not None and down >= 1:
                    cards = _distinct((c for c in hand if NUMBER[c] == down), revealed)
                    if cards:
                        self._add_places(acts, cards, self._down_tip, pasture, "down")
        elif phase == DISCARD:
            return tuple(Discard(card) for card in _distinct(hand, revealed))
        else:  # FREE
            cells = self._frontier(pasture) if pasture else [_ORIGIN]
            for card in _distinct(hand, revealed):
                for key in cells:
                    x, y = unpack(key)
                    acts.append(Place(card, x, y))
            return tuple(acts)
        if self._placed:
            acts.append(_STOP)
        return tuple(acts)

    @staticmethod
    def _add_places(
        acts: list[SheepNSheepAction],
        cards: list[int],
        tip: int,
        pasture: dict[int, int],
        branch: str,
    ) -> None:
        for d in _DIRS:
            key = tip + d
            if key not in pasture:
                x, y = unpack(key)
                for card in cards:
                    acts.append(Place(card, x, y, branch))

    @staticmethod
    def _frontier(pasture: dict[int, int]) -> list[int]:
        cells = {key + d for key in pasture for d in _DIRS}
        return sorted(cells.difference(pasture))

    def _turn_actions(self) -> tuple[SheepNSheepAction, ...]:
        seat = self._seat
        hand = self._hands[seat]
        acts: list[SheepNSheepAction] = []
        if len(hand) < HAND_LIMIT:
            acts.extend(_TAKE[: len(self._market)])
        if hand:
            pasture = self._pastures[seat]
            if not pasture:
                acts.append(BeginSame(None))
                acts.append(BeginRun(None))
            else:
                numbers = 0
                for card in hand:
                    numbers |= 1 << NUMBER[card]
                runs: list[SheepNSheepAction] = []
                for key in sorted(pasture):
                    if (
                        key + _W in pasture
                        and key - _W in pasture
                        and key + 1 in pasture
                        and key - 1 in pasture
                    ):
                        continue
                    num = NUMBER[pasture[key]]
                    if numbers >> num & 1:
                        acts.append(BeginSame(unpack(key)))
                    if numbers & (1 << (num + 1) | 1 << (num - 1)) & 0b111110:
                        runs.append(BeginRun(unpack(key)))
                acts.extend(runs)
            if len(hand) >= 2:
                acts.append(_FREE)
        # Choosing A with no set left means doing nothing, so a hand that may take
        # may pass. Last in the list: a stored move's index keeps its meaning.
        if not acts or (len(hand) < HAND_LIMIT and not self._market):
            acts.append(_PASS)
        return tuple(acts)
