"""Card codes, the printed compositions (cards.toml) and the grid geometry.

Cards are small ints so that a grid is a flat list of ints. The codes are the
same numbers the wire enum `SheepShowdownCard` uses.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

EMPTY = 0
SHEEP1 = 1
SHEEP2 = 2
SHEEP3 = 3
SHEEP5 = 4
SHEPHERD = 5
ROCKET = 6
BLOCKING = 7
SLIDING = 8
BOMB = 9
WOLF = 10
# Only in observations: a sheep card covered by a blocking sheep.
BLOCKED = 11
# In the engine's grid a blocked cell holds BLOCKED_FLAG | covered sheep code.
BLOCKED_FLAG = 16

KIND_NAMES: dict[str, int] = {
    "sheep1": SHEEP1,
    "sheep2": SHEEP2,
    "sheep3": SHEEP3,
    "sheep5": SHEEP5,
    "shepherd": SHEPHERD,
    "rocket": ROCKET,
    "blocking": BLOCKING,
    "sliding": SLIDING,
    "bomb": BOMB,
    "wolf": WOLF,
}
CARD_NAMES: dict[int, str] = {
    EMPTY: "empty",
    SHEEP1: "1-sheep",
    SHEEP2: "2-sheep",
    SHEEP3: "3-sheep",
    SHEEP5: "5-sheep",
    SHEPHERD: "shepherd",
    ROCKET: "rocket sheep",
    BLOCKING: "blocking sheep",
    SLIDING: "sliding sheep",
    BOMB: "bomb sheep",
    WOLF: "wolf",
    BLOCKED: "blocked",
}
# One character per card for render() and for hand-built test positions.
CARD_CHARS: dict[int, str] = {
    EMPTY: ".",
    SHEEP1: "1",
    SHEEP2: "2",
    SHEEP3: "3",
    SHEEP5: "5",
    SHEPHERD: "S",
    ROCKET: "R",
    BLOCKING: "B",
    SLIDING: "L",
    BOMB: "X",
    WOLF: "W",
    BLOCKED: "#",
}
CHAR_CARDS: dict[str, int] = {char: card for card, char in CARD_CHARS.items()}

SHEEP_POINTS: dict[int, int] = {SHEEP1: 1, SHEEP2: 2, SHEEP3: 3, SHEEP5: 5}


def is_sheep(card: int) -> bool:
    """A regular (green) sheep card, not covered."""
    return SHEEP1 <= card <= SHEEP5


DATA_FILE = Path(__file__).with_name("cards.toml")


@cache
def compositions() -> dict[str, dict[str, int]]:
    """The two printed lists from cards.toml: "full" (81) and "small" (49)."""
    with DATA_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    return {name: dict(data[name]) for name in ("full", "small")}


@cache
def deck(size: int) -> tuple[int, ...]:
    """The round's cards, in a fixed order (shuffled by the state's generator)."""
    counts = compositions()["small" if size == 7 else "full"]
    cards: list[int] = []
    for name, count in counts.items():
        cards.extend([KIND_NAMES[name]] * count)
    if len(cards) != size * size:
        raise ValueError(f"{size}x{size} needs {size * size} cards, the data file has {len(cards)}")
    return tuple(cards)


# Directions: the four orthogonal ones clockwise from up, then the four
# diagonal ones clockwise from up-right. Only a step onto a sliding sheep (and
# the slide it starts) goes diagonally.
DIRECTIONS = ("up", "right", "down", "left", "up-right", "down-right", "down-left", "up-left")
ALL_DIRECTIONS = range(8)
ORTHOGONAL = range(4)
DIAGONAL = range(4, 8)
_DR = (-1, 0, 1, 0, -1, 1, 1, -1)
_DC = (0, 1, 0, -1, 1, 1, -1, -1)


@dataclass(frozen=True, slots=True)
class Geometry:
    """Neighbour tables for a size x size grid (cell = row * size + col)."""

    size: int
    cells: int
    # step[cell * 8 + d]: the neighbour in direction d (DIRECTIONS), or -1.
    step: tuple[int, ...]
    # around[cell]: the cell and its up to 8 surrounding cells (bomb blast).
    around: tuple[tuple[int, ...], ...]
    # orth[cell]: the orthogonal neighbours that exist.
    orth: tuple[tuple[int, ...], ...]
    ring: frozenset[int]


@cache
def geometry(size: int) -> Geometry:
    step: list[int] = []
    around: list[tuple[int, ...]] = []
    orth: list[tuple[int, ...]] = []
    ring: set[int] = set()
    for row in range(size):
        for col in range(size):
            for d in ALL_DIRECTIONS:
                r, c = row + _DR[d], col + _DC[d]
                step.append(r * size + c if 0 <= r < size and 0 <= c < size else -1)
            around.append(
                tuple(
                    r * size + c
                    for r in range(row - 1, row + 2)
                    for c in range(col - 1, col + 2)
                    if 0 <= r < size and 0 <= c < size
                )
            )
            orth.append(tuple(n for n in step[-8:-4] if n >= 0))
            if row in (0, size - 1) or col in (0, size - 1):
                ring.add(row * size + col)
    return Geometry(size, size * size, tuple(step), tuple(around), tuple(orth), frozenset(ring))


def layout_ok(cards: list[int] | tuple[int, ...], size: int) -> bool:
    """The two layout rules: no two shepherds orthogonally adjacent, no sliding
    sheep on the outer ring."""
    geo = geometry(size)
    for cell, card in enumerate(cards):
        if card == SLIDING and cell in geo.ring:
            return False
        if card == SHEPHERD and any(cards[n] == SHEPHERD for n in geo.orth[cell]):
            return False
    return True


def repair_layout(cards: list[int], size: int) -> list[int]:
    """Fix the layout rules in place, deterministically, and return `cards`.

    Repeatedly take the first offending card in reading order and swap it with
    the next cell (reading order, wrapping) that holds an ordinary card (neither
    shepherd nor sliding) and where the offender is allowed. The ordinary card
    that moves into the offender's cell can break no rule, so every swap removes
    one offence and adds none.
    """
    geo = geometry(size)
    cells = geo.cells
    while True:
        bad = -1
        for cell, card in enumerate(cards):
            if (card == SLIDING and cell in geo.ring) or (
                card == SHEPHERD and any(cards[n] == SHEPHERD for n in geo.orth[cell])
            ):
                bad = cell
                break
        if bad < 0:
            return cards
        card = cards[bad]
        for offset in range(1, cells):
            target = (bad + offset) % cells
            if cards[target] in (SHEPHERD, SLIDING):
                continue
            if card == SLIDING and target in geo.ring:
                continue
            if card == SHEPHERD and any(cards[n] == SHEPHERD for n in geo.orth[target] if n != bad):
                continue
            cards[bad], cards[target] = cards[target], card
            break
        else:  # pragma: no cover - impossible with the printed compositions
            raise ValueError("cannot repair the layout")
