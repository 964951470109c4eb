"""`{python}`, the interpreter running Sheepfold, run from a virtualenv reached
through a symbolic link (`.venv -> /srv/venvs/cup`, a checkout's venv kept
elsewhere): every sandbox binds that interpreter's folders by their real paths,
and `{python}` named the linked one, which no sandbox shows. Every command bot
written as the docs write it (`command = ["{python}", "bot.py"]`) was refused
before the first game, the line advising `{python}` itself ("needs
.venv/bin/python, which the bot's sandbox does not see ... name a program
there, such as {python}")."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from clients.launch.host_view import python_program
from tournament.botcheck import check_bots
from tournament.config import load_config


def _through_a_link(tmp_path: Path) -> str:
    """The running interpreter named through a link to its folder's parent."""
    folder, name = os.path.split(sys.executable)
    link = tmp_path / "venv-link"
    link.symlink_to(os.path.dirname(os.path.realpath(folder)), target_is_directory=True)
    return str(link / os.path.basename(os.path.realpath(folder)) / name)


def test_python_names_the_interpreter_by_its_real_folder_and_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    linked = _through_a_link(tmp_path)
    monkeypatch.setattr(sys, "executable", linked)
    folder, name = os.path.split(linked)
    # The folder resolved; the name kept (a venv's bin/python links to the
    # system's, which by its own path would not find the venv).
    assert python_program() == os.path.join(os.path.realpath(folder), name)
    assert not python_program().startswith(str(tmp_path))


def test_a_python_command_bot_passes_the_check_through_a_linked_venv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "bot.py").write_text("")
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-n-sheep"\nplayers = 2\n'
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
        '[[bots]]\nname = "theirs"\ncommand = ["{python}", "bot.py"]\ncwd = "bot"\n'
    )
    monkeypatch.setattr(sys, "executable", _through_a_link(tmp_path))
    check_bots(load_config(config))  # refused: "'{python}' needs .../venv-link/..."
