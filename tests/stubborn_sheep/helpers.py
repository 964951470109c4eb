"""Helpers for the Stubborn Sheep tests: card ids by colour, fence finders, playing."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from games.contract import Event
from games.stubborn_sheep import GAME
from games.stubborn_sheep.data import DOWN, EFFECTIVE, N_FENCES, UP
from games.stubborn_sheep.events import TurnStarted
from games.stubborn_sheep.state import StubbornSheepState


def b(i: int) -> int:
    """The i-th blue sheep card (bonuses cycle pen_plus_one, meadow_to_six, all_meadows_to_five)."""
    return i


def r(i: int) -> int:
    """The i-th red sheep (rotate_fence, activate_twice, activate_extra)."""
    return 18 + i


def y(i: int) -> int:
    """The i-th yellow sheep (yellow_takes_two, blue_stops_after_one, blue_single_step)."""
    return 36 + i


def w(i: int) -> int:
    """The i-th white sheep (move_blue, move_red, move_yellow, move_white)."""
    return 54 + i


Icons = tuple[tuple[int, int], ...]


def find_fence(predicate: Callable[[Icons], bool], exclude: Iterable[int] = ()) -> tuple[int, int]:
    """(card, orientation) of the first fence card whose icons, in activation order
    and as the card lies, satisfy `predicate`."""
    skip = set(exclude)
    for card in range(N_FENCES):
        if card in skip:
            continue
        for orientation in (UP, DOWN):
            if predicate(EFFECTIVE[card][orientation]):
                return card, orientation
    raise LookupError("no fence card fits")


def payloads(events: Iterable[Event]) -> list[Any]:
    return [event.payload for event in events]


def until_next_turn(events: Iterable[Event]) -> list[Any]:
    """The payloads of the current turn, up to the next TurnStarted."""
    out = []
    for payload in payloads(events):
        if isinstance(payload, TurnStarted):
            break
        out.append(payload)
    return out


def of_type(events: Iterable[Event], kind: type) -> list[Any]:
    return [event.payload for event in events if isinstance(event.payload, kind)]


def pick(state: StubbornSheepState, kind: type, **fields: Any) -> Any:
    """The one legal action of `kind` whose fields match."""
    found = [
        action
        for action in state.legal_actions()
        if isinstance(action, kind)
        and all(getattr(action, name) == value for name, value in fields.items())
    ]
    assert len(found) == 1, (kind, fields, state.legal_actions())
    return found[0]


def where(state: StubbornSheepState, card: int) -> int:
    """The area holding sheep `card`, or -1."""
    for index, area in enumerate(state.areas):
        if card in area:
            return index
    return -1


def random_game(
    players: int, seed: int, options: dict[str, bool] | None = None
) -> tuple[StubbornSheepState, list[int], list[Event]]:
    """A random full game: the final state, the action indices and every event."""
    state = GAME.new_state(players, seed, options or {})
    rng = random.Random(seed * 7919 + players)
    indices: list[int] = []
    events: list[Event] = []
    while not state.terminal:
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        indices.append(index)
        events.extend(state.apply(legal[index]))
    return state, indices, events


def empty_areas(n: int) -> list[list[int]]:
    return [[] for _ in range(n)]


def frame3(
    hand_card: int,
    areas: list[list[int]],
    *,
    start: str = "place",
    **kwargs: Any,
) -> StubbornSheepState:
    """3 players, seat 0 to play holding `hand_card` (at "score", already placed: seat
    0's hand is empty, as in a game); the table fences are other cards.

    Circle: fence 0 | pen 0 (area 0) | fence 1 | meadow 1 | fence 2 | pen 1 (area 2) |
    fence 3 | meadow 3 | fence 4 | pen 2 (area 4) | fence 5 | meadow 5 | back to fence 0.
    """
    others = [card for card in range(N_FENCES) if card != hand_card]
    tops = kwargs.pop("fences", others[:6])
    own = [] if start == "score" else [hand_card]
    hands = kwargs.pop("hands", [own, [others[6]], [others[7]]])
    return StubbornSheepState.from_position(
        3, areas=areas, fences=tops, hands=hands, start=start, **kwargs
    )
