"""Shared helpers for the Sheep & Garden tests: tiles by name, positions, random play."""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.contract import Event
from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import TILES
from games.sheep_and_garden.model import Slot
from games.sheep_and_garden.scoring import Analysis, analyse
from games.sheep_and_garden.state import SheepAndGardenState

_BY_NAME = {tile.name: tile.id for tile in TILES}


def tid(name: str) -> int:
    """A tile id by its name in tiles.toml (keeps scenarios readable)."""
    return _BY_NAME[name]


def landscape(*placed: tuple[str, int, int, int]) -> dict[tuple[int, int], tuple[int, int]]:
    """{cell: (tile, rotation)} from (tile name, x, y, rotation) entries."""
    return {(x, y): (tid(name), r) for name, x, y, r in placed}


def analysed(*placed: tuple[str, int, int, int]) -> Analysis:
    return analyse(landscape(*placed))


def position(
    players: int,
    placed: Iterable[tuple[str, int, int, int]],
    display: Iterable[str] = (),
    deck: Iterable[str] = (),
    slots: tuple[Slot, ...] | None = None,
    to_move: int = 0,
    seed: int = 0,
) -> SheepAndGardenState:
    return SheepAndGardenState.from_position(
        players,
        [(tid(name), x, y, r) for name, x, y, r in placed],
        [tid(name) for name in display],
        [tid(name) for name in deck],
        slots=slots,
        to_move=to_move,
        seed=seed,
    )


def play_random(
    players: int, seed: int, choice_seed: int | None = None
) -> tuple[SheepAndGardenState, list[int], list[Event]]:
    """A full game of uniformly random legal play; returns state, indices, events."""
    state = GAME.new_state(players, seed)
    rng = random.Random(seed if choice_seed is None else choice_seed)
    indices: list[int] = []
    events: list[Event] = list(state.setup_events)
    while state.to_move is not None:
        actions = state.legal_actions()
        index = rng.randrange(len(actions))
        indices.append(index)
        events.extend(state.apply(actions[index]))
    return state, indices, events


def mismatches(board: dict[tuple[int, int], tuple[int, int]]) -> list[str]:
    """Shared edges whose segments differ (empty for a landscape that obeys the
    matching rule); scenario tests assert this is empty for their hand-built layouts."""
    from games.sheep_and_garden.data import DIRECTIONS, facing

    found = []
    for (x, y), (tile, rotation) in board.items():
        letters = TILES[tile].letters(rotation)
        for d, (dx, dy) in enumerate(DIRECTIONS):
            other = board.get((x + dx, y + dy))
            if other is None:
                continue
            other_letters = TILES[other[0]].letters(other[1])
            for k in range(3):
                s = 3 * d + k
                if letters[s] != other_letters[facing(s)]:
                    found.append(f"({x},{y}) segment {s} vs ({x + dx},{y + dy})")
    return found
