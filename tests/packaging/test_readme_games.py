"""The README's table of games says what the engines take: every game by its
wire name, its player counts and its options, and no game that is not there."""

from __future__ import annotations

import re

import games
from games.ai import get_ai
from tests.conftest import ROOT

ROW = re.compile(r"^\| ([^|]+) \| `([a-z-]+)` \| (\d+)-(\d+) \| ([^|]+) \| .+ \|$", re.M)


def _readme_rows() -> dict[str, tuple[str, int, int, set[str]]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = {}
    for title, name, low, high, options in ROW.findall(readme):
        named = set(re.findall(r"^`([a-z_]+)`|, `([a-z_]+)`", options.strip()))
        rows[name] = (title.strip(), int(low), int(high), {a or b for a, b in named})
    return rows


def test_the_readme_games_table_matches_the_engines() -> None:
    rows = _readme_rows()
    assert set(rows) == set(games.names())
    for name, (title, low, high, options) in rows.items():
        game = games.get(name)
        assert (title, low, high) == (game.title, game.min_players, game.max_players), name
        assert options == {spec.name for spec in game.option_specs}, name


def test_the_readme_gives_every_games_mcts_time_budget() -> None:
    """The README says how long `mcts` searches by default: each game's own
    budget must be there (Sheep & Garden's is ten times the others')."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    start = readme.index("`mcts` on its default time budget")
    sentence = readme[start : readme.index(".", start)]
    for name in games.names():
        milliseconds = get_ai(name).mcts_settings["milliseconds"]
        assert f"{milliseconds:g} ms" in sentence, name
