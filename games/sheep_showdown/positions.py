"""Hand-built positions and inspection helpers, for tests and search bots."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Self

from games.positions import check_position_seed
from games.sheep_showdown import cards as C
from games.sheep_showdown.decisions import (
    BLOCKER,
    CAP_FACTOR,
    DECISIONS,
)
from games.sheep_showdown.fields import SheepShowdownFields


class Positions(SheepShowdownFields):
    """from_position and card accounting; mixed into SheepShowdownState."""

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
    ) -> Self:
        """A hand-built position at the start of `to_move`'s turn.

        `rows` are strings of card characters (C.CARD_CHARS; '#' is a blocked
        1-sheep), `dogs` maps dog number to (row, col); every dog of every seat
        must be placed. Seats whose every dog is in `out_dogs` are out. Any grid
        size works (the turn cap follows it).
        """
        size = len(rows)
        per = 2 if double_trouble else 1
        if players is None:
            players = max(2, max(dogs, default=0) // per + 1)
        _check_shape(players, double_trouble, to_move, first_player, rounds, round, totals)
        check_position_seed(seed)
        if round < rounds and size != (7 if players <= 4 else 9):
            raise ValueError(
                f"a {size}x{size} grid cannot go on to round {round + 1}: later rounds are"
                f" dealt on {'7x7' if players <= 4 else '9x9'} for {players} players"
            )
        _check_dogs(dogs, size, players * per, out_dogs)
        _check_flocks(flocks or {}, players)
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
                card = C.CHAR_CARDS.get(char)
                if card is None:
                    known = " ".join(C.CARD_CHARS.values())
                    raise ValueError(f"row {line!r}: {char!r} is no card (one of {known})")
                grid.append(C.BLOCKED_FLAG | C.SHEEP1 if card == C.BLOCKED else card)
        _check_out_dogs_cards(grid, dogs, out_dogs, size)
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


def _check_shape(
    players: int,
    double_trouble: bool,
    to_move: int,
    first_player: int,
    rounds: int,
    round: int,
    totals: list[int] | None,
) -> None:
    """2 to 6 players (Double Trouble: 2), seats that exist, a round of the game."""
    if players not in range(2, 7):
        raise ValueError(f"{players!r} players: Sheep Showdown takes 2 to 6")
    if double_trouble and players != 2:
        raise ValueError(f"Double Trouble is for 2 players, not {players}")
    for name, seat in (("to_move", to_move), ("first_player", first_player)):
        if seat not in range(players):
            raise ValueError(f"{name} {seat!r} is not one of seats 0 to {players - 1}")
    if not 1 <= round <= rounds:
        raise ValueError(f"round {round!r} is not one of 1 to rounds ({rounds!r})")
    if totals is not None and len(totals) != players:
        raise ValueError(f"{len(totals)} totals for {players} players")


def _check_dogs(
    dogs: Mapping[int, tuple[int, int]], size: int, count: int, out_dogs: tuple[int, ...]
) -> None:
    """Every dog 0..count-1 placed once, on its own cell of the grid."""
    if sorted(dogs) != list(range(count)):
        raise ValueError(f"dogs must place every dog 0 to {count - 1}, got {sorted(dogs)}")
    seen: dict[tuple[int, int], int] = {}
    for dog, (row, col) in dogs.items():
        if row not in range(size) or col not in range(size):
            raise ValueError(f"dog {dog} at {(row, col)!r} is off the {size}x{size} grid")
        if (row, col) in seen:
            raise ValueError(f"dogs {seen[(row, col)]} and {dog} are both at {(row, col)!r}")
        seen[(row, col)] = dog
    for dog in out_dogs:
        if dog not in range(count):
            raise ValueError(f"out dog {dog!r} is not one of dogs 0 to {count - 1}")


def _check_out_dogs_cards(
    grid: list[int], dogs: Mapping[int, tuple[int, int]], out_dogs: tuple[int, ...], size: int
) -> None:
    """No out dog on a sheep, wolf or blocked card. A dog in play may stand on
    any card (it does nothing until a dog steps onto it again), but an out dog
    never moves again: it lies where it went out, on a card a dog stood on and
    left there (a sheep or wolf is taken by the dog entering it, a blocked card
    cannot be entered) or on a cell a bomb emptied. Placed there, it would hold
    that card out of play for the rest of the round."""
    for dog in out_dogs:
        row, col = dogs[dog]
        card = grid[row * size + col]
        if card >= C.BLOCKED_FLAG or C.is_sheep(card) or card == C.WOLF:
            name = C.CARD_NAMES[C.BLOCKED if card >= C.BLOCKED_FLAG else card]
            raise ValueError(
                f"out dog {dog} at {(row, col)!r} lies on a {name} card: an out dog lies"
                " on the cell it last stood on, never a sheep, wolf or blocked card"
            )


def _check_flocks(flocks: Mapping[int, list[int]], players: int) -> None:
    """Flocks of seats that exist, holding what a flock can hold: sheep and wolves."""
    for seat, flock in flocks.items():
        if seat not in range(players):
            raise ValueError(f"flock of seat {seat!r}: seats are 0 to {players - 1}")
        for card in flock:
            if not (C.is_sheep(card) or card == C.WOLF):
                raise ValueError(
                    f"flock of seat {seat}: {card!r} is not a sheep or wolf card code"
                    f" ({C.SHEEP1}-{C.SHEEP5} or {C.WOLF})"
                )
