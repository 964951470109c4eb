"""A plain-text picture of the landscape, for replays and test failure messages.

Each tile is drawn 5 characters wide and 5 lines high: its 12 edge segments
around the border (l lake, c city, f garden, g grass, r road) and its tile id
in the middle. Empty cells are blank.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from games.sheep_and_garden.data import OBJECTIVE_BY_ID, TILES

if TYPE_CHECKING:
    from games.sheep_and_garden.state import SheepAndGardenState


def _tile_block(tile_id: int, rotation: int) -> list[str]:
    s = TILES[tile_id].letters(rotation)
    mid = f"{tile_id:^3}"
    return [
        f" {s[0]}{s[1]}{s[2]} ",
        f"{s[11]}   {s[3]}",
        f"{s[10]}{mid}{s[4]}",
        f"{s[9]}   {s[5]}",
        f" {s[8]}{s[7]}{s[6]} ",
    ]


def render_landscape(board: Mapping[tuple[int, int], tuple[int, int]]) -> str:
    """The landscape as a grid of 5x5 character tiles, with column and row numbers."""
    if not board:
        return "(empty landscape)"
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    lines = ["     " + "".join(f"{x:^5}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        blocks = [
            _tile_block(*board[(x, y)]) if (x, y) in board else [" " * 5] * 5
            for x in range(x0, x1 + 1)
        ]
        for row in range(5):
            label = f"{y:>4} " if row == 2 else "     "
            lines.append((label + "".join(block[row] for block in blocks)).rstrip())
    return "\n".join(lines)


def render_state(state: SheepAndGardenState) -> str:
    lines = [render_landscape(state.board), ""]
    shown = ", ".join(f"{t} ({TILES[t].name} {TILES[t].segments})" for t in state.display)
    lines.append(f"shown: {shown or '-'}; deck: {state.deck_size}; placed: {len(state.board)}")
    public = [
        f"{OBJECTIVE_BY_ID[slot.card].name} ({'enemy' if slot.enemy else slot.holders})"
        for slot in state.slots
        if slot.face_up
    ]
    if public:
        lines.append("face-up objectives: " + "; ".join(public))
    if state.to_move is None:
        lines.append(f"game over: {state.end_reason}")
    else:
        lines.append(f"to move: seat {state.to_move}")
    return "\n".join(lines)
