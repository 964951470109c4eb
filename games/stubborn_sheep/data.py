"""The Stubborn Sheep components, loaded once from the data files next to this module.

Everything here is immutable: tuples indexed by card id, so the engine works on ints.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

BLUE, RED, YELLOW, WHITE = 0, 1, 2, 3
COLOURS = ("blue", "red", "yellow", "white")
COLOUR_INDEX = {name: index for index, name in enumerate(COLOURS)}

LEFT, RIGHT = 0, 1
SIDES = ("left", "right")
UP, DOWN = 0, 1
ORIENTATIONS = ("up", "down")

# The 13 bonuses of the advanced rule, grouped by the colour that prints them.
BONUSES = (
    "pen_plus_one",
    "meadow_to_six",
    "all_meadows_to_five",
    "rotate_fence",
    "activate_twice",
    "activate_extra",
    "yellow_takes_two",
    "blue_stops_after_one",
    "blue_single_step",
    "move_blue",
    "move_red",
    "move_yellow",
    "move_white",
)
BONUS_INDEX = {name: index for index, name in enumerate(BONUSES)}
(
    PEN_PLUS_ONE,
    MEADOW_TO_SIX,
    ALL_MEADOWS_TO_FIVE,
    ROTATE_FENCE,
    ACTIVATE_TWICE,
    ACTIVATE_EXTRA,
    YELLOW_TAKES_TWO,
    BLUE_STOPS_AFTER_ONE,
    BLUE_SINGLE_STEP,
    MOVE_BLUE,
    MOVE_RED,
    MOVE_YELLOW,
    MOVE_WHITE,
) = range(13)
BONUS_COLOUR = (BLUE,) * 3 + (RED,) * 3 + (YELLOW,) * 3 + (WHITE,) * 4
# The colour a white "move" bonus moves.
MOVED_COLOUR = {MOVE_BLUE: BLUE, MOVE_RED: RED, MOVE_YELLOW: YELLOW, MOVE_WHITE: WHITE}

_HERE = Path(__file__).resolve().parent
SHEEP_FILE = _HERE / "sheep.toml"
FENCE_FILE = _HERE / "fences.toml"


def load_sheep(path: Path = SHEEP_FILE) -> tuple[tuple[int, int], ...]:
    """(colour, bonus) per sheep card id."""
    with path.open("rb") as handle:
        rows = tomllib.load(handle)["sheep"]
    cards = []
    for expected, row in enumerate(rows):
        if row["id"] != expected:
            raise ValueError(f"sheep ids must run 0..77 in order, found {row['id']}")
        cards.append((COLOUR_INDEX[row["colour"]], BONUS_INDEX[row["bonus"]]))
    return tuple(cards)


def load_fences(path: Path = FENCE_FILE) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per fence card id: its 4 printed icons (colour, side) in the order
    inner big, inner small, outer big, outer small."""
    with path.open("rb") as handle:
        rows = tomllib.load(handle)["fence"]
    cards = []
    for expected, row in enumerate(rows):
        if row["id"] != expected:
            raise ValueError(f"fence ids must run 0..34 in order, found {row['id']}")
        icons = []
        for text in row["icons"]:
            colour, side = text.split()
            icons.append((COLOUR_INDEX[colour], SIDES.index(side)))
        if len(icons) != 4:
            raise ValueError(f"fence {expected} must show 4 icons")
        cards.append(tuple(icons))
    return tuple(cards)


SHEEP = load_sheep()
SHEEP_COLOUR = tuple(colour for colour, _ in SHEEP)
SHEEP_BONUS = tuple(bonus for _, bonus in SHEEP)
FENCES = load_fences()
N_SHEEP = len(SHEEP)
N_FENCES = len(FENCES)


def _effective(icons: tuple[tuple[int, int], ...], orientation: int) -> tuple[tuple[int, int], ...]:
    """The icons in activation order with their side as the card lies.

    Turned (`down`), the outer row becomes the inner row and left and right swap;
    within a row the big icon still comes first.
    """
    if orientation == UP:
        return icons
    return tuple((colour, 1 - side) for colour, side in (icons[2], icons[3], icons[0], icons[1]))


# EFFECTIVE[card][orientation] -> 4 x (colour, side) in activation order.
EFFECTIVE = tuple(tuple(_effective(icons, o) for o in (UP, DOWN)) for icons in FENCES)
