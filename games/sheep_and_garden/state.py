"""The Sheep & Garden game state: placing tiles, the display, the end and scoring."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from games.contract import Event, IllegalAction, Result, State, viewer
from games.ranking import competition_ranks
from games.sheep_and_garden.data import (
    DIRECTIONS,
    MIRROR,
    NO_EDGE,
    OBJECTIVE_BY_ID,
    OBJECTIVES,
    TILE_COUNT,
    TILES,
)
from games.sheep_and_garden.model import (
    ALL_PLACED,
    DEADLOCK,
    GameEnded,
    ObjectiveView,
    Place,
    PlacedTile,
    Reshuffled,
    SheepAndGardenObservation,
    Slot,
    TilePlaced,
    TilesShown,
)
from games.sheep_and_garden.position_checks import check_position
from games.sheep_and_garden.scoring import analyse, score_cards

Cell = tuple[int, int]
Need = tuple[int, int, int, int]  # edge code each side of an empty cell requires, or NO_EDGE

DISPLAY_SIZE = 3
_new_tuple = tuple.__new__
PRAISE = (
    (70, "Unbelievable"),
    (60, "Extraordinary"),
    (50, "Awesome"),
    (40, "Excellent"),
    (30, "Good"),
    (20, "Beginner"),
)


# Every (tile, rotation) pair, and per side the pairs whose edge there is each
# code, as bit masks: bit i stands for _PAIRS[i].
_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (index, rotation) for index, tile in enumerate(TILES) for rotation in tile.rotations
)
_EDGE_MASKS: tuple[dict[int, int], ...] = tuple(
    {
        code: sum(
            1 << bit
            for bit, (index, rotation) in enumerate(_PAIRS)
            if TILES[index].edges[rotation][side] == code
        )
        for code in {TILES[index].edges[rotation][side] for index, rotation in _PAIRS}
    }
    for side in range(4)
)


@cache
def fitting_rotations(need: Need) -> tuple[tuple[int, ...], ...]:
    """For each tile id, the distinct rotations that fit an empty cell with `need`.

    A pure function of the tile data; cached because a game meets few patterns
    (2,401 in all), and each is a few masks joined, not every tile tried.
    """
    fits = (1 << len(_PAIRS)) - 1
    for side, want in enumerate(need):
        if want != NO_EDGE:
            fits &= _EDGE_MASKS[side].get(want, 0)
    result: list[list[int]] = [[] for _ in TILES]
    while fits:
        lowest = fits & -fits
        index, rotation = _PAIRS[lowest.bit_length() - 1]
        result[index].append(rotation)
        fits ^= lowest
    return tuple(tuple(rotations) for rotations in result)


@cache
def fitting_mask(need: Need) -> int:
    """Bit t set when tile t fits an empty cell with `need` in some rotation."""
    mask = 0
    for tile, rotations in enumerate(fitting_rotations(need)):
        if rotations:
            mask |= 1 << tile
    return mask


def _well_typed(action: object) -> bool:
    """Whether `action` is a Place of four ints: only such a value can name a
    listed placement (a tuple of the same fields, or 1.0 for 1, does not)."""
    if type(action) is not Place:
        return False
    fields: tuple[object, ...] = action  # what a caller put there, not what Place declares
    return all(type(value) is int for value in fields)


def _listed_way(action: Place) -> Place:
    """`action` turned as legal_actions() lists it: a symmetric tile turned to
    show a face it shows at a smaller rotation lies exactly as it does there,
    and the list names each placement once, at its smallest rotation."""
    tile, _x, _y, rotation = action
    if not (0 <= tile < len(TILES) and 0 <= rotation < 4):
        return action
    first = TILES[tile].same_face[rotation]
    return action if first == rotation else action._replace(rotation=first)


@lru_cache(maxsize=4096)
def objective_views(slots: tuple[Slot, ...], seat: int | None) -> tuple[ObjectiveView, ...]:
    """The objective slots as `seat` sees them (None: a spectator).

    A pure function of frozen values, memoised: a game's slots never change,
    and building the views (frozen dataclasses) took most of an observation.
    Keyed by the slots' values and the seat, so a seat only ever gets views
    made for it; 4,096 entries hold a few per match in play."""
    return tuple(
        ObjectiveView(
            slot=index,
            card=slot.card if slot.visible_to(seat) else None,
            holders=slot.holders,
            face_up=slot.face_up,
            enemy=slot.enemy,
        )
        for index, slot in enumerate(slots)
    )


def praise(difference: float) -> str:
    """The solo rule's praise for own minus enemy objective points."""
    for points, title in PRAISE:
        if difference >= points:
            return title
    return "none"


def deal_objectives(players: int, cards: list[str]) -> tuple[Slot, ...]:
    """Lay out the (shuffled) objective cards for `players` seats.

    Solo: 3 for the player and 3 for the enemy, all face up. Two players: 3
    each, the first face up. Three and four: one face-down card per player and
    one between each pair of neighbours, seen and scored by both.
    """
    if players == 1:
        return tuple(Slot(c, (0,), True) for c in cards[:3]) + tuple(
            Slot(c, (), True, enemy=True) for c in cards[3:6]
        )
    if players == 2:
        return tuple(
            Slot(cards[3 * seat + i], (seat,), i == 0) for seat in range(2) for i in range(3)
        )
    slots = []
    for seat in range(players):
        slots.append(Slot(cards[2 * seat], (seat,), False))
        pair = tuple(sorted((seat, (seat + 1) % players)))
        slots.append(Slot(cards[2 * seat + 1], pair, False))
    return tuple(slots)


class SheepAndGardenState(State):
    """One game. Cells map to (tile id, rotation); the deck's top is its last item."""

    __slots__ = (
        "_deck",
        "_display",
        "_end_reason",
        "_legal",
        "_needs",
        "_order",
        "_result",
        "_rng",
        "_slots",
        "_to_move",
        "board",
        "players",
        "setup_events",
    )

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self._rng = random.Random(seed)
        tiles = list(range(TILE_COUNT))
        self._rng.shuffle(tiles)
        start = tiles.pop()
        self.board: dict[Cell, tuple[int, int]] = {}
        self._order: list[PlacedTile] = []
        self._needs: dict[Cell, Need] = {}
        self._put(start, 0, 0, 0)
        self._deck = tiles
        self._display: list[int] = []
        cards = [card.id for card in OBJECTIVES]
        self._rng.shuffle(cards)
        self.slots = deal_objectives(players, cards)
        self._to_move: int | None = self._rng.randrange(players) if players > 1 else 0
        self._end_reason = ""
        self._legal: tuple[Place, ...] | None = None
        self._result: Result | None = None  # worked out once, when the game is over
        events: list[Event] = []
        self._refill(events)
        self._ensure_playable(events)
        self.setup_events: tuple[Event, ...] = tuple(events)

    # ------------------------------------------------------------ construction

    @classmethod
    def from_position(
        cls,
        players: int,
        placed: Iterable[tuple[int, int, int, int]],
        display: Iterable[int],
        deck: Iterable[int],
        slots: Iterable[Slot] | None = None,
        to_move: int | None = 0,
        seed: int = 0,
        end_reason: str = "",
    ) -> SheepAndGardenState:
        """A hand-built position (for tests and analysis): `placed` is (tile, x, y,
        rotation) in placement order, `deck` lists the deck bottom to top. The
        tiles must match where they meet, as in play. A display that shows
        some tiles is not refilled (an empty one is, while the deck lasts); the
        reshuffle and end rules run as after a turn, and what they did is in
        `setup_events`. `to_move=None` with `end_reason` gives a
        finished game (as search bots rebuild one from an observation); an
        `end_reason` with a seat to move is a ValueError, as is `to_move=None`
        without one, and anything else no game holds (see `check_position`)."""
        placed = list(placed)
        display = list(display)
        deck = list(deck)
        if slots is not None:
            slots = tuple(slots)
        check_position(
            players,
            placed,
            display,
            deck,
            1 if players == 1 else DISPLAY_SIZE,
            to_move,
            slots,
            end_reason,
            seed,
        )
        state = cls.__new__(cls)
        state.players = players
        state._rng = random.Random(seed)
        state.board = {}
        state._order = []
        state._needs = {}
        for tile, x, y, rotation in placed:
            state._put(tile, x, y, rotation)
        state._display = display
        state._deck = deck
        if slots is None:
            cards = [card.id for card in OBJECTIVES]
            slots = deal_objectives(players, cards)
        state.slots = slots
        state._to_move = to_move
        state._end_reason = end_reason
        state._legal = None
        state._result = None
        events: list[Event] = []
        state._ensure_playable(events)
        state.setup_events = tuple(events)
        return state

    def clone(self) -> SheepAndGardenState:
        other = SheepAndGardenState.__new__(SheepAndGardenState)
        other.players = self.players
        other._rng = random.Random(0)  # a seed skips reading os.urandom; setstate overwrites it
        other._rng.setstate(self._rng.getstate())
        other.board = dict(self.board)
        other._order = list(self._order)
        other._needs = dict(self._needs)
        other._deck = list(self._deck)
        other._display = list(self._display)
        other._slots = self._slots
        other._to_move = self._to_move
        other._end_reason = self._end_reason
        other._legal = self._legal
        other._result = self._result  # safe to share: new slots drop it (see `slots`)
        other.setup_events = self.setup_events
        return other

    # ------------------------------------------------------------ queries

    @property
    def slots(self) -> tuple[Slot, ...]:
        """The objective cards on the table, in slot order."""
        return self._slots

    @slots.setter
    def slots(self, slots: Iterable[Slot]) -> None:
        """Replace the cards (as a search bot's sampled world does with a clone's
        face-down ones): a result kept for the old cards no longer holds. Kept
        as a tuple, whatever sequence they came in: observations memoise their
        views of the slots by value."""
        self._slots = tuple(slots)
        self._result = None

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def display(self) -> tuple[int, ...]:
        return tuple(self._display)

    @property
    def deck_size(self) -> int:
        return len(self._deck)

    @property
    def placed(self) -> tuple[PlacedTile, ...]:
        return tuple(self._order)

    @property
    def end_reason(self) -> str:
        return self._end_reason

    @property
    def open_cells(self) -> dict[Cell, Need]:
        """Every empty cell next to the landscape, with what its sides require."""
        return dict(self._needs)

    def legal_actions(self) -> tuple[Place, ...]:
        if self._legal is None:
            self._legal = self._compute_legal() if self._to_move is not None else ()
        return self._legal

    def _compute_legal(self) -> tuple[Place, ...]:
        needs = self._needs
        # Cells are unique: sorting them alone orders them as sorting the items did.
        cells = [(x, y, fitting_rotations(needs[x, y])) for x, y in sorted(needs)]
        # tuple.__new__ makes the same Place as Place(...) without its Python-level
        # __new__: some 35 placements a turn, every turn.
        return tuple(
            [
                _new_tuple(Place, (tile, x, y, rotation))
                for tile in self._display
                for x, y, fits in cells
                for rotation in fits[tile]
            ]
        )

    def prompt(self) -> str:
        if self._to_move is None:
            return ""
        if self.players == 1:
            return f"place the drawn tile {self._display[0]}: choose a cell and a rotation"
        return "choose a shown tile, a cell next to the landscape and a rotation"

    # ------------------------------------------------------------ playing

    def apply(self, action: Any) -> list[Event]:
        seat = self._to_move
        if seat is None:
            raise IllegalAction("the game is over")
        placed = _listed_way(action) if _well_typed(action) else None
        if placed is None or not self._fits(placed):
            raise IllegalAction(f"not a legal action now: {action!r}")
        tile, x, y, rotation = placed
        self._display.remove(tile)
        self._put(tile, x, y, rotation)
        events = [Event(TilePlaced(seat, tile, x, y, rotation))]
        self._legal = None
        self._to_move = (seat + 1) % self.players
        self._refill(events)
        self._ensure_playable(events)
        return events

    def _fits(self, action: Place) -> bool:
        tile, x, y, rotation = action
        if tile not in self._display:
            return False
        need = self._needs.get((x, y))
        return need is not None and rotation in fitting_rotations(need)[tile]

    def _put(self, tile: int, x: int, y: int, rotation: int) -> None:
        self.board[(x, y)] = (tile, rotation)
        self._order.append(PlacedTile(tile, x, y, rotation))
        self._needs.pop((x, y), None)
        edges = TILES[tile].edges[rotation]
        for d, (dx, dy) in enumerate(DIRECTIONS):
            cell = (x + dx, y + dy)
            if cell in self.board:
                continue
            need = list(self._needs.get(cell, (NO_EDGE,) * 4))
            need[(d + 2) % 4] = MIRROR[edges[d]]
            self._needs[cell] = (need[0], need[1], need[2], need[3])

    def _refill(self, events: list[Event]) -> None:
        size = 1 if self.players == 1 else DISPLAY_SIZE
        shown = []
        while len(self._display) < size and self._deck:
            tile = self._deck.pop()
            self._display.append(tile)
            shown.append(tile)
        if shown:
            events.append(Event(TilesShown(tuple(shown))))

    def _placeable_mask(self) -> int:
        mask = 0
        for need in set(self._needs.values()):
            mask |= fitting_mask(need)
        return mask

    def _some_shown_tile_fits(self) -> bool:
        """Whether a shown tile fits some open cell: what nearly every turn ends
        with, so it stops at the first cell that takes one instead of joining
        every cell's mask first."""
        shown = 0
        for tile in self._display:
            shown |= 1 << tile
        return any(fitting_mask(need) & shown for need in self._needs.values())

    def _ensure_playable(self, events: list[Event]) -> None:
        """Reshuffle while no shown tile fits; end the game when nothing can."""
        if self._to_move is None:
            return
        if not self._display:
            if not self._deck:
                self._finish(ALL_PLACED, events)
                return
            self._refill(events)  # only a hand-built position starts with no tile shown
        if self._some_shown_tile_fits():
            return
        mask = self._placeable_mask()
        while not any(mask >> tile & 1 for tile in self._display):
            if not any(mask >> tile & 1 for tile in self._deck):
                self._finish(DEADLOCK, events)
                return
            returned = tuple(self._display)
            self._deck.extend(self._display)
            self._display.clear()
            self._rng.shuffle(self._deck)
            events.append(Event(Reshuffled(returned)))
            self._refill(events)

    def _finish(self, reason: str, events: list[Event]) -> None:
        self._to_move = None
        self._end_reason = reason
        self._legal = ()
        events.append(Event(GameEnded(reason, len(self._order), self._kept_result().scores)))

    # ------------------------------------------------------------ seeing

    def observation(self, seat: object) -> SheepAndGardenObservation:
        seat = viewer(self.players, seat)
        return SheepAndGardenObservation(
            players=self.players,
            seat=seat,
            to_move=self._to_move,
            placed=tuple(self._order),
            display=tuple(self._display),
            deck_size=len(self._deck),
            objectives=objective_views(self.slots, seat),
            finished=self._to_move is None,
            end_reason=self._end_reason,
        )

    def render(self) -> str:
        from games.sheep_and_garden.render import render_state

        return render_state(self)

    # ------------------------------------------------------------ scoring

    def score_details(self) -> dict[str, Any]:
        """Every card's count and points, and every seat's total, on the landscape now."""
        analysis = analyse(self.board)
        stats = analysis.stats()
        scored = score_cards(stats)
        per_seat = []
        for seat in range(self.players):
            cards = [
                {
                    "slot": index,
                    "card": slot.card,
                    "name": OBJECTIVE_BY_ID[slot.card].name,
                    "shared_with": [h for h in slot.holders if h != seat],
                    "count": scored[slot.card][0],
                    "points": scored[slot.card][1],
                }
                for index, slot in enumerate(self.slots)
                if seat in slot.holders
            ]
            per_seat.append({"objectives": cards, "total": sum(c["points"] for c in cards)})
        details: dict[str, Any] = {
            "placed": len(self._order),
            "end_reason": self._end_reason,
            "stats": stats,
            "seats": per_seat,
        }
        if self.players == 1:
            enemy = [
                {
                    "slot": index,
                    "card": slot.card,
                    "name": OBJECTIVE_BY_ID[slot.card].name,
                    "count": scored[slot.card][0],
                    "points": scored[slot.card][1],
                }
                for index, slot in enumerate(self.slots)
                if slot.enemy
            ]
            enemy_total = sum(c["points"] for c in enemy)
            difference = per_seat[0]["total"] - enemy_total
            details["enemy"] = {"objectives": enemy, "total": enemy_total}
            details["difference"] = difference
            details["praise"] = praise(difference)
        return details

    def result(self) -> Result:
        if self._to_move is not None:
            raise ValueError("the game is not over")
        known = self._kept_result()
        return Result(known.scores, known.ranks, copy.deepcopy(known.details))

    def _kept_result(self) -> Result:
        """The result, worked out once: final scoring joins the whole landscape
        (about 0.3 ms), and a finished game is asked for it at least twice (its
        GameEnded event, the server's match result). Callers get copies of its
        details from result(); the GameEnded event, which reads only the scores
        (a tuple), takes it as it is."""
        if self._result is None:
            details = self.score_details()
            if self.players == 1:
                scores: tuple[float, ...] = (float(details["difference"]),)
            else:
                scores = tuple(float(s["total"]) for s in details["seats"])
            self._result = Result(scores=scores, ranks=competition_ranks(scores), details=details)
        return self._result
