"""Helpers for hand-built Sheep Showdown positions and random play."""

from __future__ import annotations

import random
from typing import Any

from games.contract import Event
from games.sheep_showdown import GAME
from games.sheep_showdown.actions import (
    PlaceBlocker,
    PlaceDog,
    RocketJump,
    SelectDog,
    ShepherdJump,
    Steal,
    Step,
    UseCard,
)
from games.sheep_showdown.state import SheepShowdownState

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
UP_RIGHT, DOWN_RIGHT, DOWN_LEFT, UP_LEFT = 4, 5, 6, 7

position = SheepShowdownState.from_position


def step(state: SheepShowdownState, direction: int, dog: int | None = None) -> list[Event]:
    dog = state.moving if dog is None else dog
    return state.apply(Step(dog, direction))


def rocket(state: SheepShowdownState, direction: int) -> list[Event]:
    return state.apply(RocketJump(state.moving, direction))


def shepherd(state: SheepShowdownState, row: int, col: int) -> list[Event]:
    return state.apply(ShepherdJump(state.moving, row, col))


def block(state: SheepShowdownState, row: int, col: int) -> list[Event]:
    return state.apply(PlaceBlocker(row, col))


def wolf_dog(state: SheepShowdownState, dog: int) -> list[Event]:
    return state.apply(SelectDog(dog, "wolf"))


def choose_dog(state: SheepShowdownState, dog: int) -> list[Event]:
    return state.apply(SelectDog(dog, "move"))


def place(state: SheepShowdownState, row: int, col: int) -> list[Event]:
    return state.apply(PlaceDog(state.moving, row, col))


def steal(state: SheepShowdownState, take: bool = True) -> list[Event]:
    """Answer the pending STEAL decision: take a card or decline."""
    return state.apply(Steal(state.steal_queue[0], take))


def steal_all(state: SheepShowdownState, events: list[Event] | None = None) -> list[Event]:
    """Take a card at every pending STEAL decision; return all the events."""
    events = list(events or [])
    while state.decision_name() == "steal":
        events += steal(state)
    return events


def use_card(state: SheepShowdownState, use: bool = True) -> list[Event]:
    """Answer the pending USE_CARD decision: carry the card out or decline."""
    dog = state.moving
    return state.apply(UseCard(dog, state.grid[state.pos[dog]], use))


def directions(state: SheepShowdownState) -> set[int]:
    """The directions offered by the pending step or rocket decision."""
    return {action.direction for action in state.legal_actions()}


def payloads(events: list[Event], kind: type) -> list[Any]:
    return [event.payload for event in events if isinstance(event.payload, kind)]


def where(state: SheepShowdownState, dog: int) -> tuple[int, int]:
    return divmod(state.pos[dog], state.size)


def random_game(
    players: int, seed: int, options: dict[str, Any] | None = None, choice_seed: int | None = None
) -> tuple[SheepShowdownState, list[int], list[list[Event]]]:
    """Play a random legal game; return the final state, the action indices and
    the events of every apply."""
    state = GAME.new_state(players, seed, options or {})
    chooser = random.Random(seed if choice_seed is None else choice_seed)
    indices: list[int] = []
    history: list[list[Event]] = []
    while not state.terminal:
        actions = state.legal_actions()
        index = chooser.randrange(len(actions))
        indices.append(index)
        history.append(state.apply(actions[index]))
    return state, indices, history
