"""Pure rules engines, one package per game, and the contract they share.

`get(name)` returns a `Game`; `names()` lists them. Game packages are imported
only when asked for, so one game's import cost is not paid by another.
"""

from __future__ import annotations

import importlib

from games.contract import Action, Codec, Event, Game, Result, State
from games.errors import IllegalAction, InvalidOptions, RulesChanged
from games.options import OptionSpec, brief

__all__ = [
    "Action",
    "Codec",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "OptionSpec",
    "Result",
    "RulesChanged",
    "State",
    "get",
    "names",
]

_PACKAGES = {
    "sheep-showdown": "games.sheep_showdown",
    "sheep-n-sheep": "games.sheep_n_sheep",
    "sheep-and-garden": "games.sheep_and_garden",
    "stubborn-sheep": "games.stubborn_sheep",
}


def names() -> tuple[str, ...]:
    """The wire names of every game on the server."""
    return tuple(_PACKAGES)


def get(name: str) -> Game:
    """The game called `name` (its wire name, e.g. "sheep-showdown")."""
    try:
        package = _PACKAGES[name]
    except (KeyError, TypeError):  # TypeError: a list or dict, which names no game
        raise InvalidOptions(
            f"unknown game {brief(name)} (games: {', '.join(_PACKAGES)})"
        ) from None
    return importlib.import_module(package).GAME
