"""`Game.new_state` as an outside caller meets it: every bad player count,
option set or seed raises InvalidOptions with a message that names the problem,
never another exception and never a game."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games import InvalidOptions
from tests.contract.engines import rejected_configs

NAMES = games.names()


def _players_cases(game: games.Game) -> list[Any]:
    return [game.min_players - 1, game.max_players + 1, 0, -1, 10**100]


@pytest.mark.parametrize("name", NAMES)
def test_a_player_count_out_of_range_names_the_range(name: str) -> None:
    game = games.get(name)
    for players in _players_cases(game):
        with pytest.raises(InvalidOptions, match=f"{game.min_players} to {game.max_players}"):
            game.new_state(players, 0, {})


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("players", ["2", 2.0, True, None, (2,)])
def test_a_player_count_that_is_not_a_whole_number_is_refused(name: str, players: Any) -> None:
    with pytest.raises(InvalidOptions, match="players"):
        games.get(name).new_state(players, 0, {})


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [None, "1", 1.5, True, (1,)])
def test_a_seed_that_is_not_a_whole_number_is_refused(name: str, seed: Any) -> None:
    """None would seed from the operating system: a game no record could replay."""
    game = games.get(name)
    with pytest.raises(InvalidOptions, match="seed"):
        game.new_state(game.min_players, seed, {})


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [0, 1, -1, 2**64 - 1, 2**200])
def test_any_whole_number_seeds_a_game(name: str, seed: int) -> None:
    game = games.get(name)
    state = game.new_state(game.min_players, seed, {})
    assert state.legal_actions()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"no_such_option": True}, "unknown option 'no_such_option'"),
        ({1: True}, "unknown option 1"),
        ({1: True, "zz": 2}, "unknown option"),
        (["rounds"], "options must be a mapping"),
        ("wolf", "options must be a mapping"),
        (5, "options must be a mapping"),
        # Empty but no mapping: they once passed as "no options".
        ([], "options must be a mapping"),
        ("", "options must be a mapping"),
        (0, "options must be a mapping"),
        (False, "options must be a mapping"),
    ],
)
def test_unknown_options_and_non_mappings_are_named(name: str, options: Any, message: str) -> None:
    game = games.get(name)
    with pytest.raises(InvalidOptions, match=message):
        game.new_state(game.min_players, 0, options)


def _bad_values(spec: games.OptionSpec) -> list[Any]:
    if spec.kind == "bool":
        return ["maybe", 2, None, [True], ""]
    if spec.kind == "int":
        assert spec.minimum is not None and spec.maximum is not None
        return [spec.minimum - 1, spec.maximum + 1, "x", 1.5, None, True, "9" * 5000]
    return ["no-such-choice", None, 0]


@pytest.mark.parametrize("name", NAMES)
def test_every_bad_option_value_names_its_option(name: str) -> None:
    game = games.get(name)
    for spec in game.option_specs:
        for value in _bad_values(spec):
            with pytest.raises(InvalidOptions, match=f"option '{spec.name}'"):
                game.new_state(game.max_players, 0, {spec.name: value})


@pytest.mark.parametrize("config", rejected_configs(), ids=str)
def test_option_combinations_a_player_count_cannot_take_are_refused(config: Any) -> None:
    game = games.get(config.game)
    with pytest.raises(InvalidOptions) as raised:
        game.new_state(config.players, 0, dict(config.options))
    assert str(config.players) in str(raised.value)
    assert any(f"'{name}'" in str(raised.value) for name, _ in config.options)


@pytest.mark.parametrize("name", NAMES)
def test_options_given_as_strings_play_the_same_game(name: str) -> None:
    """Options arrive as strings from the wire and the command line."""
    game = games.get(name)
    typed = {spec.name: spec.default for spec in game.option_specs}
    spelled = {spec.name: spec.format_default() for spec in game.option_specs}
    one = game.new_state(game.max_players, 3, typed)
    two = game.new_state(game.max_players, 3, spelled)
    assert one.render() == two.render()
    assert one.observation(None) == two.observation(None)


@pytest.mark.parametrize("name", [None, 7, "Sheep-Showdown", ["sheep-showdown"], {}, {"a": 1}])
def test_an_unknown_game_of_any_kind_is_named(name: Any) -> None:
    """`games.get` refuses whatever names no game with InvalidOptions: a list or
    dict, which no dict of games can hold, once raised a bare TypeError."""
    with pytest.raises(InvalidOptions, match="unknown game"):
        games.get(name)
