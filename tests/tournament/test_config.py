"""The TOML config: a good one parses, every bad one names its field."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.config import ConfigError, load_config, parse_config

GOOD = {
    "game": "sheep-showdown",
    "players": 2,
    "options": {"rounds": 1},
    "bots": [
        {"name": "r1", "builtin": "random"},
        {"name": "c1", "class": "pkg.mod:Bot"},
        {"name": "x1", "command": ["{python}", "bot.py"], "env": {"LEVEL": "3"}},
    ],
}


def _with(**changes: object) -> dict:
    raw = {**GOOD, **changes}
    return {key: value for key, value in raw.items() if value is not None}


def test_a_good_config_parses_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-showdown"\nanchor = "r1"\n[options]\nrounds = 1\n'
        '[[bots]]\nname = "r1"\nbuiltin = "random"\n'
        '[[bots]]\nname = "x1"\ncommand = ["prog", "--fast"]\n'
    )
    config = load_config(path)
    assert config.name == "cup" and config.players == 2 and config.anchor == "r1"
    assert config.options_dict == {"rounds": "1"}
    assert config.bot("x1").command == ("prog", "--fast")
    assert config.database == "cup.sqlite" and config.base_dir == str(tmp_path)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (_with(game=None), "game"),
        (_with(game="sheep-chess"), "game"),
        (_with(players=9), "players"),
        (_with(players="two"), "players"),
        (_with(options={"rounds": 7}), "options.rounds"),
        (_with(options={"colour": "red"}), "options.colour"),
        (_with(concurrency=0), "concurrency"),
        (_with(decision_seconds=0), "decision_seconds"),
        (_with(games_per_pairing=1.5), "games_per_pairing"),
        (_with(anchor="nobody"), "anchor"),
        (_with(database=""), "database"),
        (_with(rounds=3), "rounds"),
        (_with(bots=None), "bots"),
        (_with(bots=[{"name": "only", "builtin": "random"}]), "bots"),
        (_with(bots=[{"name": "a", "builtin": "random"}, {"builtin": "random"}]), "bots[1].name"),
        (
            _with(bots=[{"name": "a", "builtin": "random"}, {"name": "a", "builtin": "random"}]),
            "bots[1].name",
        ),
        (_with(bots=[{"name": "a", "builtin": "random"}, {"name": "b"}]), "bots[1]"),
        (
            _with(bots=[{"name": "a", "builtin": "random"}, {"name": "b", "command": "prog"}]),
            "bots[1].command",
        ),
        (
            _with(bots=[{"name": "a", "builtin": "random"}, {"name": "b", "class": "nocolon"}]),
            "bots[1].class",
        ),
        (
            _with(bots=[{"name": "a", "builtin": "random", "speed": 1}, GOOD["bots"][0]]),
            "bots[0].speed",
        ),
    ],
)
def test_a_bad_value_is_one_error_naming_its_field(raw: dict, field: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(raw)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_invalid_toml_and_missing_file_are_config_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("game = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).resolve().parents[2] / "examples").rglob("*.toml")),
    ids=lambda p: p.name,
)
def test_every_example_config_loads(path: Path) -> None:
    config = load_config(path)
    assert config.bots and config.game
