"""Hand-built positions and inspection helpers, for tests and search bots."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Self

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
