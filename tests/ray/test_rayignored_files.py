"""A bot's file that a `.rayignore` leaves out of what is shipped to the Ray
workers (see conftest.py: these run inside a private network namespace)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tournament.config import load_config
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError, run_tournament

REPO = Path(__file__).resolve().parents[2]


def test_a_command_bot_file_left_out_by_rayignore_is_said_so(cluster: Any, tmp_path: Path) -> None:
    """The command bot's script is in the config's folder on the driver, and a
    .rayignore there leaves it out of the workers' copy. The nodes' check said
    only "files a bot needs must be in the config's folder or its python_path",
    which it is: the message now names the .rayignore that left it out."""
    cup = tmp_path / "cup"
    (cup / "cb").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "command-bot" / "command_bot.py", cup / "cb")
    (cup / ".rayignore").write_text("cb/command_bot.py\n")
    config_path = cup / "cup.toml"
    config_path.write_text(
        textwrap.dedent(
            """\
            game = "sheep-showdown"
            players = 2
            games_per_pairing = 1
            bootstrap = 0
            [options]
            rounds = 1
            [[bots]]
            name = "random"
            builtin = "random"
            [[bots]]
            name = "cmd"
            command = ["{python}", "command_bot.py"]
            cwd = "cb"
            sandbox = false
            """
        )
    )
    settings = ExecutorSettings(kind="ray", address=cluster.address, setup_timeout_seconds=60)
    database = tmp_path / "cup.sqlite"
    with pytest.raises(RunError) as raised:
        run_tournament(load_config(config_path), database=str(database), executor=settings)
    message = str(raised.value)
    assert "bot 'cmd': file 'command_bot.py' is missing" in message, message
    assert "not left out by .rayignore" in message, message
    assert not database.exists()
