"""A sandboxed bot's `read_only` paths (and an absolute `cwd`) inside the
config's folder are found on a Ray worker in Ray's copy of that folder. They
were the driver's absolute paths, which a worker bound as they were: on a node
without the driver's disk the sandbox could not start and the bot crashed in
every game; on the driver's machine it read the driver's files, not what Ray
shipped. Ray is not started here: a worker's folder is a plain folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tournament.config import TournamentConfig, load_config
from tournament.executors.ray import _hint
from tournament.executors.ray_shipping import runtime_env_for
from tournament.executors.ray_task import check_node, worker_config
from tournament.seats import bot_folder

ELSEWHERE = str(Path(sys.executable).resolve().parent)  # a folder outside, on every node


def _cup(tmp_path: Path) -> Path:
    cup = tmp_path / "cup"
    (cup / "data").mkdir(parents=True)
    (cup / "bot").mkdir()
    path = cup / "cup.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        f'[[bots]]\nname = "cmd"\ncommand = ["{{python}}", "bot.py"]\ncwd = "{cup / "bot"}"\n'
        f'sandbox = {{ read_only = ["data", "{ELSEWHERE}"] }}\n'
    )
    return path


def _shipped_to_a_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[TournamentConfig, Path]:
    """The config as Ray ships it, and the (empty) folder a worker runs in, made
    the current folder as Ray makes it."""
    config = load_config(_cup(tmp_path))
    _env, shipped = runtime_env_for(config, str(tmp_path / "cup" / "cup.sqlite"))
    worker = tmp_path / "_ray_pkg_1234"
    worker.mkdir()
    monkeypatch.chdir(worker)
    return shipped, worker


def test_read_only_paths_and_cwd_in_the_config_folder_point_at_the_workers_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped, worker = _shipped_to_a_worker(tmp_path, monkeypatch)
    here = worker_config(shipped)
    bot = here.bot("cmd")
    assert bot.sandbox is not None
    assert bot.sandbox.read_only == (str(worker / "data"), ELSEWHERE)
    assert bot_folder(bot, here.base_dir) == str(worker / "bot")


def test_a_node_without_a_read_only_path_fails_the_check_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped, worker = _shipped_to_a_worker(tmp_path, monkeypatch)
    (worker / "bot").mkdir()  # Ray's copy, without data/
    problems = check_node(shipped, ()).problems
    missing = f"bot 'cmd': read_only path {str(worker / 'data')!r} is missing"
    assert missing in problems
    assert _hint([f"host (node 1): {missing}"]) == (
        "a sandbox's read_only paths must be in the config's folder or on every node"
    )
