"""The bot guide's table of games and options is what ListGames answers, so a
bot author who reads only the guide knows every option key a game takes."""

from __future__ import annotations

import re
from pathlib import Path

import games
from server import convert

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "writing-a-bot.md"
ROW = re.compile(r"^\| `([a-z-]+)` \| (\d+) to (\d+) \|" + r"\s*(.*?)\s*\|" * 4 + "$")


def _guide_rows() -> list[tuple[str, ...]]:
    section = GUIDE.read_text(encoding="utf-8").split("### 1. ListGames", 1)[1]
    section = section.split("\n### ", 1)[0]
    return [match.groups() for match in map(ROW.match, section.splitlines()) if match]


def _server_rows() -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for name in games.names():
        info = convert.game_info(games.get(name))
        players = (info.name, str(info.min_players), str(info.max_players))
        if not info.options:
            rows.append((*players, "none", "", "", ""))
        for option in info.options:
            rows.append((*players, f"`{option.name}`", option.kind, f"`{option.default}`", ""))
    return rows


def test_the_guide_lists_every_game_and_option_as_list_games_gives_them() -> None:
    guide = _guide_rows()
    assert [row[:6] for row in guide] != []
    assert sorted(row[:6] for row in guide) == sorted(row[:6] for row in _server_rows())


def test_the_guide_gives_each_int_options_bounds() -> None:
    bounds = {}
    for name in games.names():
        for option in convert.game_info(games.get(name)).options:
            if option.kind == "int":
                bounds[(name, f"`{option.name}`")] = f"{option.minimum} to {option.maximum}"
    guide = {(row[0], row[3]): row[6] for row in _guide_rows() if row[4] == "int"}
    assert set(guide) == set(bounds)
    for key, values in guide.items():
        assert values.startswith(bounds[key] + ":"), (key, values)
