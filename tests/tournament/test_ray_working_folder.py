"""A Ray worker whose folder was removed and unpacked again at the same place
(several nodes on one machine share Ray's unpacked files) moves into the new
one, instead of failing its games with a bare "No such file or directory"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SCRIPT = """
import os, shutil, sys
from tournament.config import load_config
from tournament.executors.ray_task import worker_config
folder, config = sys.argv[1], load_config(sys.argv[3])
os.chdir(folder)
shutil.rmtree(folder)
if sys.argv[2] == "again":
    os.mkdir(folder)
    open(os.path.join(folder, "bot.py"), "w").close()
try:
    place = worker_config(config).base_dir
except FileNotFoundError as error:
    print("refused:", error)
else:
    print(place, os.getcwd() == place, os.path.exists("bot.py"))
"""
CONFIG = """
game = "sheep-showdown"
players = 2
[[bots]]
name = "a"
builtin = "random"
[[bots]]
name = "b"
builtin = "random"
"""


def _run(folder: Path, how: str) -> str:
    config = folder.parent / "cup.toml"
    config.write_text(CONFIG)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(folder), how, str(config)],
        cwd=ROOT,
        env={"PYTHONPATH": f"{ROOT}:{ROOT / 'proto'}"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


def test_a_worker_moves_into_its_folder_unpacked_again(tmp_path: Path) -> None:
    folder = tmp_path / "_ray_pkg_1234"
    folder.mkdir()
    assert _run(folder, "again") == f"{folder} True True"


def test_a_worker_whose_folder_is_gone_says_which(tmp_path: Path) -> None:
    folder = tmp_path / "_ray_pkg_1234"
    folder.mkdir()
    said = _run(folder, "gone")
    assert said.startswith(f"refused: this Ray worker's folder {folder} was removed"), said
