"""A command bot whose interpreter is there but whose script is not
(`command = ["{python}", "bto.py"]`, a typo) is refused before the first game.
Only the program was checked: the run played every game of the bot, each one
a crash at once ("can't open file ... bto.py") played by a random stand-in, and
ended 84 games later with exit 1, where the docs promise that a typo never
turns into a tournament of random stand-ins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clients.launch.programs import script_problem
from tests.conftest import ROOT
from tournament.botcheck import BotCheckError, check_bots
from tournament.config import load_config

pytestmark = pytest.mark.e2e


def _config(folder: Path, command: str) -> Path:
    bot = folder / "mine"
    bot.mkdir(exist_ok=True)
    (bot / "bot.py").write_text("raise SystemExit(1)\n")
    path = folder / "cup.toml"
    path.write_text(
        'name = "cup"\ngame = "sheep-n-sheep"\nplayers = 2\ngames_per_pairing = 1\n'
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
        f'[[bots]]\nname = "mine"\ncommand = {command}\ncwd = "mine"\nsandbox = false\n'
    )
    return path


def test_a_missing_script_is_one_line_before_anything_is_played(tmp_path: Path) -> None:
    config = _config(tmp_path, '["{python}", "-u", "bto.py", "--level", "3"]')
    done = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", "run", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 2, done.stderr
    interpreter = os.path.basename(sys.executable)
    assert done.stderr.splitlines() == [
        f"sheepfold tournament: {config}: bots[1].command[2]: {interpreter} would run "
        f"'bto.py', no file {tmp_path / 'mine' / 'bto.py'}"
    ]
    assert not (tmp_path / "cup.sqlite").exists(), "nothing was played or stored"


@pytest.mark.parametrize(
    "command",
    [
        '["{python}", "bot.py"]',
        '["{python}", "-W", "ignore", "bot.py"]',
        '["{python}", "{config_dir}/mine/bot.py"]',
        '["{python}", "-m", "clients.bots.random_bot"]',
        '["{python}", "-c", "import x; print(\'y.py\')"]',
    ],
)
def test_a_script_that_is_there_or_no_script_passes_the_check(tmp_path: Path, command: str) -> None:
    check_bots(load_config(_config(tmp_path, command)))


def test_the_script_is_named_by_its_place_in_the_command(tmp_path: Path) -> None:
    with pytest.raises(BotCheckError) as refused:
        check_bots(load_config(_config(tmp_path, '["{python}", "--", "other.py"]')))
    assert [problem.field for problem in refused.value.problems] == ["bots[1].command[2]"]


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        (["python3", "gone.py"], 1),
        (["/usr/bin/node", "--max-old-space-size=256", "gone.mjs"], 2),
        (["bash", "gone.sh"], 1),
        (["ruby", "gone.rb", "x.rb"], 1),
        (["python3", "here.py", "gone.py"], None),  # the script's own arguments
        (["python3", "-W", "ignore", "here.py"], None),  # an option's value
        (["python3", "-mpkg", "gone.py"], None),  # a module, glued to -m
        (["node", "-e", "1", "gone.js"], None),  # inline code
        (["php", "-r", "echo 1;"], None),
        (["./mybot", "gone.py"], None),  # no interpreter: its arguments are its own
        (["python3", "-"], None),
        (["python3", "sub"], None),  # a folder with __main__.py is not a script name
    ],
)
def test_which_argument_is_the_script(
    tmp_path: Path, command: list[str], refused: int | None
) -> None:
    (tmp_path / "here.py").write_text("")
    (tmp_path / "sub").mkdir()
    problem = script_problem(command, tmp_path)
    assert (None if problem is None else problem[0]) == refused, problem


def test_a_folder_named_as_the_script_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bot.py").mkdir()
    assert script_problem(["python3", "bot.py"], tmp_path) == (
        1,
        f"python3 would run 'bot.py', not a file: {tmp_path / 'bot.py'}",
    )
