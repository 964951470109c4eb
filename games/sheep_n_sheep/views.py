"""Read-only views of a Sheep 'n' Sheep state: the public accessors, the
observation a seat or spectator gets, the prompt and the plain-text render."""

from __future__ import annotations

from games.contract import viewer
from games.sheep_n_sheep.actions import (
    Cell,
)
from games.sheep_n_sheep.cards import CARDS
from games.sheep_n_sheep.cells import pack, unpack
from games.sheep_n_sheep.fields import SheepNSheepFields
from games.sheep_n_sheep.legal import (
    DISCARD,
    FREE,
    OVER,
    PHASES,
    SAME,
    TURN,
)
from games.sheep_n_sheep.observation import PastureView, Placement, SheepNSheepObservation
from games.words import count


class Views(SheepNSheepFields):
    """Accessors, observation, prompt and render; mixed into SheepNSheepState."""

    __slots__ = ()

    def pasture(self, seat: int) -> dict[Cell, int]:
        """Seat's pasture as {(x, y): card}."""
        return {unpack(key): card for key, card in self._pastures[seat].items()}

    def hand(self, seat: int) -> tuple[int, ...]:
        return tuple(self._hands[seat])

    @property
    def deck(self) -> tuple[int, ...]:
        return tuple(self._deck)

    @property
    def stock(self) -> tuple[int, ...]:
        return tuple(self._stock)

    @property
    def market(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._market)

    @property
    def discard(self) -> tuple[int, ...]:
        return tuple(self._discard)

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def last_turn(self) -> int | None:
        return self._last_turn

    @property
    def phase(self) -> str:
        return PHASES[self._phase]

    def _placement(self) -> Placement | None:
        phase = self._phase
        if phase in (TURN, OVER):
            return None
        if phase in (DISCARD, FREE):
            return Placement(PHASES[phase], None, self._placed)
        start = None if self._start is None else unpack(self._start)
        if phase == SAME:
            tip = None if self._tip is None else unpack(self._tip)
            number = None if self._tip is None else self._up_num
            return Placement("same", start, self._placed, number=number, tip=tip)
        if self._up_tip is None:
            return Placement("run", None, 0)
        up_next = self._up_num + 1 if self._up_num < 5 else None
        down_tip = None if self._down_tip is None else unpack(self._down_tip)
        down_next = self._down_num - 1 if down_tip is not None and self._down_num > 1 else None
        return Placement(
            "run",
            start,
            self._placed,
            up_tip=unpack(self._up_tip),
            up_next=up_next,
            down_tip=down_tip,
            down_next=down_next,
        )

    def observation(self, seat: object) -> SheepNSheepObservation:
        seat = viewer(self.players, seat)
        return SheepNSheepObservation(
            seat=seat,
            players=self.players,
            to_move=self.to_move,
            phase=PHASES[self._phase],
            turn=self._turn,
            hand=() if seat is None else tuple(self._hands[seat]),
            hand_sizes=tuple(len(hand) for hand in self._hands),
            market=tuple(self._market),
            pastures=tuple(self._pasture_view(seat) for seat in range(self.players)),
            deck_size=len(self._deck),
            stock_size=len(self._stock),
            discard=tuple(self._discard),
            end_triggered=self._last_turn is not None,
            last_turn=self._last_turn,
            placement=self._placement(),
        )

    def _pasture_view(self, seat: int) -> PastureView:
        """Seat `seat`'s pasture as (x, y, card) in cell order."""
        pasture = self._pastures[seat]
        count, view = self._pasture_views[seat]
        if count != len(pasture):
            view = tuple((*unpack(key), card) for key, card in sorted(pasture.items()))
            self._pasture_views[seat] = (len(pasture), view)
        return view

    def prompt(self) -> str:
        phase = self._phase
        if phase == OVER:
            return "the game is over"
        seat = self._seat
        if phase == TURN:
            return f"seat {seat}: take a set or place cards (hand {len(self._hands[seat])})"
        if phase == DISCARD:
            return f"seat {seat}: choose the card to discard"
        if phase == FREE:
            return f"seat {seat}: place one card anywhere next to your pasture"
        what = "same-number" if phase == SAME else "run"
        return f"seat {seat}: place the next {what} card or stop"

    def render(self) -> str:
        lines = [
            f"turn {self._turn}, seat {self._seat} to move ({PHASES[self._phase]})"
            + (f", last turn {self._last_turn}" if self._last_turn is not None else ""),
            f"deck {len(self._deck)}, stock {len(self._stock)}, discard "
            + " ".join(CARDS[c].code for c in self._discard),
            "market: "
            + "  ".join(
                f"{i}:{CARDS[a].code}+{CARDS[b].code}" for i, (a, b) in enumerate(self._market)
            ),
        ]
        for seat, pasture in enumerate(self._pastures):
            held = len(self._hands[seat])
            lines.append(f"seat {seat}: hand {count(held, 'card')}")
            lines.extend("  " + row for row in _grid(pasture))
        return "\n".join(lines)


def _grid(pasture: dict[int, int]) -> list[str]:
    if not pasture:
        return ["(empty pasture)"]
    cells = [unpack(key) for key in pasture]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            card = pasture.get(pack(x, y))
            row.append(f"{CARDS[card].code:4}" if card is not None else " .  ")
        rows.append(f"{y:>3} " + " ".join(row))
    rows.append("    " + " ".join(f"{x:<4}" for x in range(min(xs), max(xs) + 1)))
    return rows
