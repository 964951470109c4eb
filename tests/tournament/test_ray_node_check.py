"""The check each Ray node runs before the first game (ray_task.check_node)
judges a built-in or class bot as the local check (tournament.botcheck) does,
so one config gives the same outcome with and without --ray. It built every
class bot: a class with a `decide` method whose constructor raises stopped a
Ray run before its first game, where a local run counts that bot a crash in
each game and plays on. Ray is not started here: a worker's folder is a plain
folder, made the current folder as Ray makes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.botcheck import BotCheckError, check_bots
from tournament.config import TournamentConfig, load_config
from tournament.executors.ray_shipping import runtime_env_for
from tournament.executors.ray_task import check_node

BOTS = """\
import os

class Raises:
    def __init__(self, seed=0):
        raise RuntimeError("no weights file")

    def decide(self, decision):
        return 0

class RaisesAndMakesDecide:
    def __init__(self, seed=0):
        raise RuntimeError("no weights file")

def factory(seed=0):
    from clients.bots import load_bot
    return load_bot("random", seed)

def nothing(seed=0):
    return object()
"""


def _cup(tmp_path: Path, name: str, spec: str) -> TournamentConfig:
    cup = tmp_path / "cup"
    cup.mkdir(exist_ok=True)
    # A module name of this test's own: sys.modules keeps what an earlier test imported.
    (cup / f"{name}_bots.py").write_text(BOTS)
    path = cup / "cup.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\npython_path = ["."]\n'
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
        f'[[bots]]\nname = "{name}"\nclass = "{name}_bots:{spec}"\n'
    )
    return load_config(path)


def _local(config: TournamentConfig) -> list[str]:
    try:
        check_bots(config)
    except BotCheckError as error:
        return [problem.message for problem in error.problems]
    return []


def _on_a_node(
    tmp_path: Path, config: TournamentConfig, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    _env, shipped = runtime_env_for(config, str(tmp_path / "cup" / "cup.sqlite"))
    worker = tmp_path / "_ray_pkg_1"
    worker.mkdir()
    for module in (tmp_path / "cup").glob("*.py"):
        (worker / module.name).write_text(module.read_text())
    monkeypatch.chdir(worker)
    return list(check_node(shipped, ()).problems)


@pytest.mark.parametrize(
    ("name", "spec", "refused"),
    [
        # Its games start it, and each counts a crash: the run plays on.
        ("raises", "Raises", False),
        # Made once for the check (no `decide` before it is made): refused.
        ("latedecide", "RaisesAndMakesDecide", True),
        ("factory", "factory", False),
        ("nothing", "nothing", True),
    ],
)
def test_a_node_refuses_the_class_bots_the_local_check_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, spec: str, refused: bool
) -> None:
    config = _cup(tmp_path, name, spec)
    monkeypatch.syspath_prepend(str(tmp_path / "cup"))
    local = _local(config)
    assert bool(local) == refused, local
    monkeypatch.syspath_prepend(str(tmp_path / "_ray_pkg_1"))
    there = _on_a_node(tmp_path, config, monkeypatch)
    assert there == [f"bot {name!r}: {problem}" for problem in local]
