"""Shared pieces of the engine conformity tests: every game, player count and
option combination, and a deep snapshot of everything a caller can see of a state."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator
from typing import Any

import games
from games import Game, InvalidOptions, State


@dataclasses.dataclass(frozen=True)
class Config:
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]

    def new_state(self, seed: int) -> State:
        return games.get(self.game).new_state(self.players, seed, dict(self.options))

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game}-{self.players}p{('-' + opts) if opts else ''}"


def option_values(game: Game) -> list[tuple[tuple[str, Any], ...]]:
    """Every combination of every option's values (ints over their whole range)."""
    axes = []
    for spec in game.option_specs:
        if spec.kind == "bool":
            values: list[Any] = [False, True]
        elif spec.kind == "choice":
            values = list(spec.choices)
        else:
            assert spec.minimum is not None and spec.maximum is not None
            values = list(range(spec.minimum, spec.maximum + 1))
        axes.append([(spec.name, value) for value in values])
    return [tuple(combo) for combo in itertools.product(*axes)]


def _every_config() -> list[tuple[Config, bool]]:
    """Every game, player count and option combination, and whether the game
    accepts it (check_options refuses some combinations for a player count)."""
    out = []
    for name in games.names():
        game = games.get(name)
        for players in range(game.min_players, game.max_players + 1):
            for options in option_values(game):
                try:
                    game.new_state(players, 0, dict(options))
                except InvalidOptions:
                    out.append((Config(name, players, options), False))
                else:
                    out.append((Config(name, players, options), True))
    return out


def configs() -> list[Config]:
    """Every game, player count and option combination the game accepts."""
    return [config for config, accepted in _every_config() if accepted]


def rejected_configs() -> list[Config]:
    """Option combinations a game refuses for a player count (check_options)."""
    return [config for config, accepted in _every_config() if not accepted]


def snapshot(state: State) -> str:
    """Everything a caller can see of `state`, written out (so that neither later
    aliasing nor values that compare equal across types, True and 1, hide a change)."""
    seats = (None, *range(state.players))
    return repr(
        (
            state.to_move,
            state.terminal,
            tuple(state.legal_actions()),
            tuple(state.observation(seat) for seat in seats),
            state.render(),
            state.prompt(),
            state.result() if state.terminal else None,
        )
    )


def fields(action: Any) -> dict[str, Any]:
    """An action's fields by name (a dataclass or a named tuple)."""
    if dataclasses.is_dataclass(action):
        return {f.name: getattr(action, f.name) for f in dataclasses.fields(action)}
    return dict(zip(action._fields, action, strict=True))


def rebuilt(action: Any) -> Any:
    """A new action of the same class with the same field values."""
    return type(action)(**fields(action))


def with_field(action: Any, name: str, value: Any) -> Any:
    """`action` with one field replaced, bypassing nothing but the constructor's types."""
    values = fields(action)
    values[name] = value
    return type(action)(**values)


def random_game(config: Config, seed: int) -> Iterator[tuple[State, Any]]:
    """The states of a random game and the action about to be applied in each."""
    return random_game_from(config.new_state(seed), seed)


def random_game_from(state: State, seed: int) -> Iterator[tuple[State, Any]]:
    """`state` played on at random: each state and the action about to be applied
    (None once the game is over)."""
    rng = random.Random(seed)
    while not state.terminal:
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        yield state, action
        state.apply(action)
    yield state, None


CONFIGS = configs()
IDS = [str(config) for config in CONFIGS]
